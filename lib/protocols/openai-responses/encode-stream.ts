/**
 * Canonical stream → Responses server-sent events: `event:` lines, a `sequence_number` from 0,
 * `response.created` / `response.in_progress` with the whole (in-progress) object, each output
 * item's added … done events, and `response.completed` / `response.incomplete` / `response.failed`.
 */
import type { Extensions, GenerateRequest, StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import type { JsonObject } from '../../json';
import { responsesExtension, type ResponsesOpaqueExtension } from '../../wire/openai/responses-extensions';
import { log } from './log';
import type { StreamEncoder } from '../types';
import { echoSettings, includesEncryptedReasoning } from './echo';
import {
  callItem,
  callPrefix,
  callShape,
  encodeUsage,
  messageFields,
  outputText,
  reasoningItem,
} from './encode-output';
import { finishStatus, responseObject, type ResponseState, startingState } from './encode-response';
import { idStem, itemId, responseId } from './ids';
import { closeItem, type Emit, failureCode, type OpenItem } from './stream-items';

/** Encodes one stream; the items already done are kept for the final response object. */
export class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private readonly settings: JsonObject;
  private readonly includeEncrypted: boolean;
  private state: ResponseState = startingState();
  private stem = '0';
  /** The upstream response's own fields, as `response-start` gave them. */
  private fields: JsonObject | undefined;
  private open: OpenItem | undefined;
  private sawToolCall = false;
  /** The reasoning parts as ended, to add their `encrypted_content` to the final object when a tool call follows. */
  private readonly reasoning: Array<{ index: number; part: Parameters<typeof reasoningItem>[0] }> = [];

  constructor(
    private readonly request: GenerateRequest | undefined,
    previousId?: string,
  ) {
    this.settings = echoSettings(request, previousId);
    this.includeEncrypted = includesEncryptedReasoning(request);
  }

  private readonly emit: Emit = (type, payload) => this.event(type, payload);

  private event(type: string, payload: JsonObject): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...payload })}\n\n`;
  }

  private snapshot(): JsonObject {
    return responseObject(this.state, this.settings);
  }

  private nextIndex(): number {
    return this.state.output.length + (this.open ? 1 : 0);
  }

  /**
   * Ends the open item, if any: its closing events, and the item kept for the final object (`fields`: a
   * message's own keys from upstream).
   */
  private close(status = 'completed', fields?: JsonObject): string {
    const open = this.open;
    if (!open) return '';
    if (open.kind === 'reasoning') return this.reasoningEnd({ type: 'reasoning-end', id: '' });
    this.open = undefined;
    const { item, text } = closeItem(open, status, fields, this.emit);
    this.state.output.push(item);
    return text + this.event('response.output_item.done', { output_index: open.index, item });
  }

  private startItem(open: OpenItem, item: JsonObject): string {
    this.open = open;
    return this.event('response.output_item.added', { output_index: open.index, item });
  }

  private textStart(): string {
    let text = '';
    if (this.open?.kind !== 'message') {
      text += this.close();
      const index = this.nextIndex();
      const id = itemId('msg', this.stem, index);
      text += this.startItem(
        { kind: 'message', index, id, parts: [], text: '' },
        { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] },
      );
    }
    const open = this.open as Extract<OpenItem, { kind: 'message' }>;
    open.text = '';
    return (
      text +
      this.event('response.content_part.added', {
        item_id: open.id,
        output_index: open.index,
        content_index: open.parts.length,
        part: outputText(''),
      })
    );
  }

  /** Ends a text part; one that carries its upstream message's own keys ends that message too. */
  private textEnd(extensions: Extensions | undefined): string {
    const open = this.open;
    if (open?.kind !== 'message') return '';
    const at = { item_id: open.id, output_index: open.index, content_index: open.parts.length };
    const part = outputText(open.text, extensions);
    open.parts.push(part);
    const text =
      this.event('response.output_text.done', { ...at, text: open.text, logprobs: part.logprobs ?? [] }) +
      this.event('response.content_part.done', { ...at, part });
    const fields = messageFields(extensions);
    return fields ? text + this.close('completed', fields) : text;
  }

  /**
   * A piece of an upstream item no canonical part models (a built-in tool's): its `output_item.added`
   * opens it at the next output index, its own events are relayed under that index, the item whole
   * (`item: true`) ends it.
   */
  private opaque(part: Extract<StreamPart, { type: 'opaque' }>): string {
    const own = responsesExtension<ResponsesOpaqueExtension>(part.extensions);
    if (!own) return '';
    const event = own.event;
    if (part.item && own.item) {
      let text = '';
      if (this.open?.kind !== 'opaque') text += this.openOpaque(own.item);
      (this.open as Extract<OpenItem, { kind: 'opaque' }>).item = own.item;
      return text + this.close();
    }
    if (!event || typeof event.type !== 'string') return '';
    if (event.type === 'response.output_item.added') {
      const item = event.item as JsonObject | undefined;
      return item ? this.openOpaque(item) : '';
    }
    const open = this.open;
    if (open?.kind !== 'opaque') {
      log('an upstream %s event outside its item dropped', event.type);
      return '';
    }
    const { type, ...payload } = event;
    return this.event(type, { ...payload, output_index: open.index });
  }

  private openOpaque(item: JsonObject): string {
    const text = this.close();
    return text + this.startItem({ kind: 'opaque', index: this.nextIndex(), item }, item);
  }

  private reasoningDelta(delta: string): string {
    const open = this.open;
    if (open?.kind !== 'reasoning') return '';
    let text = '';
    if (!open.summaryOpen) {
      open.summaryOpen = true;
      text += this.event('response.reasoning_summary_part.added', {
        item_id: open.id,
        output_index: open.index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
    open.text += delta;
    return (
      text +
      this.event('response.reasoning_summary_text.delta', {
        item_id: open.id,
        output_index: open.index,
        summary_index: 0,
        delta,
      })
    );
  }

  private reasoningEnd(part: Extract<StreamPart, { type: 'reasoning-end' }>): string {
    const open = this.open;
    if (open?.kind !== 'reasoning') return '';
    this.open = undefined;
    let text = '';
    if (open.summaryOpen) {
      const at = { item_id: open.id, output_index: open.index, summary_index: 0 };
      text += this.event('response.reasoning_summary_text.done', { ...at, text: open.text });
      text += this.event('response.reasoning_summary_part.done', {
        ...at,
        part: { type: 'summary_text', text: open.text },
      });
    }
    const ended = {
      text: open.text,
      signature: part.signature,
      redactedData: part.redactedData,
      providerMetadata: part.providerMetadata,
      extensions: part.extensions,
    };
    this.reasoning.push({ index: open.index, part: ended });
    const item = reasoningItem(ended, open.id, this.includeEncrypted);
    this.state.output.push(item);
    return text + this.event('response.output_item.done', { output_index: open.index, item });
  }

  private callStart(part: Extract<StreamPart, { type: 'tool-call-start' }>): string {
    const text = this.close();
    this.sawToolCall = true;
    const index = this.nextIndex();
    const shape = callShape(this.request, part.name);
    const id = itemId(callPrefix(shape), this.stem, index);
    const open: OpenItem = {
      kind: 'call',
      index,
      id,
      callId: part.id,
      shape,
      args: '',
      ...(part.providerMetadata ? { metadata: part.providerMetadata } : {}),
    };
    const item = callItem(
      { id: part.id, arguments: '', providerMetadata: part.providerMetadata },
      shape,
      id,
      'in_progress',
    );
    return text + this.startItem(open, item);
  }

  private callDelta(delta: string): string {
    const open = this.open;
    if (open?.kind !== 'call') return '';
    open.args += delta;
    // A custom tool's input is the string inside `{"input": …}`: it is sent whole when the call ends.
    return open.shape.custom
      ? ''
      : this.event('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta });
  }

  /** The final object: reasoning items carry their signatures when a tool call followed (see `wantsEncrypted`). */
  private finalOutput(): JsonObject[] {
    if (this.includeEncrypted || !this.sawToolCall) return this.state.output;
    const output = [...this.state.output];
    for (const { index, part } of this.reasoning) {
      const position = output.findIndex((item) => item.id === itemId('rs', this.stem, index));
      if (position >= 0) output[position] = reasoningItem(part, output[position]!.id as string, true);
    }
    return output;
  }

  encode(part: StreamPart): string {
    switch (part.type) {
      case 'response-start':
        this.state = {
          id: responseId(part.id),
          model: part.model,
          createdAt: part.created,
          status: 'in_progress',
          output: [],
          usage: null,
        };
        this.stem = idStem(part.id);
        this.fields = responsesExtension(part.extensions);
        if (this.fields) this.state.fields = this.fields;
        return (
          this.event('response.created', { response: this.snapshot() }) +
          this.event('response.in_progress', { response: this.snapshot() })
        );
      case 'text-start':
        return this.textStart();
      case 'text-delta': {
        const open = this.open;
        if (open?.kind !== 'message') return '';
        if (typeof part.delta !== 'string') throw new TypeError(`a stream delta is ${typeof part.delta}, not a string`);
        open.text += part.delta;
        return this.event('response.output_text.delta', {
          item_id: open.id,
          output_index: open.index,
          content_index: open.parts.length,
          delta: part.delta,
          logprobs: [],
        });
      }
      case 'text-end':
        return this.textEnd(part.extensions);
      case 'reasoning-start': {
        const text = this.close();
        const index = this.nextIndex();
        const id = itemId('rs', this.stem, index);
        return (
          text +
          this.startItem(
            { kind: 'reasoning', index, id, text: '', summaryOpen: false },
            { type: 'reasoning', id, summary: [] },
          )
        );
      }
      case 'reasoning-delta':
        return this.reasoningDelta(part.delta);
      case 'reasoning-end':
        return this.reasoningEnd(part);
      case 'tool-call-start':
        return this.callStart(part);
      case 'tool-call-delta':
        return this.callDelta(part.delta);
      case 'tool-call-end':
        if (this.open?.kind === 'call') {
          if (part.providerMetadata) this.open.metadata = { ...this.open.metadata, ...part.providerMetadata };
          if (part.extensions) this.open.extensions = part.extensions;
        }
        return this.close();
      case 'opaque':
        return this.opaque(part);
      case 'finish': {
        const finish = finishStatus(part.finishReason);
        const text = this.close(finish.status);
        this.state.output = this.finalOutput();
        this.state.status = finish.status;
        this.state.usage = encodeUsage(part.usage);
        this.state.incompleteDetails = finish.incomplete_details;
        const fields = responsesExtension(part.extensions);
        if (fields) this.state.fields = { ...this.fields, ...fields };
        if (finish.status === 'completed')
          this.state.completedAt = Math.max(this.state.createdAt, Math.floor(Date.now() / 1000));
        return (
          text +
          this.event(finish.status === 'completed' ? 'response.completed' : 'response.incomplete', {
            response: this.snapshot(),
          })
        );
      }
      case 'error': {
        const error = toGatewayError(part.error);
        this.open = undefined;
        this.state.status = 'failed';
        this.state.error = { code: failureCode(error), message: error.message };
        return this.event('response.failed', { response: this.snapshot() });
      }
      default:
        return '';
    }
  }
}

/** Starts a Responses stream for this call; `previousId` is the call's `previous_response_id`. */
export function encodeResponsesStream(request: GenerateRequest, previousId?: string): StreamEncoder {
  return new ResponsesStreamEncoder(request, previousId);
}
