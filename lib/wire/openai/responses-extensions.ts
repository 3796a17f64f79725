/**
 * What the OpenAI Responses API carries under `extensions['openai-responses']`: the shapes its codec writes and a
 * Responses upstream reads.
 */
import type { Extensions, ToolDefinition } from '../../canonical';
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
