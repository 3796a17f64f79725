/** Canonical messages → the Anthropic top-level `system` and strictly alternating user/assistant turns. */
import type { Message } from '../../canonical';
import { encodePart, encodeText, encodeToolResult, type AnthropicBlockParam } from './encode-content';

/** One Anthropic turn. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicBlockParam[];
}

/** The encoded conversation: system text blocks (possibly none) and the turns. */
export interface EncodedConversation {
  system: AnthropicBlockParam[];
  messages: AnthropicMessageParam[];
}

/** A turn being built: tool results are kept apart so they lead the turn whatever order they came in. */
interface PendingTurn {
  role: 'user' | 'assistant';
  results: AnthropicBlockParam[];
  blocks: AnthropicBlockParam[];
}

/**
 * System messages (wherever they stand) become the `system` blocks. Each `tool` message's results
 * join the next user turn, ahead of its other blocks; consecutive turns of one role are merged, so
 * roles alternate; blank text is dropped and a turn left empty disappears.
 */
export function encodeConversation(messages: readonly Message[]): EncodedConversation {
  const system: AnthropicBlockParam[] = [];
  const turns: PendingTurn[] = [];
  const append = (role: PendingTurn['role'], results: AnthropicBlockParam[], blocks: AnthropicBlockParam[]) => {
    if (results.length === 0 && blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) {
      last.results.push(...results);
      last.blocks.push(...blocks);
    } else {
      turns.push({ role, results, blocks });
    }
  };
  messages.forEach((message, messageIndex) => {
    const at = (partIndex: number) => `messages[${messageIndex}].content[${partIndex}]`;
    if (message.role === 'system') {
      system.push(...message.content.flatMap((part) => (part.type === 'text' ? encodeText(part) : [])));
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const results: AnthropicBlockParam[] = [];
    const blocks: AnthropicBlockParam[] = [];
    message.content.forEach((part, partIndex) => {
      if (part.type === 'tool-result') results.push(encodeToolResult(part, at(partIndex)));
      else blocks.push(...encodePart(part, role, at(partIndex)));
    });
    if (role === 'assistant' && results.length > 0) {
      append('assistant', [], blocks);
      append('user', results, []);
      return;
    }
    append(role, results, blocks);
  });
  return { system, messages: turns.map((turn) => ({ role: turn.role, content: [...turn.results, ...turn.blocks] })) };
}
