/**
 * What the Anthropic messages protocol carries under its key of canonical `extensions`, for its codec and its provider.
 */
import type { Extensions, OpaqueItem, ProtocolName } from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';

/** The key of the Anthropic messages protocol in canonical {@link Extensions}. */
export const ANTHROPIC_MESSAGES_KEY = 'anthropic-messages' satisfies ProtocolName;

/** A wire content block or tool kept whole because no canonical object stands for it (a server tool, its results). */
export type AnthropicOpaque = JsonObject;

/**
 * A request's extension: its top-level keys the codec does not model, the unmodelled keys of the
 * settings objects it models in part, and what the provider needs to rebuild the caller's body.
 * Every field is optional; absent means the caller sent nothing of it.
 */
export type AnthropicRequestExtension = {
  /** Top-level keys (`context_management`, `container`, `mcp_servers`, `service_tier`, a newer API's own…). */
  fields?: JsonObject;
  /** Keys of `thinking` the codec does not model (a `display` other than `omitted`). */
  thinking?: JsonObject;
  /** Keys of `output_config` other than `effort` and `format`. */
  outputConfig?: JsonObject;
  /** Keys of `metadata` other than a non-empty `user_id`. */
  metadata?: JsonObject;
  /** Keys of `tool_choice` the canonical choice does not say (`disable_parallel_tool_use: false`). */
  toolChoice?: JsonObject;
  /**
   * A `tool_choice` naming a server tool (`{ type: "tool", name: "web_search" }`, as Claude Code's WebSearch sends it),
   * whole: no canonical choice stands for it, so it is sent as given to an Anthropic upstream (with the server tools)
   * and left out for another, whose choice stays the default.
   */
  serverToolChoice?: JsonObject;
  /**
   * The effort is `output_config.effort`, which steers the whole answer (not only thinking): it is
   * sent with thinking off, and without `thinking` it leaves thinking off. Default false (another
   * protocol's effort is a thinking effort).
   */
  answerEffort?: true;
  /** Tools only Anthropic runs (`web_search_20250305`, `mcp_toolset`…), each with its index in the caller's `tools`. */
  serverTools?: Array<{ index: number; tool: AnthropicOpaque }>;
  /** The caller's `anthropic-beta` values, one per entry (they also ask for `?beta=true`). */
  betas?: string[];
};

/** A message's extension. Every field is optional; absent means false or none. */
export type AnthropicMessageExtension = {
  /** The message's keys other than `role` and `content`. */
  fields?: JsonObject;
  /** Its `content` was a string (the one text part). */
  stringContent?: true;
  /** A `role: "system"` message inside `messages`, kept at its place rather than lifted into `system`. */
  inline?: true;
  /** It began a wire message right after one of the same role, which the encoder must not merge it into. */
  newTurn?: true;
  /** Blocks without a canonical part that ended the message (a server tool's use or result). */
  trailing?: AnthropicOpaque[];
};

/** A content part's extension. Every field is optional; absent means none. */
export type AnthropicPartExtension = {
  /** The block's keys the codec does not model (`cache_control`, `citations`, a document's `context`…). */
  fields?: JsonObject;
  /** Blocks without a canonical part that stood right before this one. */
  leading?: AnthropicOpaque[];
  /**
   * The `document` block a text (or image) part came from, without its source's `data` or
   * `content`: a text source is one part; the parts of one `content` source share this very object.
   */
  document?: JsonObject;
  /** A `tool_result` whose `content` was a string. */
  stringContent?: true;
  /**
   * A PDF a `tool_result` carried (canonical results hold no files): that result's id and the PDF's index in its
   * content.
   */
  toolResult?: { id: string; index: number };
};

/**
 * A tool definition's extension: its keys the codec does not model (`cache_control`, `defer_loading`, `type:
 * "custom"`…).
 */
export type AnthropicToolExtension = {
  fields?: JsonObject;
};

/**
 * An answer's extension: its top-level keys the gateway does not model and its usage block's. A streamed
 * answer's `response-start` carries `message_start.message`'s (its usage's in `usage`), and its `finish`
 * the whole answer's: those of `message_start` with each non-null one a `message_delta` sent over them
 * (as the SDKs accumulate them), so the collected answer has them all, and in `messageDelta` the
 * `message_delta` event's own, where they stood, for a streamed Anthropic caller.
 */
export type AnthropicResponseExtension = {
  /** `container`, `context_management`, `stop_details`, a newer API's own… */
  fields?: JsonObject;
  /** Usage keys other than the four token counts (`service_tier`, `cache_creation`, `server_tool_use`…). */
  usage?: JsonObject;
  /** On a stream's `finish` only: the unmodelled keys of its `message_delta` event, as sent. */
  messageDelta?: AnthropicMessageDeltaFields;
};

/** The keys of a `message_delta` event the codec does not model, each in its place. */
export type AnthropicMessageDeltaFields = {
  /** Its `delta`'s keys beyond `stop_reason` and `stop_sequence` (`container`, `stop_details`…). */
  delta?: JsonObject;
  /** Its own top-level keys beyond `type`, `delta` and `usage` (`context_management`…). */
  fields?: JsonObject;
  /** Its usage's keys beyond the four token counts (`server_tool_use`, `service_tier`…). */
  usage?: JsonObject;
};

/**
 * The extension of an {@link OpaqueItem} of an answer: a content block no canonical part models
 * (`server_tool_use`, `web_search_tool_result`, `web_fetch_tool_result`, `code_execution_tool_result`,
 * `mcp_tool_use`, a newer API's own…).
 * - `item`: the block whole, as the upstream sent it. On every opaque item, and on a stream's
 *   `opaque` part with `item: true` (the block done: its `content_block_stop`).
 * - `event`: in a stream, the block's `content_block_start` or one of its `content_block_delta`s, as
 *   sent, without its `index`; the messages codec relays it with its own index.
 */
export interface AnthropicOpaqueExtension extends JsonObject {
  item?: AnthropicOpaque;
  event?: JsonObject;
}

/** The opaque item that holds the block `block`, before content part `at`. */
export function anthropicOpaqueItem(at: number, block: AnthropicOpaque): OpaqueItem {
  return { at, extensions: { [ANTHROPIC_MESSAGES_KEY]: { item: block } } };
}

/** The block an opaque item holds, if it is an Anthropic one. */
export function anthropicOpaqueBlock(opaque: Pick<OpaqueItem, 'extensions'>): AnthropicOpaque | undefined {
  const item = anthropicExtension<AnthropicOpaqueExtension>(opaque.extensions)?.item;
  return isJsonObject(item) ? item : undefined;
}

/** The Anthropic blocks of `opaque` that stood before content part `at` (for the last part: also after it). */
export function anthropicBlocksAt(
  opaque: readonly OpaqueItem[] | undefined,
  at: number,
  last: boolean,
): AnthropicOpaque[] {
  if (!opaque) return [];
  const blocks: AnthropicOpaque[] = [];
  for (const entry of opaque) {
    if (entry.at !== at && !(last && entry.at > at)) continue;
    const block = anthropicOpaqueBlock(entry);
    if (block) blocks.push(block);
  }
  return blocks;
}

/** The Anthropic extension of a canonical object, typed by the caller for the object's level. */
export function anthropicExtension<T extends JsonObject>(extensions: Extensions | undefined): T | undefined {
  return extensions?.[ANTHROPIC_MESSAGES_KEY] as T | undefined;
}

/**
 * `{ 'anthropic-messages': extension }`, or undefined for an empty extension (nothing allocated for the common case).
 */
export function anthropicExtensions(extension: JsonObject | undefined): Extensions | undefined {
  if (extension === undefined) return undefined;
  for (const _key in extension) return { [ANTHROPIC_MESSAGES_KEY]: extension };
  return undefined;
}

/** Copies onto an encoded wire object the extension's keys it does not already have (the encoder's own values win). */
export function mergeUnmodelled<T extends JsonObject>(encoded: T, fields: JsonObject | undefined): T {
  if (fields === undefined) return encoded;
  for (const key in fields) {
    if (!Object.hasOwn(encoded, key) && Object.hasOwn(fields, key)) (encoded as JsonObject)[key] = fields[key];
  }
  return encoded;
}
