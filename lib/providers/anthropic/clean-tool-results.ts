/**
 * The pairing of `tool_use` and `tool_result` blocks Anthropic insists on, made true of an encoded conversation
 * before it is sent: each call of an assistant turn answered exactly once at the head of the next user turn
 * (docs/translation.md, "Coding-agent probes and upstream strictness"). Anthropic refuses otherwise with a 400:
 * - "messages.N.content.M: each tool_use must have a single result. Found multiple `tool_result` blocks with id: …"
 *   (two results for one call: an OpenAI caller's two `tool` messages with one id, Codex's progress notes; litellm
 *   #16711, new-api #1854);
 * - "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must
 *   have a corresponding `tool_use` block in the previous message." (a result whose call is not there);
 * - "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: …. Each `tool_use` block
 *   must have a corresponding `tool_result` block in the next message." (a call left unanswered: a client that
 *   interrupted the tool, a history trimmed between call and result).
 * A conversation already paired is returned as it is (the same array).
 */
import { appendAll } from '../../arrays';
import createDebug from 'debug';
import { type AnthropicBlockParam, isBlankText } from './encode-content';
import type { AnthropicMessageParam } from './encode-messages';

const log = createDebug('rosetta:provider');

/** The result given to a call its history left unanswered, as Claude Code gives one it interrupted. */
export const UNANSWERED_RESULT = 'No result was returned for this tool call.';

function blocksOf(message: AnthropicMessageParam | undefined): AnthropicBlockParam[] {
  return message && Array.isArray(message.content) ? message.content : [];
}

/** A result's content as blocks (a string as one text block; blank text none). */
function resultBlocks(result: AnthropicBlockParam): AnthropicBlockParam[] {
  const content = result.content;
  if (typeof content === 'string') return isBlankText(content) ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as AnthropicBlockParam[]) : [];
}

/** Two results for one call become one: the first's, with the later one's blocks after its own (unless the same). */
function mergeResults(first: AnthropicBlockParam, later: AnthropicBlockParam): AnthropicBlockParam {
  const blocks = resultBlocks(first);
  const seen = new Set(blocks.map((block) => JSON.stringify(block)));
  const added = resultBlocks(later).filter((block) => !seen.has(JSON.stringify(block)));
  const merged: AnthropicBlockParam = { ...first };
  if (added.length > 0) merged.content = [...blocks, ...added];
  if (later.is_error === true) merged.is_error = true;
  return merged;
}

/** A result whose call is not in the previous turn, as text the model can still read. */
function orphanAsBlocks(result: AnthropicBlockParam): AnthropicBlockParam[] {
  const blocks = resultBlocks(result);
  const label = `Result of tool call ${String(result.tool_use_id)}${result.is_error === true ? ' (an error)' : ''}:`;
  return [{ type: 'text', text: label }, ...blocks];
}

/** The user turn after an assistant turn that calls `calls`, paired with them; undefined when it already is. */
function pairTurn(
  message: AnthropicMessageParam,
  calls: readonly string[],
  at: number,
): AnthropicMessageParam | undefined {
  const blocks =
    typeof message.content === 'string'
      ? isBlankText(message.content)
        ? []
        : [{ type: 'text', text: message.content }]
      : message.content;
  const results = new Map<string, AnthropicBlockParam>();
  const called = new Set(calls);
  const rest: AnthropicBlockParam[] = [];
  let changed = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      rest.push(block);
      continue;
    }
    const id = String(block.tool_use_id);
    const earlier = results.get(id);
    if (!called.has(id)) {
      log('messages.%d: a tool_result for %s, which the previous turn did not call, sent as text', at, id);
      appendAll(rest, orphanAsBlocks(block));
      changed = true;
    } else if (earlier) {
      log('messages.%d: a second tool_result for %s merged into the first', at, id);
      results.set(id, mergeResults(earlier, block));
      changed = true;
    } else results.set(id, block);
  }
  for (const id of calls) {
    if (results.has(id)) continue;
    log('messages.%d: the call %s had no tool_result; one saying so added', at, id);
    results.set(id, { type: 'tool_result', tool_use_id: id, content: UNANSWERED_RESULT, is_error: true });
    changed = true;
  }
  if (!changed) return undefined;
  // Results lead the turn, in the order of the calls.
  const ordered = [...calls.map((id) => results.get(id)!), ...rest];
  return { ...message, content: ordered };
}

/**
 * `messages` with every assistant turn's `tool_use` calls answered once each at the head of the next user turn: a
 * second result for a call merged into the first (blocks it repeats dropped), a result for a call not made in the
 * previous turn sent as text, a call without a result given an error result saying so ({@link UNANSWERED_RESULT}).
 * A user turn that does not follow calls has its results sent as text. The last turn is left as it is.
 */
export function pairToolResults(messages: AnthropicMessageParam[]): AnthropicMessageParam[] {
  let cleaned: AnthropicMessageParam[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const previous = messages[index - 1];
    const calls: string[] =
      previous?.role === 'assistant'
        ? blocksOf(previous)
            .filter((block) => block.type === 'tool_use')
            .map((block) => String(block.id))
        : [];
    if (calls.length === 0 && !blocksOf(message).some((block) => block.type === 'tool_result')) continue;
    const paired = pairTurn(message, calls, index);
    if (!paired) continue;
    cleaned ??= [...messages];
    cleaned[index] = paired;
  }
  // An assistant turn whose calls are followed by another assistant turn or nothing is not touched: the last turn may
  // be a prefill, and consecutive assistant turns are the caller's own choice.
  return cleaned ?? messages;
}
