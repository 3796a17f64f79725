/** Canonical messages → chat-completions messages, with a chat-completions caller's own fields and forms. */
import { appendAll } from '../../arrays';
import createDebug from 'debug';
import type { CacheControl, ContentPart, ImagePart, Message, TextPart, ToolResultPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { CACHE_CONTROL, encodeCacheControl } from '../../wire/cache-control';
import { sourceToUrl } from '../../wire/media';
import { chatExtension, type ChatMessageExtension, type ChatPartExtension } from '../../wire/openai/extensions';
import { breakpointOf, type Markers } from './cache-markers';
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
 * A part's own fields from a chat-completions caller, under what the encoder writes, and, when the upstream takes
 * them (`markers`), its cache breakpoint as `cache_control` (the form OpenRouter and LiteLLM take).
 */
function withPartFields(
  encoded: Record<string, unknown>,
  part: ContentPart,
  markers: Markers,
): Record<string, unknown> {
  const fields = part.extensions === undefined ? undefined : chatExtension<ChatPartExtension>(part.extensions)?.fields;
  const withFields = fields ? { ...fields, ...encoded } : encoded;
  const cacheControl = markers && part.type !== 'reasoning' ? breakpointOf(part, markers) : undefined;
  if (cacheControl) withFields.cache_control = encodeCacheControl(cacheControl);
  return withFields;
}

/** Whether any of the parts carries a breakpoint the upstream gets (then text goes as an array of parts). */
function hasMarker(parts: readonly ContentPart[], markers: Markers): boolean {
  return (
    markers !== false && parts.some((part) => part.type !== 'reasoning' && breakpointOf(part, markers) !== undefined)
  );
}

/**
 * Whether text parts go as an array of parts, not joined: when one carries a breakpoint the upstream gets, and, in a
 * request with breakpoints, whenever there are several. The upstream turns each part into a Claude block, and a
 * prefix is read from the cache only if it is the same blocks as when written: a turn marked once and sent unmarked
 * later must keep its form (a lone part and a string are the same block).
 */
function keepApart(parts: readonly ContentPart[], markers: Markers): boolean {
  return markers !== false && (parts.filter((part) => part.type === 'text').length > 1 || hasMarker(parts, markers));
}

/** Whether a text part was an assistant's `refusal`. */
function isRefusal(part: ContentPart): boolean {
  return part.extensions !== undefined && chatExtension<ChatPartExtension>(part.extensions)?.refusal === true;
}

/** Text parts as an array of `text` parts (a caller's array form kept). */
function textArray(parts: readonly ContentPart[], markers: Markers): Array<Record<string, unknown>> {
  return parts.flatMap((part) =>
    part.type === 'text' && !isRefusal(part) ? [withPartFields({ type: 'text', text: part.text }, part, markers)] : [],
  );
}

/**
 * An `image_url` part: inline images as a data URL, http(s) URLs as they are (the upstream fetches
 * them). A Gemini Files API or `gs://` URI, or any other scheme, cannot be fetched here: a 400 naming the part.
 */
function imagePart(part: ImagePart, at: string, markers: Markers): Record<string, unknown> {
  checkImageUrl(part, at);
  return withPartFields(
    {
      type: 'image_url',
      image_url: { url: sourceToUrl(part.source), ...(part.detail ? { detail: part.detail } : {}) },
    },
    part,
    markers,
  );
}

/**
 * A user turn: a string when it is only text (which every compatible server takes), the caller did not send an array
 * and no part carries a breakpoint the upstream gets, else an array of parts.
 */
function encodeUserContent(
  parts: readonly ContentPart[],
  at: string,
  contentArray: boolean,
  markers: Markers,
): string | Array<Record<string, unknown>> {
  if (parts.every((part) => part.type === 'text'))
    return contentArray || keepApart(parts, markers) ? textArray(parts, markers) : textOf(parts, '\n\n');
  return parts.flatMap((part, index) => {
    switch (part.type) {
      case 'text':
        return part.text.length > 0 ? [withPartFields({ type: 'text', text: part.text }, part, markers)] : [];
      case 'image':
        return [imagePart(part, `${at}[${index}]`, markers)];
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
            markers,
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
  markers: Markers,
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
      markers,
    );
    const signature = googleThoughtSignature(part, replay, currentTurn && part === firstCall);
    return [signature === undefined ? call : withThoughtSignature(call, signature)];
  });
  if (text.length === 0 && toolCalls.length === 0 && !refusal && !extension?.fields) return [];
  const encoded: ChatMessage = {
    ...extension?.fields,
    role: 'assistant',
    content:
      extension?.contentArray || hasMarker(textParts(content), markers)
        ? textArray(content, markers)
        : text.length > 0
          ? text
          : null,
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
  markers: Markers,
): { message: ChatMessage; images: Array<Record<string, unknown>> } {
  const images = part.content.flatMap((inner, index) =>
    inner.type === 'image' ? [imagePart(inner, `${at}.content[${index}]`, markers)] : [],
  );
  const text =
    textOf(part.content, '\n\n') || (images.length > 0 ? '(the result is the image(s) in the next message)' : '');
  const breakpoint = markers ? breakpointOf(part, markers) : undefined;
  const content =
    breakpoint || keepApart(part.content, markers)
      ? markedToolContent(part, text, breakpoint, markers)
      : extension?.contentArray && !part.isError && images.length === 0
        ? textArray(part.content, markers)
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
 * A tool result with breakpoints as an array of text parts: its parts' own, and the result's on the last part (as an
 * Anthropic `tool_result` caches up to its end); an error result as one `Error:` text part.
 */
function markedToolContent(
  part: ToolResultPart,
  text: string,
  breakpoint: CacheControl | undefined,
  markers: Markers,
): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = part.isError
    ? [{ type: 'text', text: `Error: ${text}` }]
    : textArray(part.content, markers);
  if (parts.length === 0) parts.push({ type: 'text', text });
  const last = parts.at(-1)!;
  if (breakpoint && last[CACHE_CONTROL] === undefined) last[CACHE_CONTROL] = encodeCacheControl(breakpoint);
  return parts;
}

/** The text parts among parts. */
function textParts(parts: readonly ContentPart[]): TextPart[] {
  return parts.filter((part): part is TextPart => part.type === 'text');
}

/**
 * A system message a chat-completions caller placed (`role` in its extension): sent where it stands, in its own role
 * and form.
 */
function encodePlacedSystem(message: Message, extension: ChatMessageExtension, markers: Markers): ChatMessage {
  const encoded: ChatMessage = {
    ...extension.fields,
    role: extension.role,
    content:
      extension.contentArray || keepApart(message.content, markers)
        ? textArray(message.content, markers)
        : textOf(message.content, '\n\n'),
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
 * - the model's reasoning on its assistant turns in the upstream's dialect (`replay`, default none);
 * - with `markers` (the request has prompt-cache breakpoints and the upstream takes them; default false), each
 *   part's breakpoint as `cache_control` on it, and text kept as an array of parts where it has several or a marker
 *   (see {@link keepApart}; the folded system message too).
 */
export function encodeChatMessages(
  messages: readonly Message[],
  replay: ReasoningReplay = 'none',
  markers: Markers = false,
): ChatMessage[] {
  const system: Message[] = [];
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
        turns.push(encodePlacedSystem(message, extension, markers));
        return;
      }
      if (textOf(message.content, '\n\n').trim().length > 0) system.push(message);
      return;
    }
    if (message.role === 'tool') {
      for (const [position, part] of message.content.entries()) {
        if (part.type !== 'tool-result') continue;
        const { message: tool, images } = encodeToolResult(part, `${at}[${position}]`, message, extension, markers);
        turns.push(tool);
        appendAll(pendingImages, images);
      }
      return;
    }
    flushImages();
    if (message.role === 'assistant') {
      const encoded = encodeAssistant(message, extension, replay, index >= currentTurnStart, markers);
      if (encoded.length === 0) log('%s: an assistant turn with no text or tool calls dropped', at);
      appendAll(turns, encoded);
      return;
    }
    const content = encodeUserContent(message.content, at, extension?.contentArray === true, markers);
    if (content.length === 0 && !extension) return;
    const encoded: ChatMessage = { ...extension?.fields, role: 'user', content };
    if (message.name) encoded.name = message.name;
    turns.push(encoded);
  });
  flushImages();
  return system.length > 0 ? [{ role: 'system', content: foldedSystem(system, markers) }, ...turns] : turns;
}

/**
 * The system messages of another protocol as the content of one: their texts joined, or, when a part carries a
 * breakpoint the upstream gets (Claude Code marks its system blocks), each text a part of its own with its marker.
 */
function foldedSystem(system: readonly Message[], markers: Markers): string | Array<Record<string, unknown>> {
  if (
    !keepApart(
      system.flatMap((message) => message.content),
      markers,
    )
  )
    return system.map((message) => textOf(message.content, '\n\n')).join('\n\n');
  return system.flatMap((message) =>
    textArray(
      textParts(message.content).filter((part) => part.text.length > 0),
      markers,
    ),
  );
}
