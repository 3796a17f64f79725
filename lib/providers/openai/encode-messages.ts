/** Canonical messages → chat-completions messages for callers of another protocol. */
import createDebug from 'debug';
import type { ContentPart, ImagePart, Message, ToolResultPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { sourceToUrl } from '../../wire/media';
import { mediaUrlKind } from '../../upstream/fetch-media';

const log = createDebug('rosetta:provider');

/** One chat-completions message. */
export type ChatMessage = Record<string, unknown>;

/** Text parts joined: separate blocks of a prompt stay apart (a blank line), the model's own text is rejoined as it was. */
function textOf(parts: readonly ContentPart[], separator: string): string {
  return parts.flatMap((part) => (part.type === 'text' && part.text.length > 0 ? [part.text] : [])).join(separator);
}

/**
 * An `image_url` part: inline images as a data URL, http(s) URLs as they are (the upstream fetches
 * them). A Gemini Files API or `gs://` URI, or any other scheme, cannot be fetched here: a 400 naming the part.
 */
function imagePart(part: ImagePart, at: string): Record<string, unknown> {
  if (part.source.kind === 'url') {
    const kind = mediaUrlKind(part.source.url);
    if (kind === 'gemini-file') throw new GatewayError('invalid_request', `${at}: this image is a Gemini Files API or gs:// URI, which can only be sent to a Gemini upstream.`, { param: at });
    if (kind !== 'http') throw new GatewayError('invalid_request', `${at}: an image URL must be http(s) or a base64 data URL for this upstream.`, { param: at });
  }
  return { type: 'image_url', image_url: { url: sourceToUrl(part.source), ...(part.detail ? { detail: part.detail } : {}) } };
}

/** A user turn: a string when it is only text (which every compatible server takes), else an array of parts. */
function encodeUserContent(parts: readonly ContentPart[], at: string): string | Array<Record<string, unknown>> {
  if (parts.every((part) => part.type === 'text')) return textOf(parts, '\n\n');
  return parts.flatMap((part, index) => {
    switch (part.type) {
      case 'text':
        return part.text.length > 0 ? [{ type: 'text', text: part.text }] : [];
      case 'image':
        return [imagePart(part, `${at}[${index}]`)];
      case 'file':
        if (part.source.kind !== 'base64') throw new GatewayError('invalid_request', `${at}[${index}]: this upstream takes files inline (base64) only, not by URL.`, { param: at });
        return [{ type: 'file', file: { file_data: sourceToUrl(part.source), ...(part.filename ? { filename: part.filename } : {}) } }];
      case 'reasoning':
        log('%s[%d]: reasoning in a user turn dropped', at, index);
        return [];
      default:
        throw new GatewayError('invalid_request', `${at}[${index}]: a ${part.type} part cannot be sent in a user turn.`, { param: at });
    }
  });
}

/**
 * An assistant turn: its text and tool calls. Reasoning is not sent back (chat completions has no
 * field for it, and signatures are vendor-bound); a turn left with nothing is dropped.
 */
function encodeAssistant(message: Message): ChatMessage[] {
  const text = textOf(message.content, '');
  const toolCalls = message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments || '{}' } }] : [],
  );
  if (text.length === 0 && toolCalls.length === 0) return [];
  return [{ role: 'assistant', content: text.length > 0 ? text : null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}), ...(message.name ? { name: message.name } : {}) }];
}

/** A tool result as a `tool` message (text only); its images are returned for a user turn after the run of tool messages. */
function encodeToolResult(part: ToolResultPart, at: string): { message: ChatMessage; images: Array<Record<string, unknown>> } {
  const images = part.content.flatMap((inner, index) => (inner.type === 'image' ? [imagePart(inner, `${at}.content[${index}]`)] : []));
  const text = textOf(part.content, '\n\n') || (images.length > 0 ? '(the result is the image(s) in the next message)' : '');
  return { message: { role: 'tool', tool_call_id: part.toolCallId, content: part.isError ? `Error: ${text}` : text }, images };
}

/**
 * The conversation as chat completions wants it from a translating gateway:
 * - every system message (Anthropic's top-level `system`, Claude Code's mid-conversation system
 *   message, Gemini's `systemInstruction`) folded into ONE leading system message, since many
 *   compatible servers' chat templates refuse a system message anywhere else;
 * - each tool result a `tool` message right after the assistant's calls; images inside tool
 *   results (which `tool` messages cannot hold) follow the run of tool messages as a user turn;
 * - empty turns dropped.
 */
export function encodeChatMessages(messages: readonly Message[]): ChatMessage[] {
  const system: string[] = [];
  const turns: ChatMessage[] = [];
  let pendingImages: Array<Record<string, unknown>> = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    turns.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages] });
    pendingImages = [];
  };
  messages.forEach((message, index) => {
    const at = `messages[${index}].content`;
    if (message.role === 'system') {
      const text = textOf(message.content, '\n\n');
      if (text.trim().length > 0) system.push(text);
      return;
    }
    if (message.role === 'tool') {
      for (const [position, part] of message.content.entries()) {
        if (part.type !== 'tool-result') continue;
        const { message: tool, images } = encodeToolResult(part, `${at}[${position}]`);
        turns.push(tool);
        pendingImages.push(...images);
      }
      return;
    }
    flushImages();
    if (message.role === 'assistant') {
      const encoded = encodeAssistant(message);
      if (encoded.length === 0) log('%s: an assistant turn with no text or tool calls dropped', at);
      turns.push(...encoded);
      return;
    }
    const content = encodeUserContent(message.content, at);
    if (content.length === 0) return;
    turns.push({ role: 'user', content, ...(message.name ? { name: message.name } : {}) });
  });
  flushImages();
  return [...(system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }] : []), ...turns];
}
