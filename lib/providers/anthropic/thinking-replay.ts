/** Anthropic's thinking rules for a replayed history, whoever answered its earlier turns: when thinking must be off. */

type Block = Record<string, unknown> & { type?: unknown };
/** A turn as far as these rules read it (a request body's turn, or an encoded one). */
type Turn = { readonly role?: unknown; readonly content?: unknown };

function blocksOf(turn: Turn | undefined): Block[] {
  return Array.isArray(turn?.content)
    ? (turn.content as Block[]).filter((block) => typeof block === 'object' && block !== null)
    : [];
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

/**
 * `context_management` without its `clear_thinking_*` edits (which need thinking on); undefined when no edit is left.
 */
export function withoutThinkingEdits(management: unknown): unknown {
  if (typeof management !== 'object' || management === null) return management;
  const edits = (management as { edits?: unknown }).edits;
  if (!Array.isArray(edits)) return management;
  const kept = edits.filter(
    (edit: { type?: unknown }) => !(typeof edit?.type === 'string' && edit.type.startsWith('clear_thinking')),
  );
  if (kept.length === edits.length) return management;
  return kept.length > 0 ? { ...management, edits: kept } : undefined;
}
