/**
 * One content block of an Anthropic Messages stream, from its `content_block_start` to its `content_block_stop`:
 * its open state and the canonical parts its events become (./decode-stream.ts dispatches the events).
 */
import createDebug from 'debug';
import type { ProviderStreamPart } from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';
import { ANTHROPIC_MESSAGES_KEY } from '../../wire/anthropic/extensions';
import type { AnthropicContentBlock, AnthropicMessageResponse, AnthropicUsage } from './decode-response';

const log = createDebug('rosetta:provider');

/** The fields of any Messages stream event that the decoder reads. */
export interface StreamEvent {
  type?: string;
  message?: AnthropicMessageResponse;
  index?: number;
  content_block?: AnthropicContentBlock;
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    citation?: unknown;
    stop_reason?: string | null;
    stop_sequence?: string | null;
  };
  usage?: AnthropicUsage | null;
  error?: { type?: string; message?: string };
}

/** A content block between its `content_block_start` and `content_block_stop`. */
export type OpenBlock =
  | { kind: 'text'; id: string; citations?: unknown[] }
  | { kind: 'opaque'; block: JsonObject; json: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool'; id: string; startInput?: string; streamed?: boolean };

/** `{ 'anthropic-messages': { event } }`: an upstream event of a block no canonical part models, without its index. */
export function opaqueEvent(data: StreamEvent): Extract<ProviderStreamPart, { type: 'opaque' }> {
  const { index: _index, ...event } = data;
  return { type: 'opaque', extensions: { [ANTHROPIC_MESSAGES_KEY]: { event: event as JsonObject } } };
}

/**
 * A block's open state; a block type without a canonical twin (a server tool's use or result, an
 * unknown type) is kept whole, to relay as opaque parts.
 */
export function openBlock(block: AnthropicContentBlock, id: string): OpenBlock {
  switch (block.type) {
    case 'text':
      return { kind: 'text', id };
    case 'thinking':
      return { kind: 'reasoning', id };
    case 'redacted_thinking':
      return { kind: 'reasoning', id, redactedData: block.data ?? '' };
    case 'tool_use':
      return { kind: 'tool', id: block.id ?? `toolu_${id}`, ...startInput(block.input) };
    default:
      return { kind: 'opaque', block: block as unknown as JsonObject, json: '' };
  }
}

/**
 * The input a `tool_use` block's `content_block_start` already holds, when it is not the empty
 * placeholder the API documents (`input: {}`, the JSON following in `input_json_delta`s): some
 * Anthropic-compatible servers send a call's input whole there, with no delta after it.
 */
function startInput(input: unknown): { startInput?: string } {
  return isJsonObject(input) && Object.keys(input).length > 0 ? { startInput: JSON.stringify(input) } : {};
}

/** Appends the start part of a block, with the text or thinking its `content_block_start` already carries. */
export function appendStart(open: OpenBlock, block: AnthropicContentBlock, out: ProviderStreamPart[]): void {
  switch (open.kind) {
    case 'text':
      out.push({ type: 'text-start', id: open.id });
      if (block.text) out.push({ type: 'text-delta', id: open.id, delta: block.text });
      return;
    case 'reasoning':
      out.push({ type: 'reasoning-start', id: open.id });
      if (block.thinking) out.push({ type: 'reasoning-delta', id: open.id, delta: block.thinking });
      return;
    case 'tool':
      out.push({ type: 'tool-call-start', id: open.id, name: block.name ?? '' });
      return;
    case 'opaque':
      log('upstream: a %s block has no canonical part; relayed opaque', block.type);
  }
}

/**
 * Appends the end part of a block; a tool call whose input came whole in its `content_block_start`
 * and in no delta gets it as one delta first.
 */
export function appendEnd(open: OpenBlock, out: ProviderStreamPart[]): void {
  switch (open.kind) {
    case 'text':
      out.push(
        open.citations
          ? {
              type: 'text-end',
              id: open.id,
              extensions: { [ANTHROPIC_MESSAGES_KEY]: { fields: { citations: open.citations } } },
            }
          : { type: 'text-end', id: open.id },
      );
      return;
    case 'opaque':
      out.push({ type: 'opaque', extensions: { [ANTHROPIC_MESSAGES_KEY]: { item: finishedBlock(open) } }, item: true });
      return;
    case 'reasoning':
      out.push({
        type: 'reasoning-end',
        id: open.id,
        ...(open.signature ? { signature: open.signature } : {}),
        ...(open.redactedData !== undefined ? { redactedData: open.redactedData } : {}),
      });
      return;
    case 'tool':
      if (open.startInput && !open.streamed) out.push({ type: 'tool-call-delta', id: open.id, delta: open.startInput });
      out.push({ type: 'tool-call-end', id: open.id });
  }
}

/**
 * An opaque block as its `content_block_stop` leaves it: its start with the input its
 * `input_json_delta`s streamed (a `server_tool_use`'s), when they make a JSON object.
 */
function finishedBlock(open: Extract<OpenBlock, { kind: 'opaque' }>): JsonObject {
  if (open.json === '') return open.block;
  try {
    const input: unknown = JSON.parse(open.json);
    if (isJsonObject(input)) return { ...open.block, input };
  } catch {
    // not JSON: logged below
  }
  log('upstream: the streamed input of a %s block is not a JSON object; its start kept', String(open.block.type));
  return open.block;
}

/**
 * Appends the canonical part of one `content_block_delta`, if any (a signature is kept for the block's end). A
 * delta of an opaque block, and a text block's `citations_delta`, go on as opaque parts, for an Anthropic caller
 * (the citations also on the text's end, for the answer and the next turn).
 */
export function appendDelta(open: OpenBlock, data: StreamEvent, out: ProviderStreamPart[]): void {
  const delta = data.delta!;
  if (open.kind === 'opaque') {
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') open.json += delta.partial_json;
    out.push(opaqueEvent(data));
    return;
  }
  switch (delta.type) {
    case 'citations_delta':
      if (open.kind === 'text' && delta.citation !== undefined) {
        (open.citations ??= []).push(delta.citation);
        out.push(opaqueEvent(data));
      }
      return;
    case 'text_delta':
      if (open.kind === 'text' && delta.text) out.push({ type: 'text-delta', id: open.id, delta: delta.text });
      return;
    case 'thinking_delta':
      if (open.kind === 'reasoning' && delta.thinking)
        out.push({ type: 'reasoning-delta', id: open.id, delta: delta.thinking });
      return;
    case 'signature_delta':
      if (open.kind === 'reasoning' && delta.signature) open.signature = (open.signature ?? '') + delta.signature;
      return;
    case 'input_json_delta':
      if (open.kind === 'tool' && delta.partial_json) {
        open.streamed = true;
        out.push({ type: 'tool-call-delta', id: open.id, delta: delta.partial_json });
      }
      return;
  }
}
