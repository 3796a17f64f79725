/** Anthropic `system` and `messages` → canonical messages (system prompts, tool results split out of user turns). */
import { appendAll } from '../../arrays';
import createDebug from 'debug';
import type { ContentPart, FilePart, Message, TextPart } from '../../canonical';
import { unmodelledFields } from '../../json';
import {
  ANTHROPIC_MESSAGES_KEY,
  type AnthropicMessageExtension,
  type AnthropicOpaque,
} from '../../wire/anthropic/extensions';
import { invalidField } from '../shared/validate';
import { decodeBlock, decodeTextBlock, decodeToolResultBlock, extendPart, UNSUPPORTED_BLOCKS } from './decode-content';
import type { MessagesBody, RawBlock, RawMessage } from './schema';

const log = createDebug('rosetta:codec');

const MODELLED_MESSAGE_KEYS: ReadonlySet<string> = new Set(['role', 'content']);

function isEmptyText(part: ContentPart): boolean {
  return part.type === 'text' && part.text.length === 0;
}

/** A message with its Anthropic extension, when there is one. */
function message(
  role: Message['role'],
  content: ContentPart[],
  extension: AnthropicMessageExtension | undefined,
): Message {
  return extension ? { role, content, extensions: { [ANTHROPIC_MESSAGES_KEY]: extension } } : { role, content };
}

/** The extension of a message whose content was a string, and nothing else: one shared, frozen object. */
const STRING_CONTENT: AnthropicMessageExtension = Object.freeze({ stringContent: true as const });

/**
 * The extension every message decoded from `raw` shares (never changed in place): its unmodelled keys, a string
 * content.
 */
function messageExtension(
  raw: RawMessage | undefined,
  content: string | RawBlock[],
): AnthropicMessageExtension | undefined {
  const fields = raw ? unmodelledFields(raw as unknown as Record<string, unknown>, MODELLED_MESSAGE_KEYS) : undefined;
  if (!fields) return typeof content === 'string' ? STRING_CONTENT : undefined;
  return { ...(fields ? { fields } : {}), ...(typeof content === 'string' ? { stringContent: true as const } : {}) };
}

function textParts(content: string | RawBlock[], at: string): TextPart[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  return content
    .map((block, index) =>
      block.type === 'text'
        ? decodeTextBlock(block, `${at}[${index}]`)
        : invalidField(`${at}[${index}].type`, "must be 'text' in a system prompt"),
    )
    .filter((part) => part.text.length > 0);
}

/** The top-level `system` prompt as one canonical system message (none when absent or empty). */
export function decodeSystem(system: MessagesBody['system']): Message[] {
  if (system === null || system === undefined) return [];
  const content = textParts(system, 'system');
  return content.length > 0 ? [message('system', content, messageExtension(undefined, system))] : [];
}

/**
 * Whether a block has no canonical part (a server tool's use or result), logged: only an Anthropic upstream gets it
 * back.
 */
function isOpaque(block: RawBlock, at: string): boolean {
  if (!UNSUPPORTED_BLOCKS.has(block.type)) return false;
  log('%s: a %s block has no canonical part; only an Anthropic upstream gets it', at, block.type);
  return true;
}

/**
 * Blocks without a canonical part ride on the part after them (`leading`), or on the message when
 * they end it (`trailing`). Gives the blocks still waiting: none once a part took them.
 */
function lead(parts: ContentPart[], pending: AnthropicOpaque[] | undefined): AnthropicOpaque[] | undefined {
  if (pending === undefined || parts.length === 0) return pending;
  extendPart(parts[0]!, { leading: pending });
  return undefined;
}

function withTrailing(
  extension: AnthropicMessageExtension | undefined,
  trailing: AnthropicOpaque[] | undefined,
): AnthropicMessageExtension | undefined {
  return trailing ? { ...extension, trailing } : extension;
}

/**
 * A user turn: each `tool_result` becomes a canonical `tool` message, placed before the rest of
 * the turn, which stays a `user` message (PDFs returned inside tool results lead it).
 */
function decodeUserTurn(raw: RawMessage, at: string): Message[] {
  const extension = messageExtension(raw, raw.content);
  if (typeof raw.content === 'string')
    return [message('user', raw.content.length > 0 ? [{ type: 'text', text: raw.content }] : [], extension)];
  const results: Message[] = [];
  const files: FilePart[] = [];
  const rest: ContentPart[] = [];
  let pending: AnthropicOpaque[] | undefined;
  raw.content.forEach((block, index) => {
    const where = `${at}[${index}]`;
    if (isOpaque(block, where)) {
      (pending ??= []).push(block);
      return;
    }
    if (block.type !== 'tool_result') {
      const parts = decodeBlock(block, where, 'user');
      pending = lead(parts, pending);
      appendAll(rest, parts);
      return;
    }
    const decoded = decodeToolResultBlock(block, where);
    pending = lead([decoded.result], pending);
    results.push(message('tool', [decoded.result], extension));
    if (decoded.files.length > 0)
      log('%s: %d PDF document(s) of a tool_result moved into the user turn', where, decoded.files.length);
    appendAll(files, decoded.files);
  });
  const user = [...files, ...rest].filter((part) => !isEmptyText(part));
  const trailing = pending;
  if (results.length === 0) return [message('user', user, withTrailing(extension, trailing))];
  return user.length > 0 || trailing ? [...results, message('user', user, withTrailing(extension, trailing))] : results;
}

function decodeAssistantTurn(raw: RawMessage, at: string): Message {
  const extension = messageExtension(raw, raw.content);
  if (typeof raw.content === 'string')
    return message('assistant', raw.content.length > 0 ? [{ type: 'text', text: raw.content }] : [], extension);
  let pending: AnthropicOpaque[] | undefined;
  const content = raw.content.flatMap((block, index) => {
    const where = `${at}[${index}]`;
    if (isOpaque(block, where)) {
      (pending ??= []).push(block);
      return [];
    }
    const parts = decodeBlock(block, where, 'assistant').filter((part) => !isEmptyText(part));
    pending = lead(parts, pending);
    return parts;
  });
  return message('assistant', content, withTrailing(extension, pending));
}

function decodeMessage(raw: RawMessage, at: string): Message[] {
  const contentAt = `${at}.content`;
  switch (raw.role) {
    case 'system':
      return [
        message('system', textParts(raw.content, contentAt), { ...messageExtension(raw, raw.content), inline: true }),
      ];
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
    appendAll(decoded, next);
  });
  return decoded;
}
