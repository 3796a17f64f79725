/**
 * Which field an OpenAI-compatible upstream wants the model's earlier reasoning back in (its "reasoning dialect"),
 * its vendor preset's (./presets/), or per model by the `reasoningReplay` option.
 */
import { configError } from '../../config-check';

/**
 * How the assistant turns of a conversation carry the model's reasoning back to an OpenAI-compatible upstream:
 * - `none`: not at all (OpenAI itself, and servers whose chat templates drop it);
 * - `reasoning_content`: the reasoning text on the assistant message (DeepSeek thinking mode, Kimi, Qwen); an assistant
 *   turn with tool calls and no reasoning of this upstream's gets `reasoning_content: ""`, since DeepSeek and Kimi
 *   refuse a thinking-mode tool-call turn without the field;
 * - `reasoning`: the same text in `reasoning` (for a server that reads it there);
 * - `reasoning_details`: OpenRouter's `reasoning_details` array, exactly as the upstream gave it (or, for reasoning it
 *   did not make, the unsigned text as `reasoning`);
 * - `google`: Google's OpenAI-compatible endpoint: each tool call's Gemini thought signature in
 *   `extra_content.google.thought_signature`, the documented placeholder on an unsigned first call of a step of the
 *   current turn.
 * Only reasoning without another vendor's signature is ever sent (docs/translation.md, *Reasoning through
 * OpenAI-compatible upstreams*).
 */
export type ReasoningReplay = 'none' | 'reasoning_content' | 'reasoning' | 'reasoning_details' | 'google';

const DIALECTS: ReadonlySet<string> = new Set<ReasoningReplay>([
  'none',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'google',
]);

/**
 * The `reasoningReplay` option resolved once, at creation, into a test of the upstream model id: a dialect for every
 * model, a function choosing one per model (an answer outside the list counts as `none`), or, absent, the preset's.
 */
export function reasoningReplayFor(
  option: unknown,
  preset: ReasoningReplay,
): (upstreamModel: string) => ReasoningReplay {
  if (option === undefined) return () => preset;
  if (typeof option === 'string' && DIALECTS.has(option)) {
    const fixed = option as ReasoningReplay;
    return () => fixed;
  }
  if (typeof option === 'function') {
    const choose = option as (upstreamModel: string) => unknown;
    return (upstreamModel) => {
      const chosen = choose(upstreamModel);
      return typeof chosen === 'string' && DIALECTS.has(chosen) ? (chosen as ReasoningReplay) : 'none';
    };
  }
  const dialects = [...DIALECTS].map((name) => `'${name}'`).join(', ');
  return configError(
    'OpenAIProvider',
    'reasoningReplay',
    `must be one of ${dialects} or a function (upstreamModel: string) => one of them.`,
  );
}
