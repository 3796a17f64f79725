/** Canonical content parts → Anthropic Messages request content blocks. */
import createDebug from 'debug';
import type { ContentPart, FilePart, ImagePart, MediaSource, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { anthropicToolId } from '../../protocols/anthropic-messages/tool-id';

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

function imageSource(source: MediaSource): Record<string, unknown> {
  return source.kind === 'base64' ? { type: 'base64', media_type: source.mediaType, data: source.data } : { type: 'url', url: source.url };
}

/** An image block, inline (base64) or by URL. */
export function encodeImage(part: ImagePart): AnthropicBlockParam {
  return { type: 'image', source: imageSource(part.source) };
}

/**
 * A document block: a PDF inline or by URL, or a base64 `text/*` file as a plain-text document.
 * Other files have no Anthropic form: a 400 naming the field.
 */
export function encodeFile(part: FilePart, at: string): AnthropicBlockParam {
  const title = part.filename ? { title: part.filename } : {};
  const { source } = part;
  if (source.kind === 'url') return { type: 'document', source: { type: 'url', url: source.url }, ...title };
  const mediaType = source.mediaType.toLowerCase();
  if (mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: source.data }, ...title };
  if (mediaType.startsWith('text/')) {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') }, ...title };
  }
  throw new GatewayError('invalid_request', `${at}: this upstream takes PDF and plain-text files only, not '${source.mediaType}'.`, { param: at });
}

/** The JSON object of a tool call's arguments; anything else (invalid JSON, a non-object) becomes `{}`, logged. */
export function parseToolArguments(args: string, at: string): Record<string, unknown> {
  if (args.trim().length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON: logged below
  }
  log('%s: tool-call arguments are not a JSON object; sent as {}', at);
  return {};
}

/** A `tool_use` block; its id is rewritten to the form Anthropic accepts. */
export function encodeToolCall(part: ToolCallPart, at: string): AnthropicBlockParam {
  return { type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: parseToolArguments(part.arguments, at) };
}

/** A `tool_result` block, its `tool_use_id` rewritten like the call's id; blank text is dropped, empty content omitted. */
export function encodeToolResult(part: ToolResultPart): AnthropicBlockParam {
  const content = part.content.flatMap((inner) => (inner.type === 'text' ? encodeText(inner) : [encodeImage(inner)]));
  return {
    type: 'tool_result',
    tool_use_id: anthropicToolId(part.toolCallId),
    ...(content.length > 0 ? { content } : {}),
    ...(part.isError ? { is_error: true } : {}),
  };
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
      if (role === 'user') return [encodeImage(part)];
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
      return [encodeToolResult(part)];
  }
  throw new GatewayError('invalid_request', `${at}: a ${part.type} part cannot be sent in a ${role} turn to this upstream.`, { param: at });
}
