/** Anthropic content blocks → canonical content parts, checked per block type and per role. */
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
import { signatureFromThinking, signatureMetadata, splitToolId } from '../shared/signature-carrier';
import { invalidField } from '../shared/validate';
import type { RawBlock } from './schema';
import { isJsonObject, type JsonObject, unmodelledFields } from '../../json';
import { ANTHROPIC_MESSAGES_KEY, type AnthropicPartExtension } from '../../wire/anthropic/extensions';

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * Anthropic block types without a canonical part (server tools, their results, Files API uploads):
 * another upstream never sees them; an Anthropic upstream gets them back from the extensions.
 */
export const UNSUPPORTED_BLOCKS = new Set([
  'search_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

/** The blocks each role may carry. */
const BLOCKS_BY_ROLE: Readonly<Record<'user' | 'assistant', ReadonlySet<string>>> = {
  user: new Set(['text', 'image', 'document', 'tool_result']),
  assistant: new Set(['text', 'tool_use', 'thinking', 'redacted_thinking']),
};
const ALL_SUPPORTED = new Set([...BLOCKS_BY_ROLE.user, ...BLOCKS_BY_ROLE.assistant]);

function requireString(value: unknown, at: string): string {
  return typeof value === 'string' ? value : invalidField(at, 'must be a string');
}

function requireRecord(value: unknown, at: string): Record<string, unknown> {
  return isJsonObject(value) ? value : invalidField(at, value === undefined ? 'is required' : 'must be an object');
}

/** A 400 for a block type that is unknown, unsupported, or not allowed in this place. */
function refuseBlock(type: string, at: string, place: string): never {
  if (UNSUPPORTED_BLOCKS.has(type))
    return invalidField(`${at}.type`, `'${type}' blocks are not supported by this gateway`);
  if (ALL_SUPPORTED.has(type)) return invalidField(`${at}.type`, `'${type}' blocks are not allowed in ${place}`);
  return invalidField(`${at}.type`, `'${type}' is not a known content block type`);
}

/** The keys each block type's decoder models; the rest go to the part's extension. */
const MODELLED: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  image: new Set(['type', 'source']),
  document: new Set(['type', 'source', 'title']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error']),
};

/** Adds to a part's Anthropic extension (allocating one only when there is something to add). */
export function extendPart<P extends ContentPart>(part: P, extension: AnthropicPartExtension): P {
  const own = part.extensions?.[ANTHROPIC_MESSAGES_KEY];
  part.extensions = { ...part.extensions, [ANTHROPIC_MESSAGES_KEY]: own ? { ...own, ...extension } : extension };
  return part;
}

/**
 * The part, with the block's unmodelled keys (and `extra` of them, keys modelled only for some values) in its
 * extension.
 */
function withFields<P extends ContentPart>(part: P, block: RawBlock, extra?: JsonObject): P {
  const fields = unmodelledFields(block, MODELLED[block.type]!);
  const all = extra ? { ...fields, ...extra } : fields;
  return all ? extendPart(part, { fields: all }) : part;
}

/** A `text` block; its `cache_control`, `citations` and other keys go to the extension. */
export function decodeTextBlock(block: RawBlock, at: string): TextPart {
  return withFields({ type: 'text', text: requireString(block.text, `${at}.text`) }, block);
}

function decodeImageSource(raw: unknown, at: string): MediaSource {
  const source = requireRecord(raw, at);
  switch (source.type) {
    case 'base64': {
      const mediaType = requireString(source.media_type, `${at}.media_type`);
      if (!IMAGE_MEDIA_TYPES.includes(mediaType))
        invalidField(`${at}.media_type`, `must be one of ${IMAGE_MEDIA_TYPES.map((type) => `'${type}'`).join(', ')}`);
      return { kind: 'base64', mediaType, data: requireString(source.data, `${at}.data`) };
    }
    case 'url':
      return { kind: 'url', url: requireString(source.url, `${at}.url`) };
    case 'file':
      return invalidField(
        `${at}.type`,
        "'file' sources (Files API ids) are not supported by this gateway; send 'base64' or 'url'",
      );
    default:
      return invalidField(`${at}.type`, "must be 'base64' or 'url'");
  }
}

/** An `image` block with a base64 or URL source. */
export function decodeImageBlock(block: RawBlock, at: string): ImagePart {
  return withFields({ type: 'image', source: decodeImageSource(block.source, `${at}.source`) }, block);
}

function decodeDocumentContent(raw: unknown, at: string): Array<TextPart | ImagePart> {
  if (typeof raw === 'string') return [{ type: 'text', text: raw }];
  if (!Array.isArray(raw)) return invalidField(at, 'must be a string or an array of text and image blocks');
  return raw.map((item: unknown, index) => {
    const where = `${at}[${index}]`;
    const inner = requireRecord(item, where) as RawBlock;
    if (inner.type === 'text') return decodeTextBlock(inner, where);
    if (inner.type === 'image') return decodeImageBlock(inner, where);
    return invalidField(`${where}.type`, "must be 'text' or 'image'");
  });
}

/** The document block without its source's text or content: what rebuilds it around the parts it became. */
function documentShell(block: RawBlock, source: JsonObject, inner: 'data' | 'content'): JsonObject {
  const { [inner]: _dropped, ...rest } = source;
  return { ...block, source: rest };
}

/**
 * A `document` block: a base64 or URL PDF becomes a file part (`title` its filename; `context`,
 * `citations` and the rest in its extension); a plain-text or content source becomes its text (and
 * images), the document around them kept in their extensions for an Anthropic upstream.
 */
export function decodeDocumentBlock(block: RawBlock, at: string): Array<TextPart | ImagePart | FilePart> {
  const source = requireRecord(block.source, `${at}.source`);
  const titled = typeof block.title === 'string' && block.title.length > 0;
  const filename = titled ? { filename: block.title as string } : {};
  const untitled = !titled && block.title !== undefined ? { title: block.title } : undefined;
  switch (source.type) {
    case 'base64': {
      const mediaType = requireString(source.media_type, `${at}.source.media_type`);
      if (mediaType !== 'application/pdf') invalidField(`${at}.source.media_type`, "must be 'application/pdf'");
      return [
        withFields<FilePart>(
          {
            type: 'file',
            source: { kind: 'base64', mediaType, data: requireString(source.data, `${at}.source.data`) },
            ...filename,
          },
          block,
          untitled,
        ),
      ];
    }
    case 'url':
      return [
        withFields<FilePart>(
          {
            type: 'file',
            source: { kind: 'url', url: requireString(source.url, `${at}.source.url`), mediaType: 'application/pdf' },
            ...filename,
          },
          block,
          untitled,
        ),
      ];
    case 'text':
      return [
        extendPart<TextPart>(
          { type: 'text', text: requireString(source.data, `${at}.source.data`) },
          { document: documentShell(block, source, 'data') },
        ),
      ];
    case 'content': {
      const document = documentShell(block, source, 'content');
      return decodeDocumentContent(source.content, `${at}.source.content`).map((part) =>
        extendPart(part, { document }),
      );
    }
    case 'file':
      return invalidField(
        `${at}.source.type`,
        "'file' sources (Files API ids) are not supported by this gateway; send 'base64', 'url' or 'text'",
      );
    default:
      return invalidField(`${at}.source.type`, "must be 'base64', 'url', 'text' or 'content'");
  }
}

/**
 * A `tool_use` block: its `input` object becomes the canonical JSON arguments string. A vendor
 * signature the gateway carried in the id goes back into the call's metadata, the id cleaned.
 */
export function decodeToolUseBlock(block: RawBlock, at: string): ToolCallPart {
  const raw = requireString(block.id, `${at}.id`);
  if (raw.length === 0) invalidField(`${at}.id`, 'must not be empty');
  const name = requireString(block.name, `${at}.name`);
  const input = requireRecord(block.input, `${at}.input`);
  const { id, carried } = splitToolId(raw);
  return withFields<ToolCallPart>(
    { type: 'tool-call', id, name, arguments: JSON.stringify(input), ...signatureMetadata(carried) },
    block,
  );
}

/**
 * A `thinking` block (with its signature) or a `redacted_thinking` block, as a reasoning part. A
 * `<vendor>:`-tagged signature (`gemini:…`) is another vendor's: it becomes that vendor's metadata, never an Anthropic
 * signature.
 */
export function decodeThinkingBlock(block: RawBlock, at: string): ReasoningPart {
  return withFields(thinkingPart(block, at), block);
}

function thinkingPart(block: RawBlock, at: string): ReasoningPart {
  if (block.type === 'redacted_thinking')
    return { type: 'reasoning', text: '', redactedData: requireString(block.data, `${at}.data`) };
  const text = requireString(block.thinking, `${at}.thinking`);
  if (block.signature === undefined || block.signature === null) return { type: 'reasoning', text };
  const signature = requireString(block.signature, `${at}.signature`);
  const carried = signatureFromThinking(signature);
  return carried ? { type: 'reasoning', text, ...signatureMetadata(carried) } : { type: 'reasoning', text, signature };
}

/** What a `tool_result` decodes to: the result, and PDF files it carried, which canonical results cannot hold. */
export interface DecodedToolResult {
  result: ToolResultPart;
  files: FilePart[];
}

/**
 * A `tool_result` block: string or block content, and `is_error`; a PDF it carried keeps its place in its extension.
 */
export function decodeToolResultBlock(block: RawBlock, at: string): DecodedToolResult {
  const rawId = requireString(block.tool_use_id, `${at}.tool_use_id`);
  if (rawId.length === 0) invalidField(`${at}.tool_use_id`, 'must not be empty');
  const toolCallId = splitToolId(rawId).id;
  if (block.is_error !== undefined && block.is_error !== null && typeof block.is_error !== 'boolean')
    invalidField(`${at}.is_error`, 'must be a boolean');
  const content: Array<TextPart | ImagePart> = [];
  const files: FilePart[] = [];
  const raw = block.content;
  if (typeof raw === 'string') {
    if (raw.length > 0) content.push({ type: 'text', text: raw });
  } else if (Array.isArray(raw)) {
    raw.forEach((item: unknown, index) => {
      const where = `${at}.content[${index}]`;
      const inner = requireRecord(item, where);
      if (typeof inner.type !== 'string') invalidField(`${where}.type`, 'is required');
      const typed = inner as RawBlock;
      if (typed.type === 'text') content.push(decodeTextBlock(typed, where));
      else if (typed.type === 'image') content.push(decodeImageBlock(typed, where));
      else if (typed.type === 'document') {
        for (const part of decodeDocumentBlock(typed, where)) {
          if (part.type === 'file') files.push(extendPart(part, { toolResult: { id: toolCallId, index } }));
          else content.push(part);
        }
      } else refuseBlock(typed.type, where, 'a tool_result');
    });
  } else if (raw !== undefined && raw !== null) {
    invalidField(`${at}.content`, 'must be a string or an array of blocks');
  }
  const result: ToolResultPart = {
    type: 'tool-result',
    toolCallId,
    content: content.filter((part) => part.type !== 'text' || part.text.length > 0),
  };
  if (block.is_error === true) result.isError = true;
  withFields(
    result,
    block,
    block.is_error !== undefined && block.is_error !== true ? { is_error: block.is_error } : undefined,
  );
  if (typeof raw === 'string') extendPart(result, { stringContent: true });
  return { result, files };
}

/**
 * Decodes one block of a user or assistant message; `tool_result` blocks and {@link UNSUPPORTED_BLOCKS} are the
 * caller's.
 */
export function decodeBlock(block: RawBlock, at: string, role: 'user' | 'assistant'): ContentPart[] {
  if (!BLOCKS_BY_ROLE[role].has(block.type)) refuseBlock(block.type, at, `a ${role} message`);
  switch (block.type) {
    case 'text':
      return [decodeTextBlock(block, at)];
    case 'image':
      return [decodeImageBlock(block, at)];
    case 'document':
      return decodeDocumentBlock(block, at);
    case 'tool_use':
      return [decodeToolUseBlock(block, at)];
    case 'thinking':
    case 'redacted_thinking':
      return [decodeThinkingBlock(block, at)];
    default:
      return refuseBlock(block.type, at, `a ${role} message`);
  }
}
