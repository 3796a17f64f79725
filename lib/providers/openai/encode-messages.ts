/** Canonical messages → chat-completions messages, with a chat-completions caller's own fields and forms. */
import createDebug from 'debug';
import type { ContentPart, ImagePart, Message, TextPart, ToolResultPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { encodeCacheControl } from '../../wire/cache-control';
import { sourceToUrl } from '../../wire/media';
import { chatExtension, type ChatMessageExtension, type ChatPartExtension } from '../../wire/openai/extensions';
import { googleThoughtSignature, setReplayedReasoning, withThoughtSignature } from './encode-reasoning';
import { checkImageUrl } from './image-url';
import type { ReasoningReplay } from './reasoning-replay';

const log = createDebug('rosetta:provider');

/** One chat-completions message. */
export type ChatMessage = Record<string, unknown>;

/**
 * Text parts joined: separate blocks of a prompt stay apart (a blank line), the model's own text is rejoined as it was.
 */
function textOf(parts: readonly ContentPart[], separator: string): string {
  return parts.flatMap((part) => (part.type === 'text' && part.text.length > 0 ? [part.text] : [])).join(separator);
}

/**
 * A part's own fields from a chat-completions caller, under what the encoder writes, and its cache
 * breakpoint as `cache_control` (the form OpenRouter and LiteLLM take).
 */
function withPartFields(encoded: Record<string, unknown>, part: ContentPart): Record<string, unknown> {
  const fields = part.extensions === undefined ? undefined : chatExtension<ChatPartExtension>(part.extensions)?.fields;
  const withFields = fields ? { ...fields, ...encoded } : encoded;
  const cacheControl = part.type === 'reasoning' ? undefined : part.cacheControl;
  if (cacheControl) withFields.cache_control = encodeCacheControl(cacheControl);
  return withFields;
}

/** Whether a text part was an assistant's `refusal`. */
function isRefusal(part: ContentPart): boolean {
  return part.extensions !== undefined && chatExtension<ChatPartExtension>(part.extensions)?.refusal === true;
}

/** Text parts as an array of `text` parts (a caller's array form kept). */
function textArray(parts: readonly ContentPart[]): Array<Record<string, unknown>> {
  return parts.flatMap((part) =>
    part.type === 'text' && !isRefusal(part) ? [withPartFields({ type: 'text', text: part.text }, part)] : [],
  );
}

/**
 * An `image_url` part: inline images as a data URL, http(s) URLs as they are (the upstream fetches
 * them). A Gemini Files API or `gs://` URI, or any other scheme, cannot be fetched here: a 400 naming the part.
 */
function imagePart(part: ImagePart, at: string): Record<string, unknown> {
  checkImageUrl(part, at);
  return withPartFields(
    {
      type: 'image_url',
      image_url: { url: sourceToUrl(part.source), ...(part.detail ? { detail: part.detail } : {}) },
    },
    part,
  );
}

/**
 * A user turn: a string when it is only text (which every compatible server takes) and the caller
 * did not send an array, else an array of parts.
 */
function encodeUserContent(
  parts: readonly ContentPart[],
  at: string,
  contentArray: boolean,
): string | Array<Record<string, unknown>> {
  if (parts.every((part) => part.type === 'text')) return contentArray ? textArray(parts) : textOf(parts, '\n\n');
  return parts.flatMap((part, index) => {
    switch (part.type) {
      case 'text':
        return part.text.length > 0 ? [withPartFields({ type: 'text', text: part.text }, part)] : [];
      case 'image':
        return [imagePart(part, `${at}[${index}]`)];
      case 'file':
        if (part.source.kind !== 'base64')
          throw new GatewayError(
            'invalid_request',
            `${at}[${index}]: this upstream takes files inline (base64) only, not by URL.`,
            { param: at },
          );
        return [
          withPartFields(
            {
              type: 'file',
              file: { file_data: sourceToUrl(part.source), ...(part.filename ? { filename: part.filename } : {}) },
            },
            part,
          ),
        ];
      case 'reasoning':
        log('%s[%d]: reasoning in a user turn dropped', at, index);
        return [];
      default:
        throw new GatewayError(
          'invalid_request',
          `${at}[${index}]: a ${part.type} part cannot be sent in a user turn.`,
          { param: at },
        );
    }
  });
}

/**
 * An assistant turn: its text (a caller's `refusal` as one), tool calls, and its reasoning in the upstream's dialect
 * (`replay`; see ./encode-reasoning.ts). A turn left with no text or tool calls is dropped unless a chat-completions
 * caller sent it with fields of its own (`audio`). `currentTurn`: the turn follows the conversation's last user
 * message (Gemini validates the signatures of those).
 */
function encodeAssistant(
  message: Message,
  extension: ChatMessageExtension | undefined,
  replay: ReasoningReplay,
  currentTurn: boolean,
): ChatMessage[] {
  const refusal = message.content.find((part): part is TextPart => part.type === 'text' && isRefusal(part));
  const content = refusal ? message.content.filter((part) => part !== refusal) : message.content;
  const text = textOf(content, '');
  const firstCall = content.find((part) => part.type === 'tool-call');
  const toolCalls = content.flatMap((part) => {
    if (part.type !== 'tool-call') return [];
    const call = withPartFields(
      { id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments || '{}' } },
      part,
    );
    const signature = googleThoughtSignature(part, replay, currentTurn && part === firstCall);
    return [signature === undefined ? call : withThoughtSignature(call, signature)];
  });
  if (text.length === 0 && toolCalls.length === 0 && !refusal && !extension?.fields) return [];
  const encoded: ChatMessage = {
    ...extension?.fields,
    role: 'assistant',
    content: extension?.contentArray ? textArray(content) : text.length > 0 ? text : null,
  };
  if (refusal) encoded.refusal = refusal.text;
  if (toolCalls.length > 0) encoded.tool_calls = toolCalls;
  if (message.name) encoded.name = message.name;
  setReplayedReasoning(encoded, message, replay, toolCalls.length > 0);
  return [encoded];
}

/**
 * A tool result as a `tool` message (text only), or the legacy `function` message a caller sent;
 * its images are returned for a user turn after the run of tool messages.
 */
function encodeToolResult(
  part: ToolResultPart,
  at: string,
  message: Message,
  extension: ChatMessageExtension | undefined,
): { message: ChatMessage; images: Array<Record<string, unknown>> } {
  const images = part.content.flatMap((inner, index) =>
    inner.type === 'image' ? [imagePart(inner, `${at}.content[${index}]`)] : [],
  );
  const text =
    textOf(part.content, '\n\n') || (images.length > 0 ? '(the result is the image(s) in the next message)' : '');
  const content =
    extension?.contentArray && !part.isError && images.length === 0
      ? textArray(part.content)
      : part.isError
        ? `Error: ${text}`
        : text;
  const encoded: ChatMessage = { ...extension?.fields };
  if (extension?.role === 'function') {
    encoded.role = 'function';
    encoded.name = part.toolName ?? part.toolCallId;
  } else {
    encoded.role = 'tool';
    encoded.tool_call_id = part.toolCallId;
    if (message.name) encoded.name = message.name;
  }
  encoded.content = content;
  return { message: encoded, images };
}

/**
 * A system message a chat-completions caller placed (`role` in its extension): sent where it stands, in its own role
 * and form.
 */
function encodePlacedSystem(message: Message, extension: ChatMessageExtension): ChatMessage {
  const encoded: ChatMessage = {
    ...extension.fields,
    role: extension.role,
    content: extension.contentArray ? textArray(message.content) : textOf(message.content, '\n\n'),
  };
  if (message.name) encoded.name = message.name;
  return encoded;
}

/** Where the conversation's last user message stands, or -1. */
function lastUserAt(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.role === 'user') return index;
  return -1;
}

/**
 * The conversation as chat completions wants it:
 * - every system message of another protocol (Anthropic's top-level `system`, Claude Code's
 *   mid-conversation system message, Gemini's `systemInstruction`) folded into ONE leading system
 *   message, since many compatible servers' chat templates refuse a system message anywhere else;
 *   a chat-completions caller's own `system` / `developer` messages stay where it put them;
 * - each tool result a `tool` message right after the assistant's calls; images inside tool
 *   results (which `tool` messages cannot hold) follow the run of tool messages as a user turn;
 * - empty turns dropped;
 * - a chat-completions caller's message fields the canonical types do not model
 *   (`extensions['openai-chat']`) back on each message, and its content arrays kept as arrays;
 * - the model's reasoning on its assistant turns in the upstream's dialect (`replay`, default none).
 */
export function encodeChatMessages(messages: readonly Message[], replay: ReasoningReplay = 'none'): ChatMessage[] {
  const system: string[] = [];
  const currentTurnStart = replay === 'google' ? lastUserAt(messages) + 1 : 0;
  const turns: ChatMessage[] = [];
  let pendingImages: Array<Record<string, unknown>> = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    turns.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages],
    });
    pendingImages = [];
  };
  messages.forEach((message, index) => {
    const at = `messages[${index}].content`;
    const extension =
      message.extensions === undefined ? undefined : chatExtension<ChatMessageExtension>(message.extensions);
    if (message.role === 'system') {
      if (extension?.role) {
        flushImages();
        turns.push(encodePlacedSystem(message, extension));
        return;
      }
      const text = textOf(message.content, '\n\n');
      if (text.trim().length > 0) system.push(text);
      return;
    }
    if (message.role === 'tool') {
      for (const [position, part] of message.content.entries()) {
        if (part.type !== 'tool-result') continue;
        const { message: tool, images } = encodeToolResult(part, `${at}[${position}]`, message, extension);
        turns.push(tool);
        pendingImages.push(...images);
      }
      return;
    }
    flushImages();
    if (message.role === 'assistant') {
      const encoded = encodeAssistant(message, extension, replay, index >= currentTurnStart);
      if (encoded.length === 0) log('%s: an assistant turn with no text or tool calls dropped', at);
      turns.push(...encoded);
      return;
    }
    const content = encodeUserContent(message.content, at, extension?.contentArray === true);
    if (content.length === 0 && !extension) return;
    const encoded: ChatMessage = { ...extension?.fields, role: 'user', content };
    if (message.name) encoded.name = message.name;
    turns.push(encoded);
  });
  flushImages();
  return [...(system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }] : []), ...turns];
}
