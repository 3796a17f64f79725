/** The canonical text-generation request and its complete response: settings, usage, finish reasons, warnings. */
import type { ContentPart, Extensions, Message, OpaqueItem, ToolChoice, ToolDefinition } from './content';

/** Reasoning effort levels, the union of the three protocols' vocabularies. */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** What the caller asked of the model's reasoning. Absent means the model's default. */
export interface ReasoningSettings {
  /** false = thinking disabled; true = enabled (with a budget or adaptively). */
  enabled?: boolean;
  /** A token budget (Anthropic `budget_tokens`, Gemini `thinkingBudget`). */
  budgetTokens?: number;
  effort?: ReasoningEffort;
  /** Whether reasoning text should be returned to the caller. */
  includeThoughts?: boolean;
  /**
   * true: the model decides whether and how much to think (Anthropic `thinking: {type: 'adaptive'}`),
   * `effort` at most guiding it. A budget-only upstream thinks dynamically (Gemini 2.5: -1).
   * false: the caller fixed `budgetTokens` itself (Anthropic `{type: 'enabled', budget_tokens}`), which
   * an upstream offering both kinds then uses as given. Absent (the default): the provider chooses.
   */
  adaptive?: boolean;
}

/** Requested output format. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json-schema'; schema: Record<string, unknown>; name?: string; strict?: boolean };

/** A text-generation request, decoded from any protocol. */
export interface GenerateRequest {
  /** The model id the caller asked for (the public id; the provider gets its upstream id separately). */
  model: string;
  messages: Message[];
  stream: boolean;
  /** Upper bound on generated tokens (reasoning included). Absent: the model's default. */
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  /** Number of alternative completions (OpenAI `n`, Gemini `candidateCount`). Default 1. */
  choiceCount?: number;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  reasoning?: ReasoningSettings;
  responseFormat?: ResponseFormat;
  seed?: number;
  /** Opaque end-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  /**
   * What groups requests that share a long prefix for the upstream's prompt cache (OpenAI
   * `prompt_cache_key`); an Anthropic caller's `metadata.user_id` stands for one. Default: none.
   */
  promptCacheKey?: string;
  /** How long the upstream keeps the cached prefix (OpenAI `prompt_cache_retention`: `in_memory`, `24h`). Default: none. */
  promptCacheRetention?: string;
  /**
   * Whether a streamed answer should report its usage to the caller (OpenAI
   * `stream_options.include_usage`); protocols whose streams always carry usage leave it out.
   * Upstream streams are always asked for usage, which the gateway needs to charge.
   */
  includeStreamUsage?: boolean;
  extensions?: Extensions;
}

/** Why generation stopped: the unified value, and the raw upstream value when there was one. */
export interface FinishReason {
  unified: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  raw?: string;
  /** The stop sequence that matched, when known. */
  stopSequence?: string;
}

/**
 * Token usage. `inputTokens` counts every input token, cache reads and cache writes included (OpenAI
 * semantics), so the uncached input is `inputTokens - cacheReadTokens - cacheWriteTokens`;
 * `outputTokens` counts every generated token, reasoning included. Each provider's decoder and each
 * codec's encoder converts to and from its wire's own convention (docs/operations.md, "Billing").
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the upstream's prompt cache. */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the upstream's prompt cache (every lifetime). */
  cacheWriteTokens?: number;
  /**
   * Of `cacheWriteTokens`, those written with the long lifetime (Anthropic's 1-hour TTL), priced at
   * `pricing.cacheWriteLong` rather than `pricing.cacheWrite`.
   */
  cacheWriteLongTokens?: number;
  /** Of `outputTokens`, those spent reasoning (never charged apart from the output). */
  reasoningTokens?: number;
}

/** One alternative completion. */
export interface Choice {
  index: number;
  content: ContentPart[];
  finishReason: FinishReason;
  /** What the answer held among its parts that no canonical part models, each at its place. Default: none. */
  opaque?: OpaqueItem[];
  extensions?: Extensions;
}

/**
 * Something of the caller's request that the gateway did not pass on, because the upstream (or the
 * canonical types) cannot express it, shaped after the Vercel AI SDK's call warnings:
 * - `unsupported-setting`: a setting dropped, named by its wire name (`top_k`, `seed`,
 *   `parallel_tool_calls`, …);
 * - `unsupported-tool`: a tool dropped, named by its type (a built-in such as `web_search`);
 * - `other`: anything else, said in `message`.
 * `details` (and `message`) say why, in the gateway's words; they never quote the caller's content.
 * A drop that would change the answer is not a warning but a 400.
 */
export type CallWarning =
  | { type: 'unsupported-setting'; setting: string; details?: string }
  | { type: 'unsupported-tool'; tool: string; details?: string }
  | { type: 'other'; message: string };

/** A complete (non-streamed) text-generation response. */
export interface GenerateResponse {
  id: string;
  /** The model that answered, as the caller should see it. */
  model: string;
  /** Unix seconds. */
  created: number;
  choices: Choice[];
  usage: Usage;
  /**
   * What the gateway could not pass on to the upstream of this answer: settings and tools of the
   * request that the caller's codec or the provider dropped (docs/translation.md, "Warnings"). The
   * gateway fills it; absent when nothing was dropped.
   */
  warnings?: CallWarning[];
  /** What the upstream's answer carried that the canonical types do not model (see {@link Extensions}). */
  extensions?: Extensions;
}
