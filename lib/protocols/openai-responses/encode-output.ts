/**
 * Canonical parts → Responses output items (message, reasoning, function_call, custom_tool_call), shared by the answer
 * and the stream.
 */
import type { GenerateRequest, ProviderMetadata, ReasoningPart, ToolCallPart, Usage } from '../../canonical';
import type { JsonObject } from '../../json';
import { carriedSignatureOf, carrySignatureInToolId } from '../shared/signature-carrier';
import { customToolInput, toolExtension } from '../../wire/openai/responses-extensions';
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

/** A finished tool call as an output item. */
export function callItem(
  part: Pick<ToolCallPart, 'id' | 'arguments' | 'providerMetadata'>,
  shape: CallShape,
  id: string,
  status: string,
): JsonObject {
  const namespace = shape.namespace ? { namespace: shape.namespace } : {};
  const call_id = callId(part.id, part.providerMetadata);
  if (shape.custom)
    return {
      type: 'custom_tool_call',
      id,
      status,
      call_id,
      name: shape.name,
      ...namespace,
      input: customToolInput(part.arguments),
    };
  return { type: 'function_call', id, status, call_id, name: shape.name, ...namespace, arguments: part.arguments };
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
  return item;
}

/** An `output_text` content part. */
export function outputText(text: string): JsonObject {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/** A message item. */
export function messageItem(id: string, status: string, texts: string[]): JsonObject {
  return { type: 'message', id, status, role: 'assistant', content: texts.map(outputText) };
}

/** The output items of one answer's parts, in order; adjacent text parts make one message. */
export function outputItems(
  parts: GenerateRequest['messages'][number]['content'],
  stem: string,
  request: GenerateRequest | undefined,
  withEncrypted: boolean,
  status: string,
): JsonObject[] {
  const items: JsonObject[] = [];
  let message: JsonObject[] | undefined;
  for (const part of parts) {
    const index = items.length;
    if (part.type === 'text') {
      if (message) message.push(outputText(part.text));
      else {
        const item = messageItem(itemId('msg', stem, index), status, [part.text]);
        message = item.content as JsonObject[];
        items.push(item);
      }
      continue;
    }
    message = undefined;
    if (part.type === 'reasoning') items.push(reasoningItem(part, itemId('rs', stem, index), withEncrypted));
    else if (part.type === 'tool-call') {
      const shape = callShape(request, part.name);
      items.push(callItem(part, shape, itemId(callPrefix(shape), stem, index), 'completed'));
    }
  }
  return items;
}

/** The usage block. */
export function encodeUsage(usage: Usage): JsonObject {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
