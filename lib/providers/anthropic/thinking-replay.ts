/** Keeps a pass-through body's history replayable under Anthropic's thinking rules, whoever answered the earlier turns. */
import createDebug from 'debug';

const log = createDebug('rosetta:provider');

type Block = Record<string, unknown> & { type?: unknown };
/** A turn as far as these rules read it (a request body's turn, or an encoded one). */
type Turn = { readonly role?: unknown; readonly content?: unknown };

function blocksOf(turn: Turn | undefined): Block[] {
  return Array.isArray(turn?.content) ? (turn.content as Block[]).filter((block) => typeof block === 'object' && block !== null) : [];
}

function isUnsignedThinking(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false;
  const { type, signature } = block as Block;
  return type === 'thinking' && (typeof signature !== 'string' || signature.length === 0);
}

/**
 * Whether the conversation is inside a tool loop whose assistant turn does not lead with a
 * thinking block: the last message is a user turn of tool results, and the assistant turn before
 * it calls tools but starts with something else. With thinking on, Anthropic refuses that
 * ("a final assistant message must start with a thinking block").
 */
export function toolLoopWithoutThinking(messages: readonly Turn[]): boolean {
  const last = messages.at(-1);
  const previous = messages.at(-2);
  if (last?.role !== 'user' || previous?.role !== 'assistant') return false;
  if (!blocksOf(last).some((block) => block.type === 'tool_result')) return false;
  const blocks = blocksOf(previous);
  if (!blocks.some((block) => block.type === 'tool_use')) return false;
  return blocks[0]?.type !== 'thinking' && blocks[0]?.type !== 'redacted_thinking';
}

function withoutUnsignedThinking(messages: readonly Turn[]): Turn[] {
  return messages.flatMap((turn, index) => {
    if (turn?.role !== 'assistant' || !Array.isArray(turn.content)) return [turn];
    const content = turn.content.filter((block) => !isUnsignedThinking(block));
    if (content.length === turn.content.length) return [turn];
    log('messages[%d]: %d unsigned thinking block(s) dropped', index, turn.content.length - content.length);
    return content.length > 0 ? [{ ...turn, content }] : [];
  });
}

/** `context_management` without its `clear_thinking_*` edits (which need thinking on); undefined when no edit is left. */
function withoutThinkingEdits(management: unknown): unknown {
  if (typeof management !== 'object' || management === null) return management;
  const edits = (management as { edits?: unknown }).edits;
  if (!Array.isArray(edits)) return management;
  const kept = edits.filter((edit: { type?: unknown }) => !(typeof edit?.type === 'string' && edit.type.startsWith('clear_thinking')));
  if (kept.length === edits.length) return management;
  return kept.length > 0 ? { ...management, edits: kept } : undefined;
}

/**
 * The body, made replayable when earlier turns were answered by another vendor through this
 * gateway (a client switching models mid-conversation, or a fallback):
 * - `thinking` blocks without a signature (another vendor's reasoning, relayed as thinking) are
 *   taken out of the assistant turns, and an assistant turn left empty with them;
 * - with thinking on inside a tool loop whose assistant turn has no thinking block to lead with,
 *   thinking is switched off for this request (`{type: "disabled"}`), and `clear_thinking_*`
 *   context-management edits go with it.
 * A body that needs none of this is returned as it is.
 */
export function replayableThinking(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.messages)) return body;
  const original = body.messages as Turn[];
  const messages = original.some((turn) => turn?.role === 'assistant' && blocksOf(turn).some(isUnsignedThinking)) ? withoutUnsignedThinking(original) : original;
  const thinkingType = (body.thinking as { type?: unknown } | null | undefined)?.type;
  const thinkingOn = thinkingType === 'enabled' || thinkingType === 'adaptive';
  if (!(thinkingOn && toolLoopWithoutThinking(messages))) return messages === original ? body : { ...body, messages };
  log('thinking switched off for this request: the tool loop’s assistant turn has no thinking block Anthropic can replay');
  const { context_management: management, ...rest } = body;
  const edits = withoutThinkingEdits(management);
  return { ...rest, messages, thinking: { type: 'disabled' }, ...(edits !== undefined ? { context_management: edits } : {}) };
}
