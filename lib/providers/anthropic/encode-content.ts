/** Canonical content parts → Anthropic Messages request content blocks. */
import { appendAll } from '../../arrays';
import createDebug from 'debug';
import type {
  ContentPart,
  FilePart,
  ImagePart,
  MediaSource,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../canonical';
import { GatewayError } from '../../errors';
import type { JsonObject } from '../../json';
import { anthropicExtension, mergeUnmodelled, type AnthropicPartExtension } from '../../wire/anthropic/extensions';
import { anthropicToolId } from '../../wire/anthropic/tool-id';
import { CACHE_CONTROL, encodeCacheControl } from '../../wire/cache-control';
import { mediaUrlKind } from '../../upstream/fetch-media';

const log = createDebug('rosetta:provider');

/** An Anthropic request content block. */
export type AnthropicBlockParam = { type: string } & Record<string, unknown>;

/** Whether a text would be refused by Anthropic (empty or only whitespace). */
export function isBlankText(text: string): boolean {
  return text.trim().length === 0;
}

/** A text block, or none for blank text (which Anthropic rejects). */
export function encodeText(part: TextPart): AnthropicBlockParam[] {
  return isBlankText(part.text) ? [] : [{ type: 'text', text: part.text }];
}

/** The only image media types Anthropic takes inline (`image/jpg`, a common misspelling, is read as JPEG). */
const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * A `url` source for an http(s) URL, which Anthropic fetches itself. A Gemini Files API or `gs://`
 * URI (or any other scheme) is unreachable for Anthropic: a 400 naming the part.
 */
function urlSource(url: string, what: string, at: string): Record<string, unknown> {
  const kind = mediaUrlKind(url);
  if (kind === 'gemini-file')
    throw new GatewayError(
      'invalid_request',
      `${at}: this ${what} is a Gemini Files API or gs:// URI, which can only be sent to a Gemini upstream.`,
      { param: at },
    );
  if (kind !== 'http')
    throw new GatewayError('invalid_request', `${at}: a ${what} URL must be http(s) for this upstream.`, { param: at });
  return { type: 'url', url };
}

function imageSource(source: MediaSource, at: string): Record<string, unknown> {
  if (source.kind === 'url') return urlSource(source.url, 'image', at);
  const given = source.mediaType.toLowerCase();
  const mediaType = given === 'image/jpg' ? 'image/jpeg' : given;
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) {
    throw new GatewayError(
      'invalid_request',
      `${at}: this upstream takes image/jpeg, image/png, image/gif and image/webp images only, not '${source.mediaType}'.`,
      { param: at },
    );
  }
  return { type: 'base64', media_type: mediaType, data: source.data };
}

/** An image block, inline (base64, JPEG/PNG/GIF/WebP only) or by http(s) URL; anything else is a 400 naming `at`. */
export function encodeImage(part: ImagePart, at: string): AnthropicBlockParam {
  return { type: 'image', source: imageSource(part.source, at) };
}

/**
 * A document block: a PDF inline or by URL, or a base64 `text/*` file as a plain-text document.
 * Other files have no Anthropic form: a 400 naming the field.
 */
export function encodeFile(part: FilePart, at: string): AnthropicBlockParam {
  const title = part.filename ? { title: part.filename } : {};
  const { source } = part;
  if (source.kind === 'url') return { type: 'document', source: urlSource(source.url, 'file', at), ...title };
  const mediaType = source.mediaType.toLowerCase();
  if (mediaType === 'application/pdf')
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: source.data }, ...title };
  if (mediaType.startsWith('text/')) {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') },
      ...title,
    };
  }
  throw new GatewayError(
    'invalid_request',
    `${at}: this upstream takes PDF and plain-text files only, not '${source.mediaType}'.`,
    { param: at },
  );
}

/** The JSON object of a tool call's arguments; anything else (invalid JSON, a non-object) becomes `{}`, logged. */
export function parseToolArguments(args: string, at: string): Record<string, unknown> {
  if (args.trim().length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // not JSON: logged below
  }
  log('%s: tool-call arguments are not a JSON object; sent as {}', at);
  return {};
}

/** A `tool_use` block; its id is rewritten to the form Anthropic accepts. */
export function encodeToolCall(part: ToolCallPart, at: string): AnthropicBlockParam {
  return {
    type: 'tool_use',
    id: anthropicToolId(part.id),
    name: part.name,
    input: parseToolArguments(part.arguments, at),
  };
}

/** The one text of a result that was a string (the `stringContent` of its extension), else undefined. */
function stringContent(part: ToolResultPart): string | undefined {
  if (anthropicExtension<AnthropicPartExtension>(part.extensions)?.stringContent !== true) return undefined;
  if (part.content.length === 0) return '';
  const [only] = part.content;
  return part.content.length === 1 && only?.type === 'text' && only.extensions === undefined ? only.text : undefined;
}

/**
 * A `tool_result` block, its `tool_use_id` rewritten like the call's id; blank text is dropped,
 * empty content omitted (content an Anthropic caller sent as a string goes back as one). `at` names
 * the part in errors (default: the result of the call by its id).
 */
export function encodeToolResult(
  part: ToolResultPart,
  at = `the result of tool call '${part.toolCallId}'`,
): AnthropicBlockParam {
  const text = stringContent(part);
  const content =
    text ??
    encodeSequence(part.content, (inner, index) =>
      inner.type === 'text' ? encodeText(inner) : [encodeImage(inner, `${at}.content[${index}]`)],
    );
  return {
    type: 'tool_result',
    tool_use_id: anthropicToolId(part.toolCallId),
    ...(content.length > 0 || text !== undefined ? { content } : {}),
    ...(part.isError ? { is_error: true } : {}),
  };
}

/** The `document` block that a group of text and image parts came from, rebuilt around them. */
function rebuildDocument(
  document: JsonObject,
  parts: ReadonlyArray<TextPart | ImagePart>,
  at: string,
): AnthropicBlockParam {
  const source = document.source as JsonObject;
  const [first] = parts;
  if (source.type === 'text' && first?.type === 'text')
    return { ...document, type: 'document', source: { ...source, data: first.text } };
  const content = parts.map((part) =>
    mergeUnmodelled(
      part.type === 'text' ? { type: 'text', text: part.text } : encodeImage(part, at),
      anthropicExtension<AnthropicPartExtension>(part.extensions)?.fields,
    ),
  );
  return { ...document, type: 'document', source: { ...source, content } };
}

/** How many parts from `start` came from one `document` (the parts of a `content` source share the very object). */
function documentLength(parts: readonly ContentPart[], start: number, document: JsonObject): number {
  if ((document.source as JsonObject | undefined)?.type !== 'content') return 1;
  let end = start + 1;
  while (
    end < parts.length &&
    anthropicExtension<AnthropicPartExtension>(parts[end]!.extensions)?.document === document
  )
    end++;
  return end - start;
}

/**
 * The canonical breakpoint of a part (a chat-completions caller's `cache_control`) on the last block
 * it became, unless that block has one already (a tool result's content parts carry their own).
 */
function withBreakpoint(encoded: AnthropicBlockParam[], part: ContentPart): AnthropicBlockParam[] {
  const cacheControl = part.type === 'reasoning' ? undefined : part.cacheControl;
  const last = encoded.at(-1);
  if (cacheControl && last && last[CACHE_CONTROL] === undefined) last[CACHE_CONTROL] = encodeCacheControl(cacheControl);
  return encoded;
}

/**
 * Encodes parts in order with `encodeOne`, then applies their Anthropic extensions: the block's
 * unmodelled keys merged in, the opaque blocks that stood before a part put back before it, and
 * text or images that came from a `document` rebuilt into it. Parts without one are `encodeOne`'s alone.
 */
export function encodeSequence<P extends ContentPart>(
  parts: readonly P[],
  encodeOne: (part: P, index: number) => AnthropicBlockParam[],
): AnthropicBlockParam[] {
  const blocks: AnthropicBlockParam[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const extension = anthropicExtension<AnthropicPartExtension>(part.extensions);
    if (extension === undefined) {
      appendAll(blocks, withBreakpoint(encodeOne(part, index), part));
      continue;
    }
    if (extension.leading) appendAll(blocks, extension.leading as AnthropicBlockParam[]);
    if (extension.document && (part.type === 'text' || part.type === 'image')) {
      const length = documentLength(parts, index, extension.document);
      blocks.push(
        rebuildDocument(
          extension.document,
          parts.slice(index, index + length) as Array<TextPart | ImagePart>,
          `content[${index}]`,
        ),
      );
      index += length - 1;
      continue;
    }
    const encoded = encodeOne(part, index);
    if (encoded[0]) mergeUnmodelled(encoded[0], extension.fields);
    appendAll(blocks, withBreakpoint(encoded, part));
  }
  return blocks;
}

/** Whether a part carries no other vendor's metadata (so its signature, if any, could be Anthropic's). */
function mayBeAnthropic(part: ContentPart): boolean {
  return Object.keys(part.providerMetadata ?? {}).every((vendor) => vendor === 'anthropic');
}

/**
 * A signed reasoning part replayed as a `thinking` block (or `redacted_thinking`). Unsigned
 * reasoning and reasoning minted by another vendor cannot be replayed to Anthropic: dropped, logged.
 */
export function encodeReasoning(part: ReasoningPart, at: string): AnthropicBlockParam[] {
  if (!mayBeAnthropic(part)) {
    log('%s: reasoning from another vendor (%s) dropped', at, Object.keys(part.providerMetadata ?? {}).join(', '));
    return [];
  }
  if (part.redactedData !== undefined) return [{ type: 'redacted_thinking', data: part.redactedData }];
  if (part.signature) return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
  log('%s: reasoning without a signature dropped', at);
  return [];
}

/** The blocks of one part of a user or assistant turn; a part the role cannot carry is a 400 naming the field. */
export function encodePart(part: ContentPart, role: 'user' | 'assistant', at: string): AnthropicBlockParam[] {
  switch (part.type) {
    case 'text':
      return encodeText(part);
    case 'image':
      if (role === 'user') return [encodeImage(part, at)];
      break;
    case 'file':
      if (role === 'user') return [encodeFile(part, at)];
      break;
    case 'tool-call':
      if (role === 'assistant') return [encodeToolCall(part, at)];
      break;
    case 'reasoning':
      if (role === 'assistant') return encodeReasoning(part, at);
      log('%s: reasoning in a %s turn dropped', at, role);
      return [];
    case 'tool-result':
      return [encodeToolResult(part, at)];
  }
  throw new GatewayError(
    'invalid_request',
    `${at}: a ${part.type} part cannot be sent in a ${role} turn to this upstream.`,
    { param: at },
  );
}
