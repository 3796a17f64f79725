/**
 * What the Responses answer and stream decoders share: usage, finish, reasoning metadata, tool-call names, a failed
 * response's error.
 */
import type {
  ContentPart,
  Extensions,
  FinishReason,
  GenerateRequest,
  ProviderMetadata,
  Usage,
} from '../../../canonical';
import type { GatewayError } from '../../../errors';
import { isJsonObject, unmodelledFields, type JsonObject } from '../../../json';
import {
  OPENAI_CARRIED_REASONING,
  packReasoning,
  type CarriedReasoningItem,
} from '../../../wire/openai/carried-reasoning';
import { customToolArguments, namespacedName, RESPONSES } from '../../../wire/openai/responses-extensions';
import { chatStreamError } from '../stream-error';
import { reportDrop, type Warn } from '../../../warnings';
import type { Debugger } from 'debug';

/** The usage block of a Response. */
export interface ResponsesUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/**
 * Response usage → canonical usage (reasoning tokens are inside `output_tokens`, cache reads and writes inside
 * `input_tokens`, as canonical counts them).
 */
export function decodeResponsesUsage(usage: ResponsesUsage): Usage {
  const result: Usage = { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
  const cached = usage.input_tokens_details?.cached_tokens;
  const written = usage.input_tokens_details?.cache_write_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (cached) result.cacheReadTokens = cached;
  if (written) result.cacheWriteTokens = written;
  if (reasoning) result.reasoningTokens = reasoning;
  return result;
}

/** The figures the upstream reported: those it left out stay out, for the gateway to count. */
export function reportedUsage(usage: unknown): Partial<Usage> | undefined {
  if (!isJsonObject(usage)) return undefined;
  const decoded = decodeResponsesUsage(usage as ResponsesUsage);
  const reported: Partial<Usage> = { ...decoded };
  if (typeof usage.input_tokens !== 'number') delete reported.inputTokens;
  if (typeof usage.output_tokens !== 'number') delete reported.outputTokens;
  return reported;
}

/**
 * A Response's `status` (and `incomplete_details.reason`) → canonical finish reason; function calls made a completed
 * answer `tool-calls`.
 */
export function responsesFinishReason(response: JsonObject, sawToolCalls: boolean): FinishReason {
  if (response.status === 'incomplete') {
    const reason =
      isJsonObject(response.incomplete_details) && typeof response.incomplete_details.reason === 'string'
        ? response.incomplete_details.reason
        : undefined;
    if (reason === 'content_filter') return { unified: 'content-filter', raw: reason };
    return { unified: 'length', raw: reason ?? 'incomplete' };
  }
  if (sawToolCalls) return { unified: 'tool-calls', raw: 'completed' };
  return { unified: 'stop', raw: typeof response.status === 'string' ? response.status : 'completed' };
}

/**
 * The error a `failed` response or an `error` event stands for (a rate limit, an overload, else a 502), the upstream's
 * message kept.
 */
export function responsesFailure(error: unknown, upstream: string): GatewayError {
  return chatStreamError(error, JSON.stringify({ error }), upstream);
}

/** The reasoning item of an answer as it must go back (see lib/wire/openai/carried-reasoning.ts). */
export function carriedItem(item: JsonObject): CarriedReasoningItem {
  const id = typeof item.id === 'string' ? item.id : '';
  return typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0
    ? { id, encryptedContent: item.encrypted_content }
    : { id };
}

/** `{openai: {reasoning: <packed>}}` for reasoning items, or undefined without any. */
export function reasoningMetadata(items: readonly CarriedReasoningItem[]): ProviderMetadata | undefined {
  if (items.length === 0) return undefined;
  return { [OPENAI_CARRIED_REASONING.name]: { [OPENAI_CARRIED_REASONING.metadataKey]: packReasoning(items) } };
}

/** A reasoning item's text: its raw reasoning (`content`) when sent, else its summaries, joined by a blank line. */
export function reasoningItemText(item: JsonObject): string {
  const texts = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((entry) => (isJsonObject(entry) && typeof entry.text === 'string' ? [entry.text] : []))
      : [];
  const content = texts(item.content);
  return (content.length > 0 ? content : texts(item.summary)).join('\n\n');
}

/** The canonical name of a call item (`<namespace>__<name>` inside a namespace). */
export function callName(item: JsonObject): string {
  const name = typeof item.name === 'string' ? item.name : '';
  return typeof item.namespace === 'string' && item.namespace.length > 0 ? namespacedName(item.namespace, name) : name;
}

/** A call item's canonical arguments: a function call's JSON text, a custom tool call's input as `{"input": …}`. */
export function callArguments(item: JsonObject): string {
  if (item.type === 'custom_tool_call') return customToolArguments(typeof item.input === 'string' ? item.input : '');
  return typeof item.arguments === 'string'
    ? item.arguments
    : isJsonObject(item.arguments)
      ? JSON.stringify(item.arguments)
      : '';
}

/** Whether an output item is a tool call the canonical response models. */
export function isCallItem(item: JsonObject): boolean {
  return item.type === 'function_call' || item.type === 'custom_tool_call';
}

/** Keys of a `message` output item the canonical parts say (or the codec rebuilds: its id, its status). */
export const MESSAGE_ITEM_FIELDS: ReadonlySet<string> = new Set(['type', 'id', 'role', 'status', 'content']);
/** Keys of a `reasoning` output item the canonical part says, or the codec rebuilds. */
export const REASONING_ITEM_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'id',
  'summary',
  'content',
  'encrypted_content',
  'status',
]);
/** Keys of a `function_call` / `custom_tool_call` output item the canonical part says, or the codec rebuilds. */
export const CALL_ITEM_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'id',
  'call_id',
  'name',
  'namespace',
  'arguments',
  'input',
  'status',
]);
const TEXT_PART_FIELDS: ReadonlySet<string> = new Set(['type', 'text', 'refusal']);

/**
 * A message's text part's extension (`ResponsesTextExtension`): the part's unmodelled keys
 * (`annotations` and `logprobs` when not empty), `type: 'refusal'` for a refusal, and `item`, the
 * unmodelled keys of the message item when this part begins it.
 */
export function textPartFields(
  part: JsonObject,
  type: 'refusal' | undefined,
  item: JsonObject | undefined,
): JsonObject | undefined {
  let fields = unmodelledFields(part, TEXT_PART_FIELDS);
  if (fields) {
    for (const name of ['annotations', 'logprobs'])
      if (Array.isArray(fields[name]) && (fields[name] as unknown[]).length === 0) delete fields[name];
    if (Object.keys(fields).length === 0) fields = undefined;
  }
  if (type) (fields ??= {}).type = type;
  if (item) (fields ??= {}).item = item;
  return fields;
}

/** `part` with `fields` as its `extensions['openai-responses']` (the part itself when there are none). */
export function withExtension<T extends ContentPart>(part: T, fields: JsonObject | undefined): T {
  if (fields) part.extensions = { [RESPONSES]: fields } as Extensions;
  return part;
}

/**
 * Where the answer's items that no canonical part models (built-in tools' calls) are reported as
 * dropped: the call's `warn` when its caller did not speak the Responses API (its request has no
 * Responses extension, which the Responses codec always sets), so its codec shows them to no one;
 * undefined for a Responses caller, who gets them.
 */
export function answerItemDrops(
  request: GenerateRequest,
  log: Debugger,
  warn: Warn | undefined,
): ((item: JsonObject) => void) | undefined {
  if (request.extensions?.[RESPONSES] !== undefined) return undefined;
  return (item) =>
    reportDrop(log, warn, {
      type: 'unsupported-tool',
      tool: typeof item.type === 'string' ? item.type : 'unknown',
      details: "a built-in tool's output item, which only a Responses caller is shown",
    });
}
