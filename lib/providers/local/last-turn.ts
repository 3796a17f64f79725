/** What the local text model answers to: the conversation's last turn, with framework-injected text left out. */
import type { Message, TextPart, ToolResultPart } from '../../canonical';

/**
 * Tags whose content a client framework injects into the user's turn rather than the user typing
 * it (Claude Code's `<system-reminder>`, Codex CLI's `<environment_context>`). The local model
 * strips each such element from user text.
 */
export const INJECTED_TAGS: readonly string[] = Object.freeze(['system-reminder', 'environment_context']);

const INJECTED_ELEMENT = new RegExp(`<(${INJECTED_TAGS.join('|')})>[\\s\\S]*?</\\1>`, 'g');

/** User text with every injected element removed, trimmed. */
export function ownText(text: string): string {
  return text.replace(INJECTED_ELEMENT, '').trim();
}

/** A tool result together with the name of the tool that produced it, when known. */
export interface NamedToolResult {
  name: string | undefined;
  result: ToolResultPart;
}

/** The turn the model answers: the caller's own text, images without text, tool results, or nothing. */
export type LastTurn =
  | { kind: 'text'; text: string }
  | { kind: 'images'; count: number }
  | { kind: 'tool-results'; results: NamedToolResult[] }
  | { kind: 'none' };

/** The names of the tool calls made before message `before`, by call id (a later call of one id wins). */
function callNamesBefore(messages: readonly Message[], before: number): Map<string, string> {
  const names = new Map<string, string>();
  for (let index = 0; index < before; index++) {
    for (const part of messages[index]!.content) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  return names;
}

/**
 * The tool results of the run of `tool` messages ending at `end`, in order (system messages in between are skipped),
 * each with the name of the call it answers (one pass over the conversation, whatever the number of results).
 */
function resultsEndingAt(messages: readonly Message[], end: number): NamedToolResult[] {
  let start = end;
  for (let index = end; index >= 0; index--) {
    const role = messages[index]!.role;
    if (role === 'system') continue;
    if (role !== 'tool') break;
    start = index;
  }
  let names: Map<string, string> | undefined;
  const results: NamedToolResult[] = [];
  for (let index = start; index <= end; index++) {
    const message = messages[index]!;
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      names ??= part.toolName === undefined ? callNamesBefore(messages, start) : undefined;
      results.push({ name: part.toolName ?? names?.get(part.toolCallId), result: part });
    }
  }
  return results;
}

/**
 * Walks back from the end of the conversation, past system messages, assistant messages and user
 * messages that hold nothing but injected text, to the first turn that says something: a user
 * message with text of its own (its text parts joined by newlines) or only images, or the tool
 * results the caller sent back.
 */
export function lastTurn(messages: readonly Message[]): LastTurn {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'tool') return { kind: 'tool-results', results: resultsEndingAt(messages, index) };
    if (message.role !== 'user') continue;
    const said = message.content
      .filter((part): part is TextPart => part.type === 'text')
      .map((part) => ownText(part.text))
      .filter((text) => text.length > 0)
      .join('\n');
    if (said.length > 0) return { kind: 'text', text: said };
    const images = message.content.filter((part) => part.type === 'image').length;
    if (images > 0) return { kind: 'images', count: images };
  }
  return { kind: 'none' };
}
