/** OpenAI chat-completions server-sent events → the canonical stream. */
import type { SseEvent } from '../../upstream/sse-parser';
import createDebug from 'debug';
import type { Extensions, ProviderMetadata, ProviderStreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { isJsonObject, unmodelledFields, type JsonObject } from '../../json';
import {
  chatExtensions,
  MODELLED_CHUNK_FIELDS,
  type ChatStreamStartExtension,
  type ChatTextDeltaExtension,
} from '../../wire/openai/extensions';
import { malformedUpstream, parseEventObject } from '../../upstream/malformed';
import { decodeOpenAIUsage, type OpenAIUsage } from './decode-response';
import {
  learnedField,
  mergeMetadata,
  ReasoningDetailsStream,
  reasoningText,
  toolCallMetadata,
  type ReasoningText,
} from './decode-reasoning';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { chatStreamError } from './stream-error';
import { ToolCallStream, type ToolCallDelta } from './tool-call-stream';
import type { StreamEventDecoder } from '../../upstream/sse';

const log = createDebug('rosetta:provider');

interface Chunk {
  id?: string;
  created?: number;
  model?: string;
  error?: unknown;
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: unknown;
      reasoning?: unknown;
      reasoning_details?: unknown;
      tool_calls?: Array<ToolCallDelta & { extra_content?: unknown }> | null;
    } | null;
    finish_reason?: string | null;
    logprobs?: unknown;
  }>;
  usage?: OpenAIUsage | null;
}

type TextBlock = { kind: 'text' | 'reasoning'; id: string };

function parseChunk(event: SseEvent, upstream: string): Chunk {
  return parseEventObject(event.data, upstream) as Chunk;
}

/**
 * What a chunk lacks, or undefined when it is well formed: a `choices` array (it may be empty, as in
 * the usage chunk; a chunk without one must carry `usage`), each choice an object, and each choice a
 * `delta` object unless it only brings a `finish_reason`.
 */
function chunkFault(chunk: Chunk): string | undefined {
  const choices: unknown = chunk.choices;
  if (choices === undefined || choices === null)
    return isJsonObject(chunk.usage) ? undefined : 'a stream chunk without choices';
  if (!Array.isArray(choices)) return 'a stream chunk whose choices are not an array';
  for (const choice of choices as unknown[]) {
    if (!isJsonObject(choice)) return 'a stream chunk with a choice that is not an object';
    if (!isJsonObject(choice.delta) && !(typeof choice.finish_reason === 'string' && choice.finish_reason.length > 0))
      return 'a stream chunk with a choice without a delta';
  }
  return undefined;
}

/**
 * Decodes the upstream stream, an event at a time. Text, a refusal (as text, finishing as
 * content-filter when it is the whole answer, as non-streamed), reasoning (`reasoning_content` or
 * `reasoning`, the common extensions; the field it came in is learned, as non-streamed) and tool calls (see
 * {@link ToolCallStream}) become blocks (text and reasoning that come while a call's arguments are unfinished follow
 * the call, which stays open for its later fragments); the finish part waits for the usage chunk that follows `finish_reason`, until `[DONE]`. Upstream usage
 * missing (a server ignoring `include_usage`) → a `finish` without usage, which the gateway counts.
 * A body that ends without `[DONE]` after a `finish_reason` finishes as well, and so does `[DONE]`
 * without a `finish_reason` (some servers omit one or the other). An `error` chunk throws the GatewayError it stands
 * for (see
 * {@link chatStreamError}); a malformed chunk (see {@link chunkFault}) and a stream cut before
 * `finish_reason` and `[DONE]` throw a 502.
 */
export class ChatStreamDecoder implements StreamEventDecoder {
  done = false;
  private started = false;
  private open: TextBlock | undefined;
  private blockCount = 0;
  private finishRaw: string | null | undefined;
  private refused = false;
  private answered = false;
  private usage: Usage | undefined;
  private readonly tools = new ToolCallStream();
  /** OpenRouter's `reasoning_details` so far; they go on the reasoning block's end and the first tool call's start. */
  private readonly details = new ReasoningDetailsStream();
  private firstCallStarted = false;
  /** The first reasoning delta: the field it came in is learned (see {@link reasoningMetadata}). */
  private firstReasoning: ReasoningText | undefined;
  /** Gemini thought signatures by tool-call id (Google's endpoint sends each call whole, signature included). */
  private readonly callMetadata = new Map<string, ProviderMetadata>();
  /**
   * Text and reasoning that came while a tool call's arguments were unfinished: the call stays open for the fragments
   * after them, and they follow it as blocks of their own once it ends.
   */
  private pending: Array<{ kind: TextBlock['kind']; text: string; extensions?: Extensions }> = [];
  private readonly closeText = (out: ProviderStreamPart[]): void => {
    this.flushPending(out);
    this.closeTextBlock(out);
  };

  constructor(private readonly upstream: string) {}

  accept(event: SseEvent, out: ProviderStreamPart[]): void {
    if (event.data === '[DONE]') {
      if (this.finishRaw === undefined)
        log('upstream %s: [DONE] without a finish_reason; finished as it stands', this.upstream);
      this.finish(out);
      return;
    }
    const chunk = parseChunk(event, this.upstream);
    if ((chunk.error !== undefined && chunk.error !== null) || event.event === 'error')
      throw chatStreamError(chunk.error ?? chunk, event.data, this.upstream);
    const fault = chunkFault(chunk);
    if (fault) throw malformedUpstream(this.upstream, fault);
    if (!this.started) {
      this.started = true;
      // The first chunk's stream-level fields the canonical part does not model, for a chat-completions caller.
      const fields = unmodelledFields(chunk as JsonObject, MODELLED_CHUNK_FIELDS);
      const start: ProviderStreamPart = {
        type: 'response-start',
        id: chunk.id ?? '',
        model: chunk.model ?? '',
        created: chunk.created ?? Math.floor(Date.now() / 1000),
      };
      if (fields) start.extensions = chatExtensions({ fields } satisfies ChatStreamStartExtension);
      out.push(start);
    }
    if (chunk.usage) this.usage = decodeOpenAIUsage(chunk.usage);
    const choices = chunk.choices;
    if (!choices) return;
    const choice =
      choices.length === 1 && (choices[0]!.index ?? 0) === 0
        ? choices[0]
        : choices.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice) this.decodeChoice(choice, out);
  }

  end(out: ProviderStreamPart[]): void {
    if (this.finishRaw === undefined)
      throw new GatewayError('upstream', `The upstream ${this.upstream} stream ended before it finished.`, {
        code: 'upstream_stream_cut',
      });
    this.finish(out);
  }

  private finish(out: ProviderStreamPart[]): void {
    if (!this.started)
      throw new GatewayError('upstream', `The upstream ${this.upstream} stream ended before it started.`, {
        code: 'upstream_stream_cut',
      });
    this.closeTextBlock(out);
    const from = out.length;
    this.tools.finish(out);
    this.tagCallStarts(out, from);
    this.closeText(out);
    const tools = this.tools.sawCalls;
    const finishReason =
      this.refused && !this.answered && !tools
        ? { unified: 'content-filter' as const, raw: 'refusal' }
        : mapOpenAIFinishReason(this.finishRaw, tools);
    out.push(this.usage ? { type: 'finish', usage: this.usage, finishReason } : { type: 'finish', finishReason });
    this.done = true;
  }

  private decodeChoice(choice: NonNullable<Chunk['choices']>[number], out: ProviderStreamPart[]): void {
    const delta = choice.delta ?? {};
    const reasoning = reasoningText(delta);
    if (reasoning) {
      this.firstReasoning ??= reasoning;
      this.textDelta('reasoning', reasoning.text, out);
    }
    if (delta.reasoning_details !== undefined && delta.reasoning_details !== null) this.acceptDetails(delta, out);
    // Log-probabilities (asked for with `logprobs: true`) go with the text they are for, to a chat-completions caller.
    const extensions =
      choice.logprobs !== undefined && choice.logprobs !== null
        ? chatExtensions({ logprobs: choice.logprobs } satisfies ChatTextDeltaExtension)
        : undefined;
    if (typeof delta.content === 'string' && delta.content.length > 0) {
      this.answered = true;
      this.textDelta('text', delta.content, out, extensions);
    }
    if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
      this.refused = true;
      this.textDelta('text', delta.refusal, out, extensions);
    }
    const calls = delta.tool_calls;
    if (calls) {
      const from = out.length;
      for (let position = 0; position < calls.length; position++) {
        const call = calls[position]!;
        const metadata = call.extra_content === undefined ? undefined : toolCallMetadata(call);
        if (metadata && typeof call.id === 'string') this.callMetadata.set(call.id, metadata);
        this.tools.accept(call, calls.length > 1 ? position : undefined, out, this.closeText);
      }
      this.tagCallStarts(out, from);
    }
    if (choice.finish_reason) {
      this.finishRaw = choice.finish_reason;
      this.closeTextBlock(out);
      const from = out.length;
      this.tools.finish(out);
      this.tagCallStarts(out, from);
      this.closeText(out);
    }
  }

  /**
   * OpenRouter's reasoning blocks of a delta, gathered; blocks with no readable text of their own (encrypted) open a
   * reasoning block to ride on when nothing else is open.
   */
  private acceptDetails(delta: NonNullable<NonNullable<Chunk['choices']>[number]['delta']>, out: ProviderStreamPart[]) {
    this.details.accept(delta.reasoning_details);
    if (this.details.size === 0 || this.open || this.tools.isOpen || this.firstCallStarted) return;
    this.open = { kind: 'reasoning', id: `${this.blockCount++}` };
    out.push({ type: 'reasoning-start', id: this.open.id });
  }

  /**
   * The metadata of the tool calls that started in `out` from `from` on: a call's Gemini signature, and, on the first
   * call, OpenRouter's reasoning blocks so far (a chat-completions caller sends back only the call).
   */
  private tagCallStarts(out: ProviderStreamPart[], from: number): void {
    for (let index = from; index < out.length; index++) {
      const part = out[index]!;
      if (part.type !== 'tool-call-start') continue;
      const first = !this.firstCallStarted;
      this.firstCallStarted = true;
      const metadata = mergeMetadata(
        this.callMetadata.get(part.id),
        first ? this.reasoningMetadata('call') : undefined,
      );
      if (metadata) out[index] = { ...part, providerMetadata: metadata };
    }
  }

  /**
   * What the reasoning so far carries, on its block's end (`part`) or the first tool call's start (`call`): OpenRouter's
   * blocks, else the field the reasoning came in (see `learnedField`).
   */
  private reasoningMetadata(on: 'part' | 'call'): ProviderMetadata | undefined {
    const blocks = this.details.metadata();
    return blocks ?? learnedField(this.firstReasoning, undefined, this.upstream)?.[on];
  }

  private textDelta(kind: TextBlock['kind'], text: string, out: ProviderStreamPart[], extensions?: Extensions): void {
    if (this.tools.isUnfinished) {
      this.pending.push(extensions ? { kind, text, extensions } : { kind, text });
      return;
    }
    this.tools.end(out);
    this.flushPending(out);
    let open = this.open;
    if (open?.kind !== kind) {
      this.closeTextBlock(out);
      open = { kind, id: `${this.blockCount++}` };
      this.open = open;
      out.push(kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id });
    }
    if (kind === 'reasoning') out.push({ type: 'reasoning-delta', id: open.id, delta: text });
    else
      out.push(
        extensions
          ? { type: 'text-delta', id: open.id, delta: text, extensions }
          : { type: 'text-delta', id: open.id, delta: text },
      );
  }

  /** The text and reasoning held while a call was unfinished, as blocks (the call has ended). */
  private flushPending(out: ProviderStreamPart[]): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    for (const held of pending) this.textDelta(held.kind, held.text, out, held.extensions);
  }

  private closeTextBlock(out: ProviderStreamPart[]): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.kind === 'text') {
      out.push({ type: 'text-end', id: open.id });
      return;
    }
    const metadata = this.reasoningMetadata('part');
    out.push(
      metadata
        ? { type: 'reasoning-end', id: open.id, providerMetadata: metadata }
        : { type: 'reasoning-end', id: open.id },
    );
  }
}
