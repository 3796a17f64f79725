/** Canonical messages → a Responses `instructions` and `input` items, with a Responses caller's own item fields. */
import { appendAll } from '../../../arrays';
import createDebug from 'debug';
import type {
  ContentPart,
  GenerateRequest,
  ImagePart,
  Message,
  ReasoningPart,
  ToolCallPart,
  ToolResultPart,
} from '../../../canonical';
import { GatewayError } from '../../../errors';
import type { JsonObject } from '../../../json';
import { checkImageUrl } from '../image-url';
import { sourceToUrl } from '../../../wire/media';
import {
  OPENAI_CARRIED_REASONING,
  unpackReasoning,
  type CarriedReasoningItem,
} from '../../../wire/openai/carried-reasoning';
import {
  customToolInput,
  opaqueItemsAt,
  responsesExtension,
  toolExtension,
  type ResponsesMessageExtension,
} from '../../../wire/openai/responses-extensions';

const log = createDebug('rosetta:provider');

/** What the conversation becomes: the leading system prompt and the items. */
export interface EncodedInput {
  instructions?: string;
  input: JsonObject[];
}

/** The part's or message's Responses extension without the keys the gateway reads itself. */
function own(extensions: ContentPart['extensions'], drop: readonly string[] = []): JsonObject {
  const extension = responsesExtension(extensions);
  if (!extension) return {};
  const fields: JsonObject = { ...extension };
  for (const name of drop) delete fields[name];
  return fields;
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'text' && part.text.length > 0 ? [part.text] : [])).join('\n\n');
}

/** An `input_image`: a data URL or an http(s) URL; a Gemini file URI or another scheme is a 400 naming the part. */
function inputImage(part: ImagePart, at: string): JsonObject {
  checkImageUrl(part, at);
  return {
    ...own(part.extensions),
    type: 'input_image',
    image_url: sourceToUrl(part.source),
    ...(part.detail ? { detail: part.detail } : {}),
  };
}

/** A user turn's part. */
function userPart(part: ContentPart, at: string): JsonObject[] {
  switch (part.type) {
    case 'text':
      return [{ ...own(part.extensions), type: 'input_text', text: part.text }];
    case 'image':
      return [inputImage(part, at)];
    case 'file': {
      const source =
        part.source.kind === 'base64' ? { file_data: sourceToUrl(part.source) } : { file_url: part.source.url };
      return [
        {
          ...own(part.extensions),
          type: 'input_file',
          ...source,
          ...(part.filename ? { filename: part.filename } : {}),
        },
      ];
    }
    case 'reasoning':
      log('%s: reasoning in a user turn dropped', at);
      return [];
    default:
      throw new GatewayError('invalid_request', `${at}: a ${part.type} part cannot be sent in a user turn.`, {
        param: at,
      });
  }
}

/** The reasoning items a part's OpenAI metadata carries (see lib/wire/openai/carried-reasoning.ts). */
function carriedItems(part: ReasoningPart | ToolCallPart): CarriedReasoningItem[] {
  const packed = part.providerMetadata?.[OPENAI_CARRIED_REASONING.name]?.[OPENAI_CARRIED_REASONING.metadataKey];
  return typeof packed === 'string' ? unpackReasoning(packed) : [];
}

function summaryOf(text: string): JsonObject[] {
  return text.length > 0 ? [{ type: 'summary_text', text }] : [];
}

/**
 * A reasoning part as `reasoning` items: the OpenAI items it carries (their id and
 * `encrypted_content` as the upstream minted them), else a Responses caller's own item (its id and
 * `encrypted_content` in the extension). Reasoning from another vendor, or without an id, is
 * dropped: the upstream takes only reasoning it made.
 */
function reasoningItems(part: ReasoningPart, at: string, sent: Set<string>): JsonObject[] {
  const fields = own(part.extensions);
  const carried = carriedItems(part);
  if (carried.length === 0) {
    if (typeof fields.id !== 'string' || fields.id.length === 0) {
      log('%s: reasoning not made by this upstream dropped', at);
      return [];
    }
    sent.add(fields.id);
    return [{ ...fields, type: 'reasoning', summary: summaryOf(part.text) }];
  }
  return carried.flatMap((item, index) => {
    if (sent.has(item.id)) return [];
    sent.add(item.id);
    const encrypted = item.encryptedContent === undefined ? {} : { encrypted_content: item.encryptedContent };
    // The text goes with the last item, the one it was summarised from when there is one item.
    return [
      {
        ...fields,
        type: 'reasoning',
        id: item.id,
        summary: summaryOf(index === carried.length - 1 ? part.text : ''),
        ...encrypted,
      },
    ];
  });
}

/**
 * A tool call as a `function_call` (or `custom_tool_call`), under the caller's tool name and namespace; the reasoning
 * it carries goes first.
 */
function callItems(part: ToolCallPart, request: GenerateRequest, sent: Set<string>): JsonObject[] {
  const items: JsonObject[] = [];
  for (const item of carriedItems(part)) {
    if (sent.has(item.id)) continue;
    sent.add(item.id);
    items.push({
      type: 'reasoning',
      id: item.id,
      summary: [],
      ...(item.encryptedContent === undefined ? {} : { encrypted_content: item.encryptedContent }),
    });
  }
  const fields = own(part.extensions);
  const tool = toolExtension(request.tools, part.name);
  const named = { name: tool?.name ?? part.name, ...(tool?.namespace ? { namespace: tool.namespace } : {}) };
  if (tool?.type === 'custom' || fields.type === 'custom_tool_call') {
    items.push({
      ...fields,
      type: 'custom_tool_call',
      call_id: part.id,
      ...named,
      input: customToolInput(part.arguments),
    });
  } else {
    items.push({ ...fields, type: 'function_call', call_id: part.id, ...named, arguments: part.arguments || '{}' });
  }
  return items;
}

/**
 * An assistant turn: runs of text as one message each (a refusal as a `refusal` part), reasoning and calls as their
 * items.
 */
function assistantItems(
  message: Message,
  at: string,
  request: GenerateRequest,
  sent: Set<string>,
  customCalls: Set<string>,
): JsonObject[] {
  const items: JsonObject[] = [];
  let content: JsonObject[] | undefined;
  const fields = own(message.extensions, ['instructions', 'role']);
  message.content.forEach((part, index) => {
    const where = `${at}[${index}]`;
    const before = opaqueItemsAt(message.opaque, index, false);
    if (before.length > 0) {
      content = undefined;
      appendAll(items, before);
    }
    if (part.type === 'text') {
      if (part.text.length === 0) return;
      const { item, ...partFields } = own(part.extensions);
      const encoded =
        partFields.type === 'refusal'
          ? { ...partFields, type: 'refusal', refusal: part.text }
          : { ...partFields, type: 'output_text', text: part.text };
      // A part that began a message item of its own in an answer (its `item` keys) begins one here too.
      if (content && item === undefined) content.push(encoded);
      else {
        content = [encoded];
        items.push({ ...fields, ...(item as JsonObject | undefined), type: 'message', role: 'assistant', content });
      }
      return;
    }
    content = undefined;
    if (part.type === 'reasoning') appendAll(items, reasoningItems(part, where, sent));
    else if (part.type === 'tool-call') {
      const encoded = callItems(part, request, sent);
      if (encoded.at(-1)!.type === 'custom_tool_call') customCalls.add(part.id);
      appendAll(items, encoded);
    } else log('%s: a %s part in an assistant turn dropped', where, part.type);
  });
  appendAll(items, opaqueItemsAt(message.opaque, message.content.length, true));
  return items;
}

/**
 * A tool result as a `function_call_output` (`custom_tool_call_output` for a custom tool's call): a string, or parts
 * when it holds images.
 */
function outputItem(part: ToolResultPart, at: string, customCalls: Set<string>): JsonObject {
  const fields = own(part.extensions);
  const images = part.content.some((inner) => inner.type === 'image');
  let output: string | JsonObject[];
  if (images) {
    output = part.content.map((inner, index) =>
      inner.type === 'image' ? inputImage(inner, `${at}.content[${index}]`) : { type: 'input_text', text: inner.text },
    );
    if (part.isError) output.unshift({ type: 'input_text', text: 'Error:' });
  } else {
    const text = part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n\n');
    output = part.isError ? `Error: ${text}` : text;
  }
  const custom = customCalls.has(part.toolCallId) || fields.type === 'custom_tool_call_output';
  return {
    ...fields,
    type: custom ? 'custom_tool_call_output' : 'function_call_output',
    call_id: part.toolCallId,
    output,
  };
}

/**
 * The conversation as the Responses API takes it:
 * - the system message that was a Responses caller's `instructions`, or the leading system
 *   messages of another protocol's caller (blocks joined by a blank line), as `instructions`;
 * - a Responses caller's own system items where they stood, in their role; any other system message
 *   after the first turn as a `developer` message;
 * - user turns as messages of `input_text` / `input_image` / `input_file` parts;
 * - assistant turns as `message` (output_text), `reasoning` and `function_call` items in order;
 * - tool results as `function_call_output` items;
 * - a Responses caller's unmodelled item and part fields (`extensions['openai-responses']`) back
 *   on each, and the items no canonical part models (built-in tools' calls: the messages' opaque
 *   items) where they stood.
 */
export function encodeResponsesInput(request: GenerateRequest): EncodedInput {
  const instructions: string[] = [];
  const input: JsonObject[] = [];
  const sent = new Set<string>();
  const customCalls = new Set<string>();
  let leading = true;
  request.messages.forEach((message, index) => {
    const at = `messages[${index}].content`;
    const extension = responsesExtension<ResponsesMessageExtension>(message.extensions);
    if (message.role === 'system') {
      const text = textOf(message.content);
      if (extension?.instructions || (leading && !extension?.role)) {
        if (text.length > 0) instructions.push(text);
        return;
      }
      leading = false;
      const content = message.content.flatMap((part) =>
        part.type === 'text' ? [{ ...own(part.extensions), type: 'input_text', text: part.text }] : [],
      );
      appendAll(input, opaqueItemsAt(message.opaque, 0, message.content.length === 0));
      input.push({
        ...own(message.extensions, ['instructions', 'role']),
        type: 'message',
        role: extension?.role ?? 'developer',
        content,
      });
      if (message.content.length > 0) appendAll(input, opaqueItemsAt(message.opaque, 1, true));
      return;
    }
    leading = false;
    if (message.role === 'assistant') appendAll(input, assistantItems(message, at, request, sent, customCalls));
    else if (message.role === 'tool') {
      message.content.forEach((part, position) => {
        appendAll(input, opaqueItemsAt(message.opaque, position, false));
        if (part.type === 'tool-result') input.push(outputItem(part, `${at}[${position}]`, customCalls));
      });
      appendAll(input, opaqueItemsAt(message.opaque, message.content.length, true));
    } else {
      const content = message.content.flatMap((part, position) => userPart(part, `${at}[${position}]`));
      // A user turn is one item: what stood before its first part goes before it, the rest after it.
      appendAll(input, opaqueItemsAt(message.opaque, 0, content.length === 0));
      if (content.length === 0 && !extension) return;
      input.push({ ...own(message.extensions, ['instructions', 'role']), type: 'message', role: 'user', content });
      if (content.length > 0) appendAll(input, opaqueItemsAt(message.opaque, 1, true));
    }
  });
  return instructions.length > 0 ? { instructions: instructions.join('\n\n'), input } : { input };
}
