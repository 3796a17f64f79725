/** Anthropic `system` and `messages` → canonical messages (system prompts, tool results split out of user turns). */
import createDebug from 'debug';
import type { ContentPart, FilePart, Message, TextPart } from '../../canonical';
import { invalidField } from '../shared/validate';
import { decodeBlock, decodeTextBlock, decodeToolResultBlock } from './decode-content';
import type { MessagesBody, RawBlock, RawMessage } from './schema';

const log = createDebug('rosetta:codec');

function isEmptyText(part: ContentPart): boolean {
  return part.type === 'text' && part.text.length === 0;
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
  return content.length > 0 ? [{ role: 'system', content }] : [];
}

/**
 * A user turn: each `tool_result` becomes a canonical `tool` message, placed before the rest of
 * the turn, which stays a `user` message (PDFs returned inside tool results lead it).
 */
function decodeUserTurn(content: string | RawBlock[], at: string): Message[] {
  if (typeof content === 'string') return [{ role: 'user', content: content.length > 0 ? [{ type: 'text', text: content }] : [] }];
  const results: Message[] = [];
  const files: FilePart[] = [];
  const rest: ContentPart[] = [];
  content.forEach((block, index) => {
    const where = `${at}[${index}]`;
    if (block.type !== 'tool_result') {
      rest.push(...decodeBlock(block, where, 'user'));
      return;
    }
    const decoded = decodeToolResultBlock(block, where);
    results.push({ role: 'tool', content: [decoded.result] });
    if (decoded.files.length > 0) log('%s: %d PDF document(s) of a tool_result moved into the user turn', where, decoded.files.length);
    files.push(...decoded.files);
  });
  const user = [...files, ...rest].filter((part) => !isEmptyText(part));
  if (results.length === 0) return [{ role: 'user', content: user }];
  return user.length > 0 ? [...results, { role: 'user', content: user }] : results;
}

function decodeMessage(message: RawMessage, at: string): Message[] {
  const contentAt = `${at}.content`;
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: textParts(message.content, contentAt) }];
    case 'user':
      return decodeUserTurn(message.content, contentAt);
    case 'assistant': {
      const content = typeof message.content === 'string'
        ? [{ type: 'text' as const, text: message.content }]
        : message.content.flatMap((block, index) => decodeBlock(block, `${contentAt}[${index}]`, 'assistant'));
      return [{ role: 'assistant', content: content.filter((part) => !isEmptyText(part)) }];
    }
  }
}

/** Every message in order; a `system` message inside `messages` stays where it is. */
export function decodeMessages(messages: readonly RawMessage[]): Message[] {
  return messages.flatMap((message, index) => decodeMessage(message, `messages[${index}]`));
}
