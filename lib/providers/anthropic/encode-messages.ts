/** Canonical messages → the Anthropic top-level `system` and strictly alternating user/assistant turns. */
import { appendAll } from '../../arrays';
import type { ContentPart, Message } from '../../canonical';
import type { JsonObject } from '../../json';
import {
  anthropicBlocksAt,
  anthropicExtension,
  anthropicExtensions,
  anthropicOpaqueBlock,
  mergeUnmodelled,
  type AnthropicMessageExtension,
  type AnthropicPartExtension,
} from '../../wire/anthropic/extensions';
import { anthropicToolId } from '../../wire/anthropic/tool-id';
import { encodePart, encodeSequence, encodeText, encodeToolResult, type AnthropicBlockParam } from './encode-content';

/** One Anthropic turn (`system` only for a system message an Anthropic caller placed inside `messages`). */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant' | 'system';
  content: string | AnthropicBlockParam[];
  [key: string]: unknown;
}

/** The encoded conversation: the system prompt (text blocks, possibly none, or the caller's string) and the turns. */
export interface EncodedConversation {
  system: string | AnthropicBlockParam[];
  messages: AnthropicMessageParam[];
}

/** A turn being built: tool results are kept apart so they lead the turn whatever order they came in. */
interface PendingTurn {
  role: AnthropicMessageParam['role'];
  results: AnthropicBlockParam[];
  blocks: AnthropicBlockParam[];
  /** The one message the turn holds sent its content as a string. */
  stringContent: boolean;
  /** Keys of the turn's messages the codec did not model. */
  fields?: JsonObject;
  /** PDFs a tool result carried, to put back into it. */
  placed?: Array<{ id: string; index: number; block: AnthropicBlockParam }>;
}

/** A text block with nothing but its text, which a string content stands for. */
function plainText(block: AnthropicBlockParam | undefined): block is AnthropicBlockParam & { text: string } {
  return block?.type === 'text' && Object.keys(block).length === 2;
}

/** A PDF goes back into the tool result that carried it, where that result is still in the turn. */
function placeFiles(turn: PendingTurn): void {
  if (!turn.placed) return;
  const byId = new Map<unknown, AnthropicBlockParam>();
  for (const result of turn.results) if (!byId.has(result.tool_use_id)) byId.set(result.tool_use_id, result);
  for (const { id, index, block } of turn.placed) {
    const result = byId.get(id);
    if (!result) {
      turn.blocks.unshift(block);
      continue;
    }
    const content =
      typeof result.content === 'string'
        ? [{ type: 'text', text: result.content }]
        : Array.isArray(result.content)
          ? [...(result.content as unknown[])]
          : [];
    content.splice(index, 0, block);
    result.content = content;
  }
}

function finish(turn: PendingTurn): AnthropicMessageParam {
  placeFiles(turn);
  const blocks = appendAll(turn.results.slice(), turn.blocks);
  const content = turn.stringContent && blocks.length === 1 && plainText(blocks[0]) ? blocks[0].text : blocks;
  return mergeUnmodelled({ role: turn.role, content }, turn.fields);
}

/** The system prompt: its blocks, or the string an Anthropic caller sent when it is one unchanged text. */
function systemPrompt(blocks: AnthropicBlockParam[], messages: readonly Message[]): string | AnthropicBlockParam[] {
  const lifted = messages.filter(
    (message) =>
      message.role === 'system' && anthropicExtension<AnthropicMessageExtension>(message.extensions)?.inline !== true,
  );
  const stringContent =
    lifted.length === 1 && anthropicExtension<AnthropicMessageExtension>(lifted[0]!.extensions)?.stringContent === true;
  return stringContent && blocks.length === 1 && plainText(blocks[0]) ? blocks[0].text : blocks;
}

/**
 * The message with its Anthropic opaque items (an Anthropic upstream's server-tool blocks of an
 * earlier answer, kept by a thread or a stored response) as the extensions an Anthropic caller's
 * history has for them: each block before the part it stood before (`leading`), those after the last
 * part `trailing`. Another protocol's opaque items are not sent (`reportForeignTools` names them).
 */
function withOpaqueBlocks(message: Message): Message {
  const opaque = message.opaque;
  if (!opaque?.some((item) => anthropicOpaqueBlock(item) !== undefined)) return message;
  const content = message.content.map((part, index) => {
    const leading = anthropicBlocksAt(opaque, index, false);
    if (leading.length === 0) return part;
    const own = anthropicExtension<AnthropicPartExtension>(part.extensions);
    const extension: AnthropicPartExtension = { ...own, leading: [...leading, ...(own?.leading ?? [])] };
    return { ...part, extensions: { ...part.extensions, ...anthropicExtensions(extension) } };
  });
  const trailing = anthropicBlocksAt(opaque, message.content.length, true);
  if (trailing.length === 0) return { ...message, content };
  const own = anthropicExtension<AnthropicMessageExtension>(message.extensions);
  const extension: AnthropicMessageExtension = { ...own, trailing: [...(own?.trailing ?? []), ...trailing] };
  return { ...message, content, extensions: { ...message.extensions, ...anthropicExtensions(extension) } };
}

/**
 * System messages (wherever they stand) become the `system` blocks, except those an Anthropic
 * caller placed inside `messages`, which stay there. Each `tool` message's results join the next
 * user turn, ahead of its other blocks; consecutive turns of one role are merged (unless an
 * Anthropic caller sent them apart), so roles alternate; blank text is dropped and a turn left empty
 * disappears. The `anthropic-messages` extensions put back what an Anthropic caller sent that
 * canonical messages do not say: string contents, unmodelled keys, server-tool blocks, documents; an
 * Anthropic upstream's server-tool blocks of an earlier answer (its opaque items) go back in place.
 */
export function encodeConversation(messages: readonly Message[]): EncodedConversation {
  const system: AnthropicBlockParam[] = [];
  const turns: PendingTurn[] = [];
  const append = (
    role: PendingTurn['role'],
    results: AnthropicBlockParam[],
    blocks: AnthropicBlockParam[],
    extension?: AnthropicMessageExtension,
    placed?: PendingTurn['placed'],
  ) => {
    if (results.length === 0 && blocks.length === 0 && !placed) return;
    const last = turns.at(-1);
    if (last?.role === role && role !== 'system' && extension?.newTurn !== true) {
      appendAll(last.results, results);
      appendAll(last.blocks, blocks);
      if (placed) appendAll((last.placed ??= []), placed);
      last.stringContent = false;
      last.fields = extension?.fields ? { ...last.fields, ...extension.fields } : last.fields;
    } else {
      turns.push({
        role,
        results,
        blocks,
        stringContent: extension?.stringContent === true,
        ...(extension?.fields ? { fields: extension.fields } : {}),
        ...(placed ? { placed } : {}),
      });
    }
  };
  messages.forEach((stored, messageIndex) => {
    const message = withOpaqueBlocks(stored);
    const at = (partIndex: number) => `messages[${messageIndex}].content[${partIndex}]`;
    const extension = anthropicExtension<AnthropicMessageExtension>(message.extensions);
    const trailing = (extension?.trailing ?? []) as AnthropicBlockParam[];
    if (message.role === 'system') {
      const text = encodeSequence(message.content, (part) => (part.type === 'text' ? encodeText(part) : []));
      if (extension?.inline) append('system', [], [...text, ...trailing], extension);
      else appendAll(system, text);
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const resultParts: ContentPart[] = [];
    const otherParts: ContentPart[] = [];
    // Each part's index in the message, for error paths: looked up in a map, not by a scan per part.
    const indexOf = new Map<ContentPart, number>();
    let placed: PendingTurn['placed'];
    message.content.forEach((part, partIndex) => {
      indexOf.set(part, partIndex);
      const inResult =
        part.type === 'file' ? anthropicExtension<AnthropicPartExtension>(part.extensions)?.toolResult : undefined;
      if (inResult)
        (placed ??= []).push({
          id: anthropicToolId(inResult.id),
          index: inResult.index,
          block: encodeSequence([part], (file) => encodePart(file, role, at(partIndex))).at(-1)!,
        });
      else (part.type === 'tool-result' ? resultParts : otherParts).push(part);
    });
    const results = encodeSequence(resultParts, (part) => [
      encodeToolResult(part as Extract<ContentPart, { type: 'tool-result' }>, at(indexOf.get(part)!)),
    ]);
    const blocks = appendAll(
      encodeSequence(otherParts, (part) => encodePart(part, role, at(indexOf.get(part)!))),
      trailing,
    );
    if (role === 'assistant' && results.length > 0) {
      append('assistant', [], blocks, extension);
      append('user', results, []);
      return;
    }
    append(role, results, blocks, extension, placed);
  });
  return { system: systemPrompt(system, messages), messages: turns.map(finish) };
}
