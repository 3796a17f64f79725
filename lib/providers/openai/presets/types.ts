/** What a vendor's OpenAI-compatible dialect sets: the defaults an `OpenAIProvider` takes on its hosts. */
import type { Markers } from '../cache-markers';
import type { MaxTokensField } from '../encode-request';
import type { ReasoningReplay } from '../reasoning-replay';

/** The vendors with a preset of their own ({@link CompatiblePreset}); `generic` is every other server. */
export type CompatibleVendor = 'openai' | 'deepseek' | 'moonshot' | 'dashscope' | 'openrouter' | 'google' | 'generic';

/**
 * One vendor's dialect: each field is the default of the `OpenAIProvider` option of the same name (an option the
 * host sets wins). A preset is picked by the base URL's host ({@link matches}) or named by the `preset` option.
 */
export interface CompatiblePreset {
  readonly name: CompatibleVendor;
  /** Whether a base URL's host (lower case) is this vendor's. */
  matches(host: string): boolean;
  readonly maxTokensField: MaxTokensField;
  /** Which upstream model ids are reasoning models. */
  readonly reasoningModels: (upstreamModel: string) => boolean;
  /**
   * How earlier reasoning goes back on the assistant turns: the first turn's, and that of a conversation without this
   * upstream's reasoning; `none`, `reasoning_content` and `reasoning` give way to the field the upstream answers in
   * (learned: ../reasoning-replay.ts).
   */
  readonly reasoningReplay: ReasoningReplay;
  /** Which caller breakpoints go upstream as `cache_control`, per upstream model. */
  readonly cacheMarkers: (upstreamModel: string) => Markers;
  /** DashScope's thinking switch (`enable_thinking`) and its streamed-only thinking mode. */
  readonly dashScopeThinking: boolean;
}

/** `host` is `domain` or one of its subdomains. */
export function isDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

const never = () => false;

/** Breakpoints for a model whose id names Claude (which caches only at markers), else only a chat caller's own. */
export const claudeOrCallerMarkers = (upstreamModel: string): Markers =>
  /claude/i.test(upstreamModel) ? 'all' : 'chat';
const noMarkers = (): Markers => false;

/** The fields most presets share: `max_tokens`, no reasoning models known, no replay, automatic caching. */
export const BASE_PRESET = {
  maxTokensField: 'max_tokens',
  reasoningModels: never,
  reasoningReplay: 'none',
  cacheMarkers: noMarkers,
  dashScopeThinking: false,
} as const satisfies Partial<CompatiblePreset>;
