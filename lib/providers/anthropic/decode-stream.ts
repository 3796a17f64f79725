/** Anthropic Messages server-sent events → the canonical stream. */
import type { EventSourceMessage } from 'eventsource-parser';
import createDebug from 'debug';
import type { FinishReason, StreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { upstreamMessage } from '../http/upstream-errors';
import { decodeAnthropicUsage, type AnthropicContentBlock, type AnthropicMessageResponse, type AnthropicUsage } from './decode-response';
import { mapAnthropicStopReason } from './map-finish-reason';

const log = createDebug('rosetta:provider');

/** The fields of any Messages stream event that the decoder reads. */
interface StreamEvent {
  type?: string;
  message?: AnthropicMessageResponse;
  index?: number;
  content_block?: AnthropicContentBlock;
  delta?: { type?: string; text?: string; thinking?: string; signature?: string; partial_json?: string; stop_reason?: string | null; stop_sequence?: string | null };
  usage?: AnthropicUsage | null;
  error?: { type?: string; message?: string };
}

/** Events that belong inside a message, after its `message_start`. */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);

/** A content block between its `content_block_start` and `content_block_stop`. */
type OpenBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool'; id: string };

/** The usage figures seen so far: `message_start` sets them, each `message_delta` overwrites those it carries. */
function mergeUsage(current: AnthropicUsage, update: AnthropicUsage | null | undefined): AnthropicUsage {
  if (!update) return current;
  const merged: AnthropicUsage = { ...current };
  if (update.input_tokens != null) merged.input_tokens = update.input_tokens;
  if (update.cache_read_input_tokens != null) merged.cache_read_input_tokens = update.cache_read_input_tokens;
  if (update.cache_creation_input_tokens != null) merged.cache_creation_input_tokens = update.cache_creation_input_tokens;
  if (update.output_tokens != null) merged.output_tokens = update.output_tokens;
  if (update.output_tokens_details != null) merged.output_tokens_details = update.output_tokens_details;
  return merged;
}

function parseEvent(event: EventSourceMessage, upstream: string): StreamEvent {
  try {
    return JSON.parse(event.data) as StreamEvent;
  } catch (error) {
    throw new GatewayError('upstream', `The upstream ${upstream} sent a stream event that is not valid JSON.`, { cause: error, code: 'upstream_malformed' });
  }
}

/**
 * An `error` event as a GatewayError: `overloaded_error` → overloaded (503), `rate_limit_error` →
 * rate limit (429), `timeout_error` → upstream timeout (504), anything else → upstream (502).
 */
export function streamErrorEvent(event: StreamEvent, data: string, upstream: string): GatewayError {
  const message = `The upstream ${upstream} failed mid-stream: ${upstreamMessage(data) ?? 'unknown error'}`;
  const cause = { upstreamError: event.error };
  switch (event.error?.type) {
    case 'overloaded_error':
      return new GatewayError('overloaded', message, { cause });
    case 'rate_limit_error':
      return new GatewayError('rate_limit', message, { cause, code: 'rate_limit_exceeded' });
    case 'timeout_error':
      return new GatewayError('upstream_timeout', message, { cause });
    default:
      return new GatewayError('upstream', message, { cause });
  }
}

/** The start part of a block, or undefined for block types without a canonical twin (server tools and their results). */
function openBlock(block: AnthropicContentBlock, id: string): OpenBlock | undefined {
  switch (block.type) {
    case 'text':
      return { kind: 'text', id };
    case 'thinking':
      return { kind: 'reasoning', id };
    case 'redacted_thinking':
      return { kind: 'reasoning', id, redactedData: block.data ?? '' };
    case 'tool_use':
      return { kind: 'tool', id: block.id ?? `toolu_${id}` };
    default:
      return undefined;
  }
}

function startPart(open: OpenBlock, block: AnthropicContentBlock): StreamPart[] {
  switch (open.kind) {
    case 'text':
      return [{ type: 'text-start', id: open.id }, ...(block.text ? [{ type: 'text-delta' as const, id: open.id, delta: block.text }] : [])];
    case 'reasoning':
      return [{ type: 'reasoning-start', id: open.id }, ...(block.thinking ? [{ type: 'reasoning-delta' as const, id: open.id, delta: block.thinking }] : [])];
    case 'tool':
      return [{ type: 'tool-call-start', id: open.id, name: block.name ?? '' }];
  }
}

function endPart(open: OpenBlock): StreamPart {
  switch (open.kind) {
    case 'text':
      return { type: 'text-end', id: open.id };
    case 'reasoning':
      return { type: 'reasoning-end', id: open.id, ...(open.signature ? { signature: open.signature } : {}), ...(open.redactedData !== undefined ? { redactedData: open.redactedData } : {}) };
    case 'tool':
      return { type: 'tool-call-end', id: open.id };
  }
}

/** The canonical parts of one `content_block_delta` (a signature is kept for the block's end). */
function deltaParts(open: OpenBlock, delta: NonNullable<StreamEvent['delta']>): StreamPart[] {
  switch (delta.type) {
    case 'text_delta':
      return open.kind === 'text' && delta.text ? [{ type: 'text-delta', id: open.id, delta: delta.text }] : [];
    case 'thinking_delta':
      return open.kind === 'reasoning' && delta.thinking ? [{ type: 'reasoning-delta', id: open.id, delta: delta.thinking }] : [];
    case 'signature_delta':
      if (open.kind === 'reasoning' && delta.signature) open.signature = (open.signature ?? '') + delta.signature;
      return [];
    case 'input_json_delta':
      return open.kind === 'tool' && delta.partial_json ? [{ type: 'tool-call-delta', id: open.id, delta: delta.partial_json }] : [];
    default:
      return [];
  }
}

/**
 * Decodes the upstream stream, dispatching on each event's `event:` name: `message_start` →
 * `response-start` (with the input usage), each content block → its start, deltas and end,
 * `message_delta` → stop reason and usage, `message_stop` → `finish`. `ping` and unknown events
 * are ignored. An `error` event, a malformed event or a stream that ends before `message_stop`
 * throws a GatewayError.
 */
export async function* decodeMessageStream(events: AsyncIterable<EventSourceMessage>, upstream: string): AsyncGenerator<StreamPart> {
  let started = false;
  let usage: AnthropicUsage = {};
  let stopReason: string | null | undefined;
  let stopSequence: string | null | undefined;
  const open = new Map<number, OpenBlock>();

  for await (const event of events) {
    const data = parseEvent(event, upstream);
    const name = event.event ?? data.type;
    if (name === 'error') throw streamErrorEvent(data, event.data, upstream);
    if (name === 'ping') continue;
    if (!started && name !== 'message_start' && MESSAGE_EVENTS.has(name ?? '')) {
      throw new GatewayError('upstream', `The upstream ${upstream} stream did not begin with message_start.`, { code: 'upstream_malformed' });
    }
    switch (name) {
      case 'message_start': {
        if (started) break;
        started = true;
        usage = mergeUsage(usage, data.message?.usage);
        const { inputTokens, cacheReadTokens, cacheWriteTokens } = decodeAnthropicUsage(usage);
        yield {
          type: 'response-start',
          id: data.message?.id ?? '',
          model: data.message?.model ?? '',
          created: Math.floor(Date.now() / 1000),
          usage: { inputTokens, ...(cacheReadTokens ? { cacheReadTokens } : {}), ...(cacheWriteTokens ? { cacheWriteTokens } : {}) },
        };
        break;
      }
      case 'content_block_start': {
        const index = data.index ?? 0;
        const block = data.content_block ?? { type: 'unknown' };
        const opened = openBlock(block, String(index));
        if (!opened) {
          log('upstream %s: a %s block has no canonical part; dropped', upstream, block.type);
          break;
        }
        open.set(index, opened);
        yield* startPart(opened, block);
        break;
      }
      case 'content_block_delta': {
        const block = open.get(data.index ?? 0);
        if (block && data.delta) yield* deltaParts(block, data.delta);
        break;
      }
      case 'content_block_stop': {
        const index = data.index ?? 0;
        const block = open.get(index);
        if (!block) break;
        open.delete(index);
        yield endPart(block);
        break;
      }
      case 'message_delta':
        if (data.delta?.stop_reason !== undefined) stopReason = data.delta.stop_reason;
        if (data.delta?.stop_sequence !== undefined) stopSequence = data.delta.stop_sequence;
        usage = mergeUsage(usage, data.usage);
        break;
      case 'message_stop': {
        for (const block of open.values()) yield endPart(block);
        open.clear();
        const finishReason: FinishReason = mapAnthropicStopReason(stopReason, stopSequence);
        const final: Usage = decodeAnthropicUsage(usage);
        yield { type: 'finish', usage: final, finishReason };
        return;
      }
      default:
        log('upstream %s: stream event %s ignored', upstream, name);
    }
  }
  throw new GatewayError('upstream', `The upstream ${upstream} stream ended before it finished.`, { code: 'upstream_stream_cut' });
}
