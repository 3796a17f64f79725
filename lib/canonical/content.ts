/** Canonical content: the protocol names and extensions, the parts of a message, messages, tools. */
import type { JsonObject } from '../json';

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
 * protocol that made it (a Responses built-in tool's call item, such as `web_search_call`; an
 * Anthropic server-tool block, such as `server_tool_use`): it stood
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
