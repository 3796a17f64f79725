/** Responses API server-sent events → the canonical stream. */
import type { Extensions, ProviderFinishPart, ProviderMetadata, ProviderStreamPart } from '../../../canonical';
import createDebug from 'debug';
import { GatewayError } from '../../../errors';
import { isJsonObject, unmodelledFields, type JsonObject } from '../../../json';
import { malformedUpstream, parseEventObject } from '../../../upstream/malformed';
import type { StreamEventDecoder } from '../../../upstream/sse';
import type { SseEvent } from '../../../upstream/sse-parser';
import type { CarriedReasoningItem } from '../../../wire/openai/carried-reasoning';
import { RESPONSES } from '../../../wire/openai/responses-extensions';
import {
  callArguments,
  callName,
  CALL_ITEM_FIELDS,
  carriedItem,
  isCallItem,
  MESSAGE_ITEM_FIELDS,
  REASONING_ITEM_FIELDS,
  textPartFields,
  reasoningMetadata,
  reportedUsage,
  responsesFailure,
  responsesFinishReason,
} from './decode-output';
import { MODELLED_RESPONSE_FIELDS } from './decode-response';

const log = createDebug('rosetta:provider');

type Open =
  | { kind: 'text'; id: string; itemId: string }
  | { kind: 'opaque'; itemId: string; outputIndex: unknown }
  | { kind: 'reasoning'; id: string; itemId: string; summaries: number; delta: boolean }
  | { kind: 'call'; id: string; itemId: string; custom: boolean; sent: string };

/**
 * Decodes the upstream stream, an event at a time: `response.created` starts it; each output item
 * becomes one canonical block (a message's text, a reasoning item's summary and raw-reasoning
 * deltas, a call's argument deltas and whatever of its arguments `function_call_arguments.done`
 * or `output_item.done` states that the deltas did not carry — when none had any, those of its copy
 * in the `response.completed` output), ended by its
 * `response.output_item.done` (a reasoning item's id and `encrypted_content` on its `reasoning-end`,
 * and on the next call's `tool-call-start`);
 * `response.completed` / `response.incomplete` finish it with the usage they carry. The
 * `response-start` part waits for the first part after it. A
 * `response.failed` or an `error` event throws the error it reports; an event that is not a JSON
 * object with a `type`, or a lifecycle event without its `response`, is a 502
 * `upstream_malformed`; a body that ends before a terminal event is a cut stream. An item no
 * canonical block models (a built-in tool's `web_search_call`, …) is relayed as `opaque` parts: its
 * `output_item.added` and its own events (`response.web_search_call.searching`, …) as they come, the
 * item whole when done. A block's `*-end` carries its item's unmodelled keys, `finish` the finished
 * response's. Other events (annotations as they are added, lifecycle events) are skipped: what they
 * say is in the items and the response when done.
 */
export class ResponsesStreamDecoder implements StreamEventDecoder {
  done = false;
  private started = false;
  private open: Open | undefined;
  private blocks = 0;
  private sawCalls = false;
  private refused = false;
  private answered = false;
  private pending: CarriedReasoningItem[] = [];
  /** A call whose item ended without arguments, its end part held until the next event (see {@link endArgumentless}). */
  private argumentless: { call: Extract<Open, { kind: 'call' }>; end: ProviderStreamPart } | undefined;
  /** The `response-start` part, until the first part after it. */
  private startPart: ProviderStreamPart | undefined;

  /** `dropped`: where an item no canonical part models is reported, when the caller is not shown it. */
  constructor(
    private readonly upstream: string,
    private readonly dropped?: (item: JsonObject) => void,
  ) {}

  accept(event: SseEvent, out: ProviderStreamPart[]): void {
    const data = parseEventObject(event.data, this.upstream);
    const type = typeof data.type === 'string' ? data.type : event.event;
    if (typeof type !== 'string' || type.length === 0)
      throw malformedUpstream(this.upstream, 'a stream event without a type');
    if (type === 'error') throw responsesFailure(isJsonObject(data.error) ? data.error : data, this.upstream);
    if (!this.started) this.start(type, data);
    const mark = out.length;
    this.decode(type, data, out);
    // The start goes out with the first part after it: a failure before any content (a rate limit
    // reported as `response.failed`) stays an ordinary HTTP error, and the model's fallbacks are tried.
    if (this.startPart && out.length > mark) {
      out.splice(mark, 0, this.startPart);
      this.startPart = undefined;
    }
  }

  private decode(type: string, data: JsonObject, out: ProviderStreamPart[]): void {
    switch (type) {
      case 'response.output_item.added':
        this.itemAdded(this.item(data), data, out);
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.textDelta(data, type === 'response.refusal.delta', out);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.reasoningDelta(data, out);
        return;
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(data, out);
        return;
      case 'response.function_call_arguments.done': {
        const open = this.open;
        const mine =
          open?.kind === 'call' &&
          !open.custom &&
          (open.itemId === '' || data.item_id === undefined || data.item_id === open.itemId);
        if (mine && typeof data.arguments === 'string') this.wholeArguments(open, data.arguments, out);
        return;
      }
      case 'response.output_item.done':
        this.itemDone(this.item(data), out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.finish(this.response(data, type), out);
        return;
      case 'response.failed': {
        const response = this.response(data, type);
        throw responsesFailure(response.error ?? 'the response failed', this.upstream);
      }
      default:
        this.opaqueEvent(data, out);
        return;
    }
  }

  end(): void {
    throw new GatewayError(
      'upstream',
      `The upstream ${this.upstream} stream ended before it ${this.started ? 'finished' : 'started'}.`,
      { code: 'upstream_stream_cut' },
    );
  }

  private start(type: string, data: JsonObject): void {
    this.started = true;
    const response = isJsonObject(data.response) ? data.response : undefined;
    if (type === 'response.created' && !response)
      throw malformedUpstream(this.upstream, 'a response.created event without its response');
    const start: ProviderStreamPart = {
      type: 'response-start',
      id: typeof response?.id === 'string' ? response.id : '',
      model: typeof response?.model === 'string' ? response.model : '',
      created: typeof response?.created_at === 'number' ? response.created_at : Math.floor(Date.now() / 1000),
    };
    const fields = response && unmodelledFields(response, MODELLED_RESPONSE_FIELDS);
    if (fields) start.extensions = { [RESPONSES]: fields };
    this.startPart = start;
  }

  private item(data: JsonObject): JsonObject {
    if (!isJsonObject(data.item) || typeof data.item.type !== 'string')
      throw malformedUpstream(this.upstream, `a ${String(data.type)} event without its item`);
    return data.item;
  }

  private response(data: JsonObject, type: string): JsonObject {
    if (!isJsonObject(data.response)) throw malformedUpstream(this.upstream, `a ${type} event without its response`);
    return data.response;
  }

  private itemAdded(item: JsonObject, event: JsonObject, out: ProviderStreamPart[]): void {
    this.close(out);
    const itemId = typeof item.id === 'string' ? item.id : '';
    const id = `${this.blocks++}`;
    if (item.type === 'reasoning') {
      this.open = { kind: 'reasoning', id, itemId, summaries: 0, delta: false };
      out.push({ type: 'reasoning-start', id });
    } else if (isCallItem(item)) {
      if (typeof item.call_id !== 'string' || item.call_id.length === 0)
        throw malformedUpstream(this.upstream, 'a call output item without a call_id');
      this.sawCalls = true;
      this.open = {
        kind: 'call',
        id: item.call_id,
        itemId,
        custom: item.type === 'custom_tool_call',
        sent: '',
      };
      const metadata = this.takePending();
      out.push(
        metadata
          ? { type: 'tool-call-start', id: item.call_id, name: callName(item), providerMetadata: metadata }
          : { type: 'tool-call-start', id: item.call_id, name: callName(item) },
      );
    } else if (item.type === 'message') {
      this.open = { kind: 'text', id, itemId };
      out.push({ type: 'text-start', id });
    } else {
      this.open = { kind: 'opaque', itemId, outputIndex: event.output_index };
      out.push({ type: 'opaque', extensions: { [RESPONSES]: { event: withoutSequence(event) } } });
    }
  }

  /** An event of the open opaque item (one naming it by `item_id` or `output_index`), relayed; any other skipped. */
  private opaqueEvent(data: JsonObject, out: ProviderStreamPart[]): void {
    const open = this.open;
    if (open?.kind !== 'opaque') return;
    const mine =
      (open.itemId !== '' && data.item_id === open.itemId) ||
      (data.output_index !== undefined && data.output_index === open.outputIndex);
    if (mine) out.push({ type: 'opaque', extensions: { [RESPONSES]: { event: withoutSequence(data) } } });
  }

  private takePending(): ProviderMetadata | undefined {
    const metadata = reasoningMetadata(this.pending);
    this.pending = [];
    return metadata;
  }

  private textDelta(data: JsonObject, refusal: boolean, out: ProviderStreamPart[]): void {
    if (typeof data.delta !== 'string')
      throw malformedUpstream(this.upstream, `a ${String(data.type)} event without a string delta`);
    const open = this.open;
    if (open?.kind !== 'text') return;
    if (refusal) this.refused = true;
    else this.answered = true;
    if (data.delta.length > 0) out.push({ type: 'text-delta', id: open.id, delta: data.delta });
  }

  private reasoningDelta(data: JsonObject, out: ProviderStreamPart[]): void {
    if (typeof data.delta !== 'string')
      throw malformedUpstream(this.upstream, `a ${String(data.type)} event without a string delta`);
    const open = this.open;
    if (open?.kind !== 'reasoning') return;
    const index = typeof data.summary_index === 'number' ? data.summary_index : 0;
    // Summaries are joined by a blank line, as the non-streamed answer's are.
    if (open.delta && index > open.summaries) out.push({ type: 'reasoning-delta', id: open.id, delta: '\n\n' });
    open.summaries = Math.max(open.summaries, index);
    open.delta = true;
    if (data.delta.length > 0) out.push({ type: 'reasoning-delta', id: open.id, delta: data.delta });
  }

  private argumentsDelta(data: JsonObject, out: ProviderStreamPart[]): void {
    if (typeof data.delta !== 'string')
      throw malformedUpstream(this.upstream, 'a response.function_call_arguments.delta event without a string delta');
    const open = this.open;
    if (open?.kind !== 'call' || open.custom) return;
    open.sent += data.delta;
    if (data.delta.length > 0) out.push({ type: 'tool-call-delta', id: open.id, delta: data.delta });
  }

  /**
   * A call's whole arguments, as `function_call_arguments.done` or `output_item.done` state them: what the deltas did
   * not carry goes out as one more delta. Some servers send no delta at all (LM Studio, gpt-5.3-codex-spark), or deltas
   * that stop short of the whole (litellm #25321, #27144).
   */
  private wholeArguments(open: Extract<Open, { kind: 'call' }>, args: string, out: ProviderStreamPart[]): void {
    if (args.length <= open.sent.length) return;
    if (!args.startsWith(open.sent)) {
      log('upstream %s: call %s arguments differ from its deltas; the deltas kept', this.upstream, open.id);
      return;
    }
    const rest = args.slice(open.sent.length);
    open.sent = args;
    out.push({ type: 'tool-call-delta', id: open.id, delta: rest });
  }

  private itemDone(item: JsonObject, out: ProviderStreamPart[]): void {
    const open = this.open;
    if (!open || (open.itemId !== '' && item.id !== undefined && item.id !== open.itemId)) return;
    this.open = undefined;
    if (open.kind === 'opaque') {
      this.dropped?.(item);
      out.push({ type: 'opaque', extensions: { [RESPONSES]: { item } }, item: true });
      return;
    }
    if (open.kind === 'text') {
      const first = Array.isArray(item.content) ? (item.content as unknown[]).find(isJsonObject) : undefined;
      const fields = textPartFields(first ?? {}, undefined, unmodelledFields(item, MESSAGE_ITEM_FIELDS));
      out.push(withEnd<ProviderStreamPart>({ type: 'text-end', id: open.id }, fields));
    } else if (open.kind === 'reasoning') {
      const carried = carriedItem(item);
      this.pending.push(carried);
      const metadata = reasoningMetadata([carried]);
      const end: Extract<ProviderStreamPart, { type: 'reasoning-end' }> = metadata
        ? { type: 'reasoning-end', id: open.id, providerMetadata: metadata }
        : { type: 'reasoning-end', id: open.id };
      out.push(withEnd(end, unmodelledFields(item, REASONING_ITEM_FIELDS)));
    } else {
      // A call sent whole (or a custom tool's input), or the arguments its deltas did not carry.
      this.wholeArguments(open, callArguments(item), out);
      const end = withEnd<ProviderStreamPart>(
        { type: 'tool-call-end', id: open.id },
        unmodelledFields(item, CALL_ITEM_FIELDS),
      );
      // Still no arguments: they may come only in `response.completed` (OpenRouter), so the call ends with what comes next.
      if (open.sent.length === 0 && !open.custom) this.argumentless = { call: open, end };
      else out.push(end);
    }
  }

  /** A call that ended with no arguments yet: its `response.completed` copy's, if it has any, then its end. */
  private endArgumentless(response: JsonObject | undefined, out: ProviderStreamPart[]): void {
    const pending = this.argumentless;
    if (!pending) return;
    this.argumentless = undefined;
    const output = response && Array.isArray(response.output) ? (response.output as unknown[]) : [];
    const item = output.find((entry) => isJsonObject(entry) && entry.call_id === pending.call.id);
    if (isJsonObject(item)) this.wholeArguments(pending.call, callArguments(item), out);
    out.push(pending.end);
  }

  /** Ends the open block when the upstream moved on without its `output_item.done`. */
  private close(out: ProviderStreamPart[], response?: JsonObject): void {
    this.endArgumentless(response, out);
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.kind === 'call' && open.sent.length === 0 && !open.custom) {
      this.argumentless = { call: open, end: { type: 'tool-call-end', id: open.id } };
      this.endArgumentless(response, out);
      return;
    }
    if (open.kind === 'text') out.push({ type: 'text-end', id: open.id });
    else if (open.kind === 'reasoning') out.push({ type: 'reasoning-end', id: open.id });
    else if (open.kind === 'call') out.push({ type: 'tool-call-end', id: open.id });
  }

  private finish(response: JsonObject, out: ProviderStreamPart[]): void {
    this.close(out, response);
    const finishReason =
      this.refused && !this.answered && response.status !== 'incomplete'
        ? { unified: 'content-filter' as const, raw: 'refusal' }
        : responsesFinishReason(response, this.sawCalls);
    const finish: ProviderFinishPart = { type: 'finish', finishReason };
    const usage = reportedUsage(response.usage);
    if (usage) finish.usage = usage;
    const fields = unmodelledFields(response, MODELLED_RESPONSE_FIELDS);
    if (fields) finish.extensions = { [RESPONSES]: fields };
    out.push(finish);
    this.done = true;
  }
}

/** An upstream event as relayed: without its `sequence_number` (the caller's stream numbers its own). */
function withoutSequence(event: JsonObject): JsonObject {
  const { sequence_number: _sequence, ...rest } = event;
  return rest;
}

/** An end part with the item's unmodelled keys as its extension, when there are any. */
function withEnd<T extends ProviderStreamPart>(part: T, fields: JsonObject | undefined): T {
  if (fields) (part as { extensions?: Extensions }).extensions = { [RESPONSES]: fields };
  return part;
}
