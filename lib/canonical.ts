/** The canonical request, response and stream types that every protocol codec and provider speaks. */
import type { JsonObject } from './json';

/**
 * The wire protocols the gateway speaks, each the name of a caller-side codec (`lib/protocols/<name>/`)
 * and of the format an upstream provider may speak. Keys of {@link Extensions}.
 */
export type ProtocolName =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini'
  | 'openai-images'
  | 'openai-embeddings';

/**
 * What a protocol's object carried that the canonical types do not model, keyed by the protocol it
 * came in (the AI SDK's `providerOptions` / `providerMetadata`). The caller's codec fills its own key
 * when it decodes (a request's, message's, part's or tool's unmodelled fields: Anthropic
 * `cache_control`, OpenAI `logprobs`, Gemini `safetySettings`); a provider whose upstream speaks that
 * protocol sends them back on the object it encodes, and every other reads nothing of it. Answers
 * travel the same way, from the provider's decoder to the caller's encoder. What each protocol puts
 * under its key is a wire fact of that protocol (`lib/wire/<vendor>/extensions.ts`). Never a second
 * copy of what the canonical fields already say: the canonical fields are the one truth of a call.
 * A host's own codec may use its own name as a key.
 */
export type Extensions = { [P in ProtocolName]?: JsonObject } & { [protocol: string]: JsonObject | undefined };

/**
 * A prompt-cache breakpoint the caller set on a part or a tool: the prompt up to and including it
 * should be cached (Anthropic `cache_control: {type: "ephemeral", ttl?}`, which OpenRouter and LiteLLM
 * also take on chat-completions content parts and tools). `ttl` is the cache's lifetime; absent, the
 * upstream's default (Anthropic: 5 minutes). An upstream without explicit breakpoints ignores it
 * (docs/translation.md, *Prompt caching*).
 */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A piece of content inside a message. Parts are a discriminated union on `type`. */
export type ContentPart = TextPart | ImagePart | FilePart | ToolCallPart | ToolResultPart | ReasoningPart;

/**
 * Opaque per-vendor data that must travel with a part (for example a Gemini `thoughtSignature`).
 * Keyed by the vendor that minted it, so it is only ever sent back to that vendor.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
  providerMetadata?: ProviderMetadata;
  /** A prompt-cache breakpoint after this part. Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** Where binary content comes from: inline base64 or a URL the target may fetch. */
export type MediaSource =
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string; mediaType?: string };

/** An image input. `detail` is the OpenAI hint (`auto`, `low`, `high`), kept when known. */
export interface ImagePart {
  type: 'image';
  source: MediaSource;
  detail?: string;
  providerMetadata?: ProviderMetadata;
  /** A prompt-cache breakpoint after this part. Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** A non-image file input (a PDF, a text document). */
export interface FilePart {
  type: 'file';
  source: MediaSource;
  filename?: string;
  providerMetadata?: ProviderMetadata;
  /** A prompt-cache breakpoint after this part. Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** A tool (function) call made by the assistant. `arguments` is the raw JSON text, which may be invalid. */
export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  arguments: string;
  providerMetadata?: ProviderMetadata;
  /** A prompt-cache breakpoint after this part. Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** The result of a tool call, sent back by the caller in a `tool` message. */
export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  /** The called tool's name, when the protocol carries it (Gemini needs it; OpenAI does not send it). */
  toolName?: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
  providerMetadata?: ProviderMetadata;
  /** A prompt-cache breakpoint after this part. Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** Model reasoning ("thinking"). `signature` and `redactedData` are vendor-bound and opaque. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  providerMetadata?: ProviderMetadata;
  extensions?: Extensions;
}

/** Roles of the canonical conversation. System messages may appear anywhere, as OpenAI and Claude Code send them. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * Something of a conversation or an answer that no canonical part models, kept at its place for the
 * protocol that made it (a Responses built-in tool's call item, such as `web_search_call`): it stood
 * right before content part `at` of its message or choice (`at` equal to the content's length: after
 * the last part). What it is lives only in `extensions[<protocol>]`; an upstream or a caller of that
 * protocol gets it back where it stood, every other drops it (a warning where the request carried it).
 */
export interface OpaqueItem {
  at: number;
  extensions: Extensions;
}

/** One turn of the conversation. */
export interface Message {
  role: Role;
  content: ContentPart[];
  /** The participant name, where the protocol has one (OpenAI `name`). */
  name?: string;
  /** What stood among this turn's parts that no canonical part models, each at its place. Default: none. */
  opaque?: OpaqueItem[];
  extensions?: Extensions;
}

/** A function the model may call. `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
  /** A prompt-cache breakpoint after this tool (the tools come first in a prompt). Default: none. */
  cacheControl?: CacheControl;
  extensions?: Extensions;
}

/** How the model may use tools. */
export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

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

/**
 * A streamed response is an async iterable of these parts, in order:
 * `response-start`, then for each content block a `*-start`, deltas and `*-end` (blocks do not
 * interleave), then exactly one `finish`. An `error` part may end the stream instead of `finish`.
 * These are what codecs encode, usage complete; a provider yields {@link ProviderStreamPart}s.
 * `extensions` (see {@link Extensions}) carry what the upstream's chunks had that the canonical
 * parts do not model, for a caller of the upstream's own protocol: the stream-level fields on
 * `response-start`, a delta's own (OpenAI `logprobs`) on the `text-delta` it came with.
 * `providerMetadata` goes on the first part that can hold it once it is known: a tool call's on its
 * `tool-call-start` when the upstream sends the call whole (as Gemini does), so an encoder that names
 * the call by it writes it at once; on the `*-end` part what only the end reveals (a text or thinking
 * block's signature). Metadata on both a start and its end is merged, the end's keys winning.
 * A block's `*-end` part may carry the `extensions` of the upstream's whole block (a Responses
 * output item's own fields, known when it is done), and `finish` those of the finished answer.
 * A tool call the upstream streamed in pieces of its own shape (Gemini's `partialArgs`) may carry each
 * piece as it came in the `extensions` of the part it became (start, delta or end), so a caller of that
 * protocol gets the pieces unchanged.
 * An `opaque` part is a piece of the upstream's stream that no canonical part models (a Responses
 * built-in tool's item and its progress events), between blocks, for a caller of the upstream's
 * protocol; every other encoder skips it. The one with `item: true` holds the finished item whole,
 * the {@link OpaqueItem} a collected answer keeps.
 */
export type StreamPart =
  | {
      type: 'response-start';
      id: string;
      model: string;
      created: number;
      usage?: Partial<Usage>;
      extensions?: Extensions;
    }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string; extensions?: Extensions }
  | { type: 'text-end'; id: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | {
      type: 'reasoning-end';
      id: string;
      signature?: string;
      redactedData?: string;
      providerMetadata?: ProviderMetadata;
      extensions?: Extensions;
    }
  | { type: 'tool-call-start'; id: string; name: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'tool-call-delta'; id: string; delta: string; extensions?: Extensions }
  | { type: 'tool-call-end'; id: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'opaque'; extensions: Extensions; item?: true }
  | { type: 'finish'; usage: Usage; finishReason: FinishReason; extensions?: Extensions }
  | { type: 'error'; error: Error };

/**
 * A `finish` part as a provider may give it: figures the upstream did not report are left out
 * (`usage` itself may be), and the gateway counts them before the part goes on — the output from
 * the parts it relayed, the input from the request (or the `response-start` figure). So a stream's
 * output text is gathered once, by the gateway, not again by every provider for the case where
 * the usage is missing.
 */
export type ProviderFinishPart = {
  type: 'finish';
  usage?: Partial<Usage>;
  finishReason: FinishReason;
  extensions?: Extensions;
};

/** What a provider's stream yields: {@link StreamPart}s, with `finish` as {@link ProviderFinishPart}. */
export type ProviderStreamPart = Exclude<StreamPart, { type: 'finish' }> | ProviderFinishPart;

/** An image-generation request (OpenAI images protocol). */
export interface ImageRequest {
  model: string;
  prompt: string;
  /** Number of images, 1..10. */
  n: number;
  width: number;
  height: number;
  /** `b64_json` returns base64; `url` returns a URL (a data: URL for the local provider). */
  responseFormat: 'b64_json' | 'url';
  quality?: string;
  style?: string;
  background?: string;
  outputFormat?: string;
  user?: string;
  extensions?: Extensions;
}

/** One generated image. */
export interface GeneratedImage {
  /** Base64 of the encoded image file. */
  base64: string;
  mediaType: string;
  revisedPrompt?: string;
}

/** An image-generation response. */
export interface ImageResponse {
  created: number;
  images: GeneratedImage[];
  /** Token usage where the provider reports it. */
  usage?: Usage;
  extensions?: Extensions;
}

/**
 * One input of an embedding call: text, or token ids (what OpenAI's `/v1/embeddings` accepts as an
 * array of integers; an upstream that takes only text refuses it with a 400).
 */
export type EmbedInput = string | readonly number[];

/** An embedding request (OpenAI `/v1/embeddings`, Gemini `:embedContent` / `:batchEmbedContents`). */
export interface EmbedRequest {
  model: string;
  /** The inputs, one vector each, in this order. Never empty. */
  inputs: EmbedInput[];
  /** Length of each vector (OpenAI `dimensions`, Gemini `outputDimensionality`). Default: the model's own. */
  dimensions?: number;
  /**
   * What the vectors are for, in Gemini's terms (`RETRIEVAL_QUERY`, `RETRIEVAL_DOCUMENT`,
   * `SEMANTIC_SIMILARITY`, `CLASSIFICATION`, `CLUSTERING`, …). An upstream without a counterpart
   * drops it with an `unsupported-setting` warning.
   */
  taskType?: string;
  /** The document's title (Gemini, with `RETRIEVAL_DOCUMENT`); dropped with a warning where there is no counterpart. */
  title?: string;
  /** The end user, for the upstream's abuse monitoring (OpenAI `user`). */
  user?: string;
  extensions?: Extensions;
}

/** Token usage of an embedding call: embeddings have input only. */
export interface EmbedUsage {
  inputTokens: number;
}

/** An embedding response. */
export interface EmbedResponse {
  /** One vector per input, in input order. */
  vectors: Array<Float32Array | number[]>;
  /** The model that answered, as the upstream named it. */
  model: string;
  /** The upstream's reported usage; absent when it reports none (Gemini), and the gateway's count is charged. */
  usage?: EmbedUsage;
  /** What the gateway could not pass on to the upstream (see {@link GenerateResponse.warnings}). */
  warnings?: CallWarning[];
  extensions?: Extensions;
}
