/**
 * What the OpenAI Responses API carries under `extensions['openai-responses']`: the shapes its codec writes and a
 * Responses upstream reads.
 */
import type { Extensions, OpaqueItem, ToolDefinition } from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';

/** The extension key of the Responses protocol. */
export const RESPONSES = 'openai-responses';

/**
 * A request's extension: the body's top-level fields the canonical request does not model, as the
 * caller sent them (`include`, `store`, `metadata`, `prompt_cache_key`, `client_metadata`,
 * `truncation`, `service_tier`, `prompt`, `top_logprobs`, `max_tool_calls`, a server's own …). Three
 * keys hold only part of the body's field, and a Responses upstream merges them rather than sets them:
 * - `tools`: the built-in tools (`web_search`, `file_search`, `mcp`, …), which only a Responses
 *   upstream can run; it appends them to the function tools it encodes. Default: none.
 * - `text`: `text` without its `format` (which is `responseFormat`), e.g. `{verbosity}`. Default: none.
 * - `reasoning`: `reasoning` without `effort` (which is `reasoning.effort`), e.g. `{summary}`. Default: none.
 * `tool_choice` is here only when the canonical `toolChoice` cannot say it (`allowed_tools`, a
 * built-in's choice object); then `toolChoice` is the nearest canonical choice.
 * Every call a Responses caller makes to `POST /v1/responses` has this extension (its `store` is
 * always set, as the gateway honours it): a Responses upstream tells by it whether its caller is
 * shown the answer's built-in tool items.
 */
export interface ResponsesRequestExtension extends JsonObject {
  tools?: JsonObject[];
  text?: JsonObject;
  reasoning?: JsonObject;
  tool_choice?: JsonObject;
}

/**
 * A message's extension: its item's unmodelled keys, `instructions: true` on the system message
 * that was the body's `instructions` (not an input item), and `role` on a system message that was
 * an input item: the item's wire role, `developer` or `system` (a Responses upstream sends it back
 * as that item, where it stood). Default: none.
 */
export interface ResponsesMessageExtension extends JsonObject {
  instructions?: boolean;
  role?: 'developer' | 'system';
}

/**
 * A tool's extension: what its canonical {@link ToolDefinition} does not say.
 * - `type: 'custom'` (with its `format`): a custom tool, which takes free text; canonically a
 *   function with one string parameter `input`, its call's arguments `{"input": <text>}`.
 * - `namespace` / `name`: a tool of a `namespace` tool, flattened to the canonical name
 *   `<namespace>__<name>` (see {@link namespacedName}); the namespace's `description` is in
 *   `namespace_description`. Default: neither (a plain function tool).
 * Any other unmodelled key of the tool, as sent.
 */
export interface ResponsesToolExtension extends JsonObject {
  type?: 'custom';
  format?: JsonObject;
  namespace?: string;
  namespace_description?: string;
  name?: string;
}

/**
 * The extension of an {@link OpaqueItem}: an item of the Responses API that no canonical part models
 * — a built-in tool's call or output (`web_search_call`, `file_search_call`, `code_interpreter_call`,
 * `image_generation_call`, `mcp_call`, `mcp_list_tools`, `mcp_approval_request`,
 * `mcp_approval_response`, `local_shell_call`, `computer_call`, their outputs, a newer API's own …).
 * - `item`: the wire item whole, as the caller or the upstream sent it (its own `id` kept). On every
 *   opaque item of a request or an answer, and on a stream's `opaque` part with `item: true` (the
 *   item done).
 * - `event`: in a stream, one upstream event of the item before it is done (its
 *   `response.output_item.added`, its own progress events such as `response.web_search_call.searching`),
 *   as sent, without its `sequence_number`; the Responses codec relays it with its own sequence
 *   number and output index.
 */
export interface ResponsesOpaqueExtension extends JsonObject {
  item?: JsonObject;
  event?: JsonObject;
}

/**
 * The extension of a text part of an answer: the keys of its `output_text` (or `refusal`) part that
 * the canonical part does not model (`annotations`, `logprobs`: left out when empty), `type:
 * 'refusal'` for a refusal, and `item`: the unmodelled keys of the `message` item the part begins
 * (`phase`, a server's own). A part with `item` starts a new message item; adjacent text parts
 * without it belong to one. Default: none of these.
 */
export interface ResponsesTextExtension extends JsonObject {
  type?: 'refusal';
  item?: JsonObject;
}

/** The opaque item that holds the Responses item `item`, before content part `at`. */
export function opaqueItem(at: number, item: JsonObject): OpaqueItem {
  return { at, extensions: { [RESPONSES]: { item } } };
}

/** The Responses item an opaque item holds, if it holds one. */
export function opaqueWireItem(opaque: Pick<OpaqueItem, 'extensions'>): JsonObject | undefined {
  const item = responsesExtension<ResponsesOpaqueExtension>(opaque.extensions)?.item;
  return isJsonObject(item) ? item : undefined;
}

/** The Responses items of `opaque` that stood before content part `at` (for the last part: also after it). */
export function opaqueItemsAt(opaque: readonly OpaqueItem[] | undefined, at: number, last: boolean): JsonObject[] {
  if (!opaque) return [];
  const items: JsonObject[] = [];
  for (const entry of opaque) {
    if (entry.at !== at && !(last && entry.at > at)) continue;
    const item = opaqueWireItem(entry);
    if (item) items.push(item);
  }
  return items;
}

/** Copies onto an encoded wire object the keys of `fields` it does not already have (the encoder's own values win). */
export function mergeFields<T extends JsonObject>(encoded: T, fields: JsonObject | undefined): T {
  if (fields === undefined) return encoded;
  for (const key in fields) {
    if (!Object.hasOwn(encoded, key) && Object.hasOwn(fields, key)) (encoded as JsonObject)[key] = fields[key];
  }
  return encoded;
}

/** The separator between a namespace and a tool's name in a flattened canonical tool name. */
export const NAMESPACE_SEPARATOR = '__';

/** The canonical name of tool `name` of namespace `namespace`. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}${NAMESPACE_SEPARATOR}${name}`;
}

/** The parameters schema of a custom tool's canonical function: one string `input`. */
export function customToolParameters(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { input: { type: 'string' } },
    required: ['input'],
    additionalProperties: false,
  };
}

/** A custom tool call's free text as canonical tool-call arguments. */
export function customToolArguments(input: string): string {
  return JSON.stringify({ input });
}

/**
 * The free text of a custom tool call's canonical arguments (the arguments themselves when they are not `{"input":
 * <string>}`).
 */
export function customToolInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isJsonObject(parsed) && typeof parsed.input === 'string') return parsed.input;
  } catch {
    // a model's partial or invalid JSON: the text as it is
  }
  return args;
}

/** The Responses extension of a canonical object, if it has one. */
export function responsesExtension<T extends JsonObject = JsonObject>(
  extensions: Extensions | undefined,
): T | undefined {
  return extensions?.[RESPONSES] as T | undefined;
}

/** The Responses extension of the tool named `name` among `tools`, if that tool has one. */
export function toolExtension(
  tools: readonly ToolDefinition[] | undefined,
  name: string,
): ResponsesToolExtension | undefined {
  if (!tools) return undefined;
  for (const tool of tools) {
    if (tool.name === name) return responsesExtension<ResponsesToolExtension>(tool.extensions);
  }
  return undefined;
}
