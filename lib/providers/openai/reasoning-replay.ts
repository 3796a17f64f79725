/**
 * Which field an OpenAI-compatible upstream wants the model's earlier reasoning back in (its "reasoning dialect"): the
 * `reasoningReplay` option's, else the field the upstream's own answers came in (learned: carried on the conversation's
 * reasoning), else its vendor preset's (./presets/).
 */
import type { Message } from '../../canonical';
import { configError } from '../../config-check';
import { REASONING_FIELD_CARRIED, unpackReasoningField } from '../../wire/openai/reasoning-field';

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

/** The dialect of one request to an upstream model, its conversation given. */
export type ReplayChooser = (upstreamModel: string, messages: readonly Message[]) => ReasoningReplay;

/**
 * The preset dialects a learned field stands in for: those that send plain text or nothing. OpenRouter's and Google's
 * hosts take their reasoning back in structures of their own (`reasoning_details`, thought signatures), which stay.
 */
const LEARNABLE: ReadonlySet<ReasoningReplay> = new Set<ReasoningReplay>(['none', 'reasoning_content', 'reasoning']);

/**
 * The `reasoningReplay` option resolved once, at creation, into a chooser: a dialect for every model, or a function
 * choosing one per model (an answer outside the list counts as `none`). The host operator's option always wins. Absent,
 * the field this provider's upstream (`upstream`, the provider's name) answered in, where the conversation carries it,
 * else the preset's dialect (the first turn's, and that of a conversation without reasoning from this upstream).
 */
export function reasoningReplayFor(option: unknown, preset: ReasoningReplay, upstream: string): ReplayChooser {
  if (option === undefined) {
    if (!LEARNABLE.has(preset)) return () => preset;
    return (_upstreamModel, messages) => learnedReplay(messages, upstream) ?? preset;
  }
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

/**
 * The field `upstream` (a provider's name) last answered its reasoning in, as the conversation carries it on an
 * assistant turn's reasoning part or first tool call (lib/wire/openai/reasoning-field.ts), or undefined. Another
 * upstream's field is never taken: it says how that one wants its reasoning, not this one.
 */
export function learnedReplay(messages: readonly Message[], upstream: string): ReasoningReplay | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'reasoning' && part.type !== 'tool-call') continue;
      const packed = part.providerMetadata?.[REASONING_FIELD_CARRIED.name]?.[REASONING_FIELD_CARRIED.metadataKey];
      const learned = unpackReasoningField(packed);
      if (learned?.upstream === upstream) return learned.field;
    }
  }
  return undefined;
}
