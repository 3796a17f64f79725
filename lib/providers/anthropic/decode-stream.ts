/** Anthropic Messages server-sent events → the canonical stream. */
import type { SseEvent } from '../../upstream/sse-parser';
import createDebug from 'debug';
import type { Extensions, FinishReason, ProviderStreamPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { isJsonObject, type JsonObject, unmodelledFields } from '../../json';
import {
  type AnthropicMessageDeltaFields,
  type AnthropicResponseExtension,
  anthropicExtensions,
} from '../../wire/anthropic/extensions';
import { malformedUpstream, parseEventObject } from '../../upstream/malformed';
import { upstreamMessage } from '../../upstream/upstream-errors';
import {
  decodeAnthropicUsage,
  MODELLED_RESPONSE_KEYS,
  MODELLED_USAGE_KEYS,
  reportedAnthropicUsage,
  type AnthropicUsage,
} from './decode-response';
import { mapAnthropicStopReason } from './map-finish-reason';
import type { StreamEventDecoder } from '../../upstream/sse';
import {
  appendDelta,
  appendEnd,
  appendStart,
  opaqueEvent,
  openBlock,
  type OpenBlock,
  type StreamEvent,
} from './stream-blocks';

const log = createDebug('rosetta:provider');

/** Events that belong inside a message, after its `message_start`. */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

/** The keys of `message_delta` and of its `delta` the decoder reads; the rest are relayed. */
const MODELLED_DELTA_EVENT_KEYS: ReadonlySet<string> = new Set(['type', 'delta', 'usage']);
const MODELLED_MESSAGE_DELTA_KEYS: ReadonlySet<string> = new Set(['stop_reason', 'stop_sequence']);

/** `object`'s keys not in `modelled`, when it is an object and has some. */
function ownFields(object: unknown, modelled: ReadonlySet<string>): JsonObject | undefined {
  return isJsonObject(object) ? unmodelledFields(object, modelled) : undefined;
}

/** `earlier` with each non-null key of `later` over it (null leaves the earlier value, as the SDKs accumulate). */
function overNonNull(earlier: JsonObject | undefined, later: JsonObject | undefined): JsonObject | undefined {
  if (!later) return earlier;
  let merged = earlier;
  for (const key in later) {
    const value = later[key];
    if (value === null && merged && Object.hasOwn(merged, key)) continue;
    merged = { ...merged, [key]: value };
  }
  return merged;
}

/** The usage figures seen so far: `message_start` sets them, each `message_delta` overwrites those it carries. */
function mergeUsage(current: AnthropicUsage, update: AnthropicUsage | null | undefined): AnthropicUsage {
  if (!update) return current;
  const merged: AnthropicUsage = { ...current };
  if (update.input_tokens != null) merged.input_tokens = update.input_tokens;
  if (update.cache_read_input_tokens != null) merged.cache_read_input_tokens = update.cache_read_input_tokens;
  if (update.cache_creation_input_tokens != null)
    merged.cache_creation_input_tokens = update.cache_creation_input_tokens;
  if (update.cache_creation != null) merged.cache_creation = update.cache_creation;
  if (update.output_tokens != null) merged.output_tokens = update.output_tokens;
  if (update.output_tokens_details != null) merged.output_tokens_details = update.output_tokens_details;
  return merged;
}

/**
 * A `message_start` usage without its input count when that count is 0 with no cache figures: no
 * request has no input, and some Anthropic-compatible servers (SGLang, proxies in front of
 * OpenAI-compatible ones) put 0 there until `message_delta` brings the real count. Left out, the
 * gateway's estimate stands in (Claude Code's context meter reads `message_start`), and a
 * `message_delta` without an input count leaves the input for the gateway to count, not to charge as 0.
 */
function withoutZeroInput(usage: AnthropicUsage | null | undefined): AnthropicUsage | null | undefined {
  if (!usage || usage.input_tokens == null || decodeAnthropicUsage(usage).inputTokens > 0) return usage;
  const { input_tokens: _zero, ...rest } = usage;
  return rest;
}

function parseEvent(event: SseEvent, upstream: string): StreamEvent {
  return parseEventObject(event.data, upstream) as StreamEvent;
}

const isIndex = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isTyped = (value: unknown): boolean => isJsonObject(value) && typeof value.type === 'string';

/**
 * What a known event lacks, or undefined when it has the fields its type requires: `message` on
 * `message_start`; `index` on each `content_block_*`, with a typed `content_block` on the start and
 * a typed `delta` on a delta; a `delta` object on `message_delta`. Unknown event types pass (they
 * are ignored).
 */
function eventFault(name: string, data: StreamEvent): string | undefined {
  switch (name) {
    case 'message_start':
      return isJsonObject(data.message) ? undefined : 'a message_start event without a message';
    case 'content_block_start':
      if (!isIndex(data.index)) return 'a content_block_start event without an index';
      return isTyped(data.content_block) ? undefined : 'a content_block_start event without a content_block';
    case 'content_block_delta':
      if (!isIndex(data.index)) return 'a content_block_delta event without an index';
      return isTyped(data.delta) ? undefined : 'a content_block_delta event without a delta';
    case 'content_block_stop':
      return isIndex(data.index) ? undefined : 'a content_block_stop event without an index';
    case 'message_delta':
      return isJsonObject(data.delta) ? undefined : 'a message_delta event without a delta';
    default:
      return undefined;
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

/**
 * Decodes the upstream stream, an event at a time, dispatching on each event's `event:` name (or
 * its `type`): `message_start` → `response-start` (with the input usage), each content block → its
 * start, deltas and end, `message_delta` → stop reason and usage, `message_stop` → the end of any
 * block still open and `finish`, after which the decoder is done. The unmodelled keys of
 * `message_start.message` and of `message_delta` (and of their usage) ride on `response-start` and
 * `finish` as an {@link AnthropicResponseExtension}, for an Anthropic caller. `ping` and unknown event types
 * are ignored. An `error` event, a malformed event (not an object, without a type, a known type
 * without its required fields: {@link eventFault}; or one before `message_start`) or a body that
 * ends before `message_stop` throws a GatewayError.
 */
export class MessageStreamDecoder implements StreamEventDecoder {
  done = false;
  private started = false;
  private usage: AnthropicUsage = {};
  private stopReason: string | null | undefined;
  private stopSequence: string | null | undefined;
  private readonly open = new Map<number, OpenBlock>();
  /** The answer's unmodelled keys so far (`message_start`'s, then each `message_delta`'s over them), and its usage's. */
  private fields: JsonObject | undefined;
  private usageFields: JsonObject | undefined;
  /** The unmodelled keys of the `message_delta` events, each in its place. */
  private messageDelta: AnthropicMessageDeltaFields = {};

  constructor(private readonly upstream: string) {}

  accept(event: SseEvent, out: ProviderStreamPart[]): void {
    const upstream = this.upstream;
    const data = parseEvent(event, upstream);
    const name = event.event ?? data.type;
    if (name === 'error') throw streamErrorEvent(data, event.data, upstream);
    if (name === 'ping') return;
    if (typeof name !== 'string') throw malformedUpstream(upstream, 'a stream event without a type');
    const fault = eventFault(name, data);
    if (fault) throw malformedUpstream(upstream, fault);
    if (!this.started && name !== 'message_start' && MESSAGE_EVENTS.has(name ?? '')) {
      throw new GatewayError('upstream', `The upstream ${upstream} stream did not begin with message_start.`, {
        code: 'upstream_malformed',
      });
    }
    switch (name) {
      case 'message_start': {
        if (this.started) return;
        this.started = true;
        this.usage = mergeUsage(this.usage, withoutZeroInput(data.message?.usage));
        this.fields = ownFields(data.message, MODELLED_RESPONSE_KEYS);
        this.usageFields = ownFields(data.message?.usage, MODELLED_USAGE_KEYS);
        const { inputTokens, cacheReadTokens, cacheWriteTokens, cacheWriteLongTokens } = decodeAnthropicUsage(
          this.usage,
        );
        out.push({
          type: 'response-start',
          id: data.message?.id ?? '',
          model: data.message?.model ?? '',
          created: Math.floor(Date.now() / 1000),
          // Without a reported input count the gateway keeps its own estimate.
          usage: {
            ...(this.usage.input_tokens != null ? { inputTokens } : {}),
            ...(cacheReadTokens ? { cacheReadTokens } : {}),
            ...(cacheWriteTokens ? { cacheWriteTokens } : {}),
            ...(cacheWriteLongTokens ? { cacheWriteLongTokens } : {}),
          },
          ...extensionsOf({
            ...(this.fields ? { fields: this.fields } : {}),
            ...(this.usageFields ? { usage: this.usageFields } : {}),
          }),
        });
        return;
      }
      case 'content_block_start': {
        const index = data.index!;
        const block = data.content_block!;
        const opened = openBlock(block, String(index));
        this.open.set(index, opened);
        if (opened.kind === 'opaque') out.push(opaqueEvent(data));
        appendStart(opened, block, out);
        return;
      }
      case 'content_block_delta': {
        const block = this.open.get(data.index!);
        if (!block) return;
        appendDelta(block, data, out);
        return;
      }
      case 'content_block_stop': {
        const index = data.index!;
        const block = this.open.get(index);
        if (!block) return;
        this.open.delete(index);
        appendEnd(block, out);
        return;
      }
      case 'message_delta':
        if (data.delta?.stop_reason !== undefined) this.stopReason = data.delta.stop_reason;
        if (data.delta?.stop_sequence !== undefined) this.stopSequence = data.delta.stop_sequence;
        this.usage = mergeUsage(this.usage, data.usage);
        this.deltaFields(data);
        return;
      case 'message_stop': {
        for (const block of this.open.values()) appendEnd(block, out);
        this.open.clear();
        const finishReason: FinishReason = mapAnthropicStopReason(this.stopReason, this.stopSequence);
        out.push({
          type: 'finish',
          usage: reportedAnthropicUsage(this.usage),
          finishReason,
          ...extensionsOf(this.finishExtension()),
        });
        this.done = true;
        return;
      }
      default:
        log('upstream %s: stream event %s ignored', upstream, name);
    }
  }

  /**
   * Keeps a `message_delta`'s unmodelled keys: those of its `delta` and its own top-level ones are the
   * answer's (over `message_start`'s when not null), its usage's the answer's usage's; each also as it stood.
   */
  private deltaFields(data: StreamEvent): void {
    const delta = ownFields(data.delta, MODELLED_MESSAGE_DELTA_KEYS);
    const fields = ownFields(data, MODELLED_DELTA_EVENT_KEYS);
    const usage = ownFields(data.usage, MODELLED_USAGE_KEYS);
    const kept = this.messageDelta;
    if (delta) kept.delta = { ...kept.delta, ...delta };
    if (fields) kept.fields = { ...kept.fields, ...fields };
    if (usage) kept.usage = { ...kept.usage, ...usage };
    this.fields = overNonNull(overNonNull(this.fields, delta), fields);
    this.usageFields = overNonNull(this.usageFields, usage);
  }

  /** The `finish` part's extension: the answer's unmodelled keys, its usage's, and the `message_delta`s' own. */
  private finishExtension(): AnthropicResponseExtension {
    const messageDelta = this.messageDelta;
    return {
      ...(this.fields ? { fields: this.fields } : {}),
      ...(this.usageFields ? { usage: this.usageFields } : {}),
      ...(messageDelta.delta || messageDelta.fields || messageDelta.usage ? { messageDelta } : {}),
    };
  }

  end(): void {
    throw new GatewayError('upstream', `The upstream ${this.upstream} stream ended before it finished.`, {
      code: 'upstream_stream_cut',
    });
  }
}

/** `{ extensions }` holding an Anthropic extension, or nothing for an empty one. */
function extensionsOf(extension: AnthropicResponseExtension): { extensions?: Extensions } {
  const extensions = anthropicExtensions(extension as JsonObject);
  return extensions ? { extensions } : {};
}
