/** Canonical stream → Anthropic messages server-sent events, each with an `event:` line equal to its `type`. */
import createDebug from 'debug';
import type { GenerateRequest, StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import { estimateRequestTokens } from '../../tokenizer';
import { isJsonObject, type JsonObject } from '../../json';
import {
  type AnthropicOpaqueExtension,
  type AnthropicResponseExtension,
  anthropicExtension,
} from '../../wire/anthropic/extensions';
import type { CallView, StreamEncoder } from '../types';
import { anthropicErrorBody } from './encode-error';
import { thinkingSignature, toolUseId } from './encode-response';
import { JsonObjectPrefix } from './json-object-prefix';
import { type MessageHead, messageDeltaEvent, messageStartEvent, sseEvent } from './message-events';

const log = createDebug('rosetta:codec');

/** What the encoder knows beyond the parts: the request id (also the message id when no `response-start` came). */
export interface StreamEncoderContext {
  requestId: string;
  /** The model to name when no `response-start` came. */
  model: string;
  /** Input tokens for `message_start` when `response-start` carries none. */
  estimatedInputTokens: () => number;
}

/** A text or thinking block in progress; `index` is set once its `content_block_start` is sent. */
interface DeferredBlock {
  kind: 'text' | 'thinking';
  partId: string;
  index?: number;
}

/** A tool call in progress, started at once; `input` checks its arguments. */
interface ToolBlock {
  kind: 'tool_use';
  partId: string;
  input: JsonObjectPrefix;
}

/** An Anthropic upstream's block no canonical part models (a server tool's use or result), relayed as it streams. */
interface OpaqueBlock {
  kind: 'opaque';
}

type OpenBlock = DeferredBlock | ToolBlock | OpaqueBlock;

/**
 * Turns canonical parts into events, one part at a time. It keeps the protocol's promises whatever
 * the provider does: `message_start` comes first, indices are contiguous from 0, a block starts
 * before its deltas and stops before the next one starts, and one `ping` follows the first start.
 *
 * Blocks the protocol would refuse on replay are not sent: a text block that ends without text, a
 * thinking block with neither text nor signature. A thinking block starts at its first text, since
 * only its end says whether it was redacted (then it is a `redacted_thinking` block). Tool arguments
 * are forwarded as they come while they remain a prefix of one JSON object (what the SDKs parse);
 * a piece that breaks that is dropped from there on, and a call without arguments gets `{}`.
 * Other vendors' signatures ride in `<vendor>:`-tagged thinking signatures and in `tool_use` ids.
 * An Anthropic upstream's blocks that no canonical part models (its `opaque` parts) are relayed as
 * it sent them, with this stream's indices; another protocol's opaque parts are skipped.
 */
export class MessageStreamEncoder {
  private started = false;
  private nextIndex = 0;
  private pinged = false;
  private hasToolCalls = false;
  private open: OpenBlock | undefined;

  constructor(private readonly context: StreamEncoderContext) {}

  /**
   * The events for one part (possibly none). After `finish` or `error` the message is over.
   * A `tool-call-start`'s vendor signature (in its metadata) is carried in the `tool_use` id.
   */
  encode(part: StreamPart): string[] {
    const events: string[] = [];
    if (part.type === 'response-start') {
      if (!this.started)
        events.push(
          this.start({
            id: part.id,
            model: part.model,
            usage: part.usage ?? {},
            upstream: anthropicExtension<AnthropicResponseExtension>(part.extensions),
          }),
        );
      return events;
    }
    if (!this.started)
      events.push(
        this.start({ id: this.context.requestId.replace(/^req_/, ''), model: this.context.model, usage: {} }),
      );
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        this.endOpen(events);
        this.open = { kind: part.type === 'text-start' ? 'text' : 'thinking', partId: part.id };
        break;
      case 'text-delta':
        if (part.delta.length === 0) break;
        this.startDeferred(this.ensureOpen('text', part.id, events), { type: 'text', text: '', citations: [] }, events);
        events.push(this.delta({ type: 'text_delta', text: part.delta }));
        break;
      case 'reasoning-delta':
        if (part.delta.length === 0) break;
        this.startDeferred(
          this.ensureOpen('thinking', part.id, events),
          { type: 'thinking', thinking: '', signature: '' },
          events,
        );
        events.push(this.delta({ type: 'thinking_delta', thinking: part.delta }));
        break;
      case 'text-end':
        if (this.open?.kind === 'text' && this.open.partId === part.id) this.endOpen(events);
        break;
      case 'reasoning-end':
        this.endReasoning(
          this.ensureOpen('thinking', part.id, events),
          thinkingSignature(part.signature, part.providerMetadata) || undefined,
          part.redactedData,
          events,
        );
        break;
      case 'tool-call-start':
        this.endOpen(events);
        this.hasToolCalls = true;
        this.open = { kind: 'tool_use', partId: part.id, input: new JsonObjectPrefix() };
        this.blockStart({ type: 'tool_use', id: toolUseId(part, this.nextIndex), name: part.name, input: {} }, events);
        break;
      case 'tool-call-delta':
        if (this.open?.kind === 'tool_use' && this.open.partId === part.id)
          this.toolInput(this.open, part.delta, events);
        else log('tool-call-delta for %s, which is not the open tool call; dropped', part.id);
        break;
      case 'tool-call-end':
        if (this.open?.kind === 'tool_use' && this.open.partId === part.id) this.endOpen(events);
        break;
      case 'opaque':
        this.opaque(part, events);
        break;
      case 'finish':
        this.endOpen(events);
        events.push(
          messageDeltaEvent(
            part.finishReason,
            part.usage,
            this.hasToolCalls,
            anthropicExtension<AnthropicResponseExtension>(part.extensions)?.messageDelta,
          ),
          sseEvent({ type: 'message_stop' }),
        );
        break;
      case 'error':
        events.push(sseEvent(anthropicErrorBody(toGatewayError(part.error), this.context.requestId)));
        break;
    }
    return events;
  }

  /**
   * An Anthropic upstream's block no part models: its `content_block_start` and deltas as they came
   * (a text block's `citations_delta` goes on that block), its whole block (`item`) stopping it; a
   * whole block with nothing streamed before it (a replayed or collected answer) is started and stopped at once.
   */
  private opaque(part: Extract<StreamPart, { type: 'opaque' }>, events: string[]): void {
    const own = anthropicExtension<AnthropicOpaqueExtension>(part.extensions);
    if (!own) return;
    if (part.item) {
      if (!own.item) return;
      if (this.open?.kind !== 'opaque') {
        this.endOpen(events);
        this.blockStart(own.item, events);
      }
      this.blockStop(events);
      return;
    }
    const event = own.event;
    if (event?.type === 'content_block_start' && isJsonObject(event.content_block)) {
      this.endOpen(events);
      this.blockStart(event.content_block, events);
      this.open = { kind: 'opaque' };
      return;
    }
    if (event?.type !== 'content_block_delta' || !isJsonObject(event.delta) || typeof event.delta.type !== 'string') {
      log('an upstream %s event outside its block dropped', String(event?.type));
      return;
    }
    const delta = event.delta as { type: string } & JsonObject;
    const open = this.open;
    if (open?.kind === 'opaque') events.push(this.delta(delta));
    else if (open?.kind === 'text' && delta.type === 'citations_delta') {
      this.startDeferred(open, { type: 'text', text: '', citations: [] }, events);
      events.push(this.delta(delta));
    } else log('an upstream %s outside its block dropped', delta.type);
  }

  private start(head: MessageHead): string {
    this.started = true;
    return messageStartEvent(head, this.context.estimatedInputTokens);
  }

  /** The open block of this kind and id, closing whatever else is open (a provider that skipped a `*-start`). */
  private ensureOpen(kind: 'text' | 'thinking', partId: string, events: string[]): DeferredBlock {
    const open = this.open;
    if (open && open.kind === kind && open.partId === partId) return open;
    this.endOpen(events);
    const block: DeferredBlock = { kind, partId };
    this.open = block;
    return block;
  }

  private startDeferred(block: DeferredBlock, skeleton: Record<string, unknown>, events: string[]): void {
    if (block.index !== undefined) return;
    block.index = this.nextIndex;
    this.blockStart(skeleton, events);
  }

  private blockStart(contentBlock: Record<string, unknown>, events: string[]): void {
    events.push(sseEvent({ type: 'content_block_start', index: this.nextIndex++, content_block: contentBlock }));
    if (!this.pinged) events.push(sseEvent({ type: 'ping' }));
    this.pinged = true;
  }

  private delta(delta: { type: string } & Record<string, unknown>): string {
    return sseEvent({ type: 'content_block_delta', index: this.nextIndex - 1, delta });
  }

  private blockStop(events: string[]): void {
    events.push(sseEvent({ type: 'content_block_stop', index: this.nextIndex - 1 }));
    this.open = undefined;
  }

  private toolInput(block: ToolBlock, fragment: string, events: string[]): void {
    if (block.input.broken) return;
    const kept = block.input.accept(fragment);
    if (kept < fragment.length)
      log(
        'tool call %s: its arguments stop being a JSON object at %j; the rest is dropped',
        block.partId,
        fragment.slice(kept, kept + 20),
      );
    if (kept > 0) events.push(this.delta({ type: 'input_json_delta', partial_json: fragment.slice(0, kept) }));
  }

  private endReasoning(
    block: DeferredBlock,
    signature: string | undefined,
    redactedData: string | undefined,
    events: string[],
  ): void {
    if (block.index === undefined) {
      if (redactedData !== undefined) {
        this.blockStart({ type: 'redacted_thinking', data: redactedData }, events);
        this.blockStop(events);
        return;
      }
      if (!signature) {
        this.open = undefined;
        return;
      }
      this.startDeferred(block, { type: 'thinking', thinking: '', signature: '' }, events);
    } else if (redactedData !== undefined) {
      log('reasoning %s: redacted data after thinking text has no Anthropic block; dropped', block.partId);
    }
    this.stopThinking(signature ?? '', events);
  }

  /**
   * Stops a started thinking block as the API does, with a `signature_delta` first; a block whose
   * upstream minted no signature (an OpenAI-compatible reasoning model's) gets an empty one, which is
   * what the non-streamed answer's block says (`signature: ""`).
   */
  private stopThinking(signature: string, events: string[]): void {
    events.push(this.delta({ type: 'signature_delta', signature }));
    this.blockStop(events);
  }

  /**
   * Stops the open block (a thinking block with an empty signature: its own comes only with `reasoning-end`);
   * unstarted blocks vanish.
   */
  private endOpen(events: string[]): void {
    const open = this.open;
    if (!open) return;
    if (open.kind === 'tool_use') {
      if (!open.input.opened) events.push(this.delta({ type: 'input_json_delta', partial_json: '{}' }));
      else if (!open.input.complete) log('tool call %s: its arguments ended before the JSON object did', open.partId);
      this.blockStop(events);
      return;
    }
    if (open.kind === 'opaque') this.blockStop(events);
    else if (open.index === undefined) this.open = undefined;
    else if (open.kind === 'thinking') this.stopThinking('', events);
    else this.blockStop(events);
  }
}

/**
 * Encodes a stream as the Messages API does: `message_start`, each block's start, deltas and stop,
 * `message_delta` (stop reason and final usage), `message_stop`; an error part becomes an `error`
 * event that ends the stream. The `request-id` header matches non-streamed responses.
 */
export function encodeMessagesStream(request: GenerateRequest, call: CallView): StreamEncoder {
  const encoder = new MessageStreamEncoder({
    requestId: call.requestId,
    model: request.model,
    estimatedInputTokens: () => estimateRequestTokens(request),
  });
  return {
    headers: { 'request-id': call.requestId },
    encode: (part) => encoder.encode(part).join(''),
  };
}
