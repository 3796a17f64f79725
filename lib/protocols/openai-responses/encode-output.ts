/**
 * Canonical parts → Responses output items (message, reasoning, function_call, custom_tool_call), shared by the answer
 * and the stream.
 */
import { appendAll } from '../../arrays';
import type {
  Extensions,
  GenerateRequest,
  OpaqueItem,
  ProviderMetadata,
  ReasoningPart,
  ToolCallPart,
  Usage,
} from '../../canonical';
import type { JsonObject } from '../../json';
import { carriedSignatureOf, carrySignatureInToolId } from '../shared/signature-carrier';
import {
  customToolInput,
  mergeFields,
  opaqueItemsAt,
  responsesExtension,
  toolExtension,
  type ResponsesTextExtension,
} from '../../wire/openai/responses-extensions';
import { encryptedContentOf } from './encrypted-content';
import { itemId } from './ids';

/** How a tool call is returned: as a `function_call` or a `custom_tool_call`, under the caller's name and namespace. */
export interface CallShape {
  custom: boolean;
  name: string;
  namespace?: string;
}

/** The shape of a call to the canonical tool `name`, from the request's tool definitions. */
export function callShape(request: GenerateRequest | undefined, name: string): CallShape {
  const own = toolExtension(request?.tools, name);
  if (!own) return { custom: false, name };
  return {
    custom: own.type === 'custom',
    name: own.name ?? name,
    ...(own.namespace ? { namespace: own.namespace } : {}),
  };
}

/** The `call_id` a caller sees: the canonical id, carrying a vendor signature when the call has one. */
export function callId(id: string, metadata: ProviderMetadata | undefined): string {
  return carrySignatureInToolId(id, carriedSignatureOf(metadata));
}

/** A finished tool call as an output item (with the upstream item's own keys, from the part's extension). */
export function callItem(
  part: Pick<ToolCallPart, 'id' | 'arguments' | 'providerMetadata' | 'extensions'>,
  shape: CallShape,
  id: string,
  status: string,
): JsonObject {
  const namespace = shape.namespace ? { namespace: shape.namespace } : {};
  const call_id = callId(part.id, part.providerMetadata);
  const item: JsonObject = shape.custom
    ? {
        type: 'custom_tool_call',
        id,
        status,
        call_id,
        name: shape.name,
        ...namespace,
        input: customToolInput(part.arguments),
      }
    : { type: 'function_call', id, status, call_id, name: shape.name, ...namespace, arguments: part.arguments };
  return mergeFields(item, responsesExtension(part.extensions));
}

/** The id prefix of a call item. */
export function callPrefix(shape: CallShape): string {
  return shape.custom ? 'ctc' : 'fc';
}

/** A reasoning item: its text as one summary, and the vendor's signature in `encrypted_content` when wanted. */
export function reasoningItem(
  part: Pick<ReasoningPart, 'text' | 'signature' | 'redactedData' | 'providerMetadata' | 'extensions'>,
  id: string,
  withEncrypted: boolean,
): JsonObject {
  const item: JsonObject = {
    type: 'reasoning',
    id,
    summary: part.text.length > 0 ? [{ type: 'summary_text', text: part.text }] : [],
  };
  const encrypted = withEncrypted ? encryptedContentOf(part) : undefined;
  if (encrypted !== undefined) item.encrypted_content = encrypted;
  return mergeFields(item, responsesExtension(part.extensions));
}

/** An `output_text` content part (or, by its extension, a `refusal`), with the upstream part's own keys. */
export function outputText(text: string, extensions?: Extensions): JsonObject {
  const own = responsesExtension<ResponsesTextExtension>(extensions);
  if (!own) return { type: 'output_text', text, annotations: [], logprobs: [] };
  const { type, item: _item, ...fields } = own;
  if (type === 'refusal') return mergeFields({ type: 'refusal', refusal: text }, fields);
  return { type: 'output_text', text, annotations: [], logprobs: [], ...fields };
}

/** The upstream message item's own keys, on the text part that begins it. */
export function messageFields(extensions: Extensions | undefined): JsonObject | undefined {
  return responsesExtension<ResponsesTextExtension>(extensions)?.item;
}

/** A message item (`fields`: the upstream item's own keys). */
export function messageItem(id: string, status: string, content: JsonObject[], fields?: JsonObject): JsonObject {
  return mergeFields({ type: 'message', id, status, role: 'assistant', content }, fields);
}

/**
 * The output items of one answer's parts, in order, each opaque item (a built-in tool's) where it
 * stood; adjacent text parts make one message, unless a part begins a message of its own (its
 * extension's `item`).
 */
export function outputItems(
  parts: GenerateRequest['messages'][number]['content'],
  stem: string,
  request: GenerateRequest | undefined,
  withEncrypted: boolean,
  status: string,
  opaque?: readonly OpaqueItem[],
): JsonObject[] {
  const items: JsonObject[] = [];
  let message: JsonObject[] | undefined;
  parts.forEach((part, at) => {
    if (opaque) {
      const before = opaqueItemsAt(opaque, at, false);
      if (before.length > 0) {
        message = undefined;
        appendAll(items, before);
      }
    }
    const index = items.length;
    if (part.type === 'text') {
      const fields = messageFields(part.extensions);
      if (message && !fields) message.push(outputText(part.text, part.extensions));
      else {
        message = [outputText(part.text, part.extensions)];
        items.push(messageItem(itemId('msg', stem, index), status, message, fields));
      }
      return;
    }
    message = undefined;
    if (part.type === 'reasoning') items.push(reasoningItem(part, itemId('rs', stem, index), withEncrypted));
    else if (part.type === 'tool-call') {
      const shape = callShape(request, part.name);
      items.push(callItem(part, shape, itemId(callPrefix(shape), stem, index), 'completed'));
    }
  });
  if (opaque) appendAll(items, opaqueItemsAt(opaque, parts.length, true));
  return items;
}

/** The usage block (`cache_write_tokens` when the upstream wrote to its cache). */
export function encodeUsage(usage: Usage): JsonObject {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
