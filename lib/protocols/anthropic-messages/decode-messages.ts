/** Anthropic `system` and `messages` → canonical messages (system prompts, tool results split out of user turns). */
import createDebug from 'debug';
import type { ContentPart, FilePart, Message, TextPart } from '../../canonical';
import { ANTHROPIC_MESSAGES_KEY, unmodelledKeys, type AnthropicMessageExtension, type AnthropicOpaque } from '../../wire/anthropic/extensions';
import { invalidField } from '../shared/validate';
import { decodeBlock, decodeTextBlock, decodeToolResultBlock, extendPart, UNSUPPORTED_BLOCKS } from './decode-content';
import type { MessagesBody, RawBlock, RawMessage } from './schema';

const log = createDebug('rosetta:codec');

const MODELLED_MESSAGE_KEYS: ReadonlySet<string> = new Set(['role', 'content']);

function isEmptyText(part: ContentPart): boolean {
  return part.type === 'text' && part.text.length === 0;
}

/** A message with its Anthropic extension, when there is one. */
function message(role: Message['role'], content: ContentPart[], extension: AnthropicMessageExtension | undefined): Message {
  return extension ? { role, content, extensions: { [ANTHROPIC_MESSAGES_KEY]: extension } } : { role, content };
}

/** The extension every message decoded from `raw` shares: its unmodelled keys, a string content. */
function messageExtension(raw: RawMessage | undefined, content: string | RawBlock[]): AnthropicMessageExtension | undefined {
  const fields = raw ? unmodelledKeys(raw as unknown as Record<string, unknown>, MODELLED_MESSAGE_KEYS) : undefined;
  if (!fields && typeof content !== 'string') return undefined;
  return { ...(fields ? { fields } : {}), ...(typeof content === 'string' ? { stringContent: true as const } : {}) };
}

function textParts(content: string | RawBlock[], at: string): TextPart[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  return content
    .map((block, index) => (block.type === 'text' ? decodeTextBlock(block, `${at}[${index}]`) : invalidField(`${at}[${index}].type`, "must be 'text' in a system prompt")))
    .filter((part) => part.text.length > 0);
}

/** The top-level `system` prompt as one canonical system message (none when absent or empty). */
export function decodeSystem(system: MessagesBody['system']): Message[] {
  if (system === null || system === undefined) return [];
  const content = textParts(system, 'system');
  return content.length > 0 ? [message('system', content, messageExtension(undefined, system))] : [];
}

/**
 * Blocks without a canonical part ride on the part after them (`leading`), or on the message
 * when they end it (`trailing`): only an Anthropic upstream gets them back.
 */
class OpaqueBlocks {
  private pending: AnthropicOpaque[] | undefined;

  /** Keeps the block when it has no canonical part; whether it did. */
  take(block: RawBlock, at: string): boolean {
    if (!UNSUPPORTED_BLOCKS.has(block.type)) return false;
    log('%s: a %s block has no canonical part; only an Anthropic upstream gets it', at, block.type);
    (this.pending ??= []).push(block);
    return true;
  }

  /** The parts, the first carrying the blocks kept before it. */
  lead<P extends ContentPart>(parts: P[]): P[] {
    if (this.pending && parts.length > 0) {
      extendPart(parts[0]!, { leading: this.pending });
      this.pending = undefined;
    }
    return parts;
  }

  /** The blocks no part followed, for the message's extension. */
  rest(): AnthropicOpaque[] | undefined {
    return this.pending;
  }
}

function withTrailing(extension: AnthropicMessageExtension | undefined, trailing: AnthropicOpaque[] | undefined): AnthropicMessageExtension | undefined {
  return trailing ? { ...extension, trailing } : extension;
}

/**
 * A user turn: each `tool_result` becomes a canonical `tool` message, placed before the rest of
 * the turn, which stays a `user` message (PDFs returned inside tool results lead it).
 */
function decodeUserTurn(raw: RawMessage, at: string): Message[] {
  const extension = messageExtension(raw, raw.content);
  if (typeof raw.content === 'string') return [message('user', raw.content.length > 0 ? [{ type: 'text', text: raw.content }] : [], extension)];
  const results: Message[] = [];
  const files: FilePart[] = [];
  const rest: ContentPart[] = [];
  const opaque = new OpaqueBlocks();
  raw.content.forEach((block, index) => {
    const where = `${at}[${index}]`;
    if (opaque.take(block, where)) return;
    if (block.type !== 'tool_result') {
      rest.push(...opaque.lead(decodeBlock(block, where, 'user')));
      return;
    }
    const decoded = decodeToolResultBlock(block, where);
    opaque.lead([decoded.result]);
    results.push(message('tool', [decoded.result], extension));
    if (decoded.files.length > 0) log('%s: %d PDF document(s) of a tool_result moved into the user turn', where, decoded.files.length);
    files.push(...decoded.files);
  });
  const user = [...files, ...rest].filter((part) => !isEmptyText(part));
  const trailing = opaque.rest();
  if (results.length === 0) return [message('user', user, withTrailing(extension, trailing))];
  return user.length > 0 || trailing ? [...results, message('user', user, withTrailing(extension, trailing))] : results;
}

function decodeAssistantTurn(raw: RawMessage, at: string): Message {
  const extension = messageExtension(raw, raw.content);
  if (typeof raw.content === 'string') return message('assistant', raw.content.length > 0 ? [{ type: 'text', text: raw.content }] : [], extension);
  const opaque = new OpaqueBlocks();
  const content = raw.content.flatMap((block, index) => {
    const where = `${at}[${index}]`;
    return opaque.take(block, where) ? [] : opaque.lead(decodeBlock(block, where, 'assistant').filter((part) => !isEmptyText(part)));
  });
  return message('assistant', content, withTrailing(extension, opaque.rest()));
}

function decodeMessage(raw: RawMessage, at: string): Message[] {
  const contentAt = `${at}.content`;
  switch (raw.role) {
    case 'system':
      return [message('system', textParts(raw.content, contentAt), { ...messageExtension(raw, raw.content), inline: true })];
    case 'user':
      return decodeUserTurn(raw, contentAt);
    case 'assistant':
      return [decodeAssistantTurn(raw, contentAt)];
  }
}

/** Marks the first message decoded from a wire message that follows one of its role, so the two stay apart. */
function markNewTurn(decoded: Message[]): void {
  const first = decoded[0];
  if (!first) return;
  const own = first.extensions?.[ANTHROPIC_MESSAGES_KEY];
  // A copy: the messages of one user turn share their extension object.
  first.extensions = { ...first.extensions, [ANTHROPIC_MESSAGES_KEY]: { ...own, newTurn: true } };
}

/** Every message in order; a `system` message inside `messages` stays where it is. */
export function decodeMessages(messages: readonly RawMessage[]): Message[] {
  const decoded: Message[] = [];
  messages.forEach((raw, index) => {
    const next = decodeMessage(raw, `messages[${index}]`);
    if (index > 0 && raw.role !== 'system' && messages[index - 1]!.role === raw.role) markNewTurn(next);
    decoded.push(...next);
  });
  return decoded;
}
