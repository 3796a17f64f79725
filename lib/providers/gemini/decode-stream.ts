/**
 * A streamGenerateContent `alt=sse` stream (each event a GenerateContentResponse with only the new parts) → the
 * canonical stream.
 */
import type { SseEvent } from '../../upstream/sse-parser';
import type { FinishReason, ProviderStreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { malformedUpstream, parseEventObject } from '../../upstream/malformed';
import { callIdMinter, decodeFunctionCall, decodeGeminiUsage, geminiMetadata, responseFault } from './decode-response';
import { logProvider } from './log';
import { blockedPromptFinish, mapGeminiFinishReason } from './map-finish-reason';
import { streamEventError } from './upstream-error';
import type { StreamEventDecoder } from '../../upstream/sse';
import type { GeminiPart, GeminiUsageMetadata, GenerateContentResponse } from './wire-types';
import {
  modelledKeys,
  extensionOf,
  withGeminiExtension,
  type GeminiChunkExtension,
} from '../../wire/gemini/extensions';
import type { Extensions } from '../../canonical';
import type { JsonObject } from '../../json';
import { PartialArgsWriter } from './partial-args';
import type { GeminiFunctionCall } from './wire-types';

type BlockKind = 'text' | 'reasoning';

interface OpenBlock {
  kind: BlockKind;
  id: string;
  signature?: string;
}

/** The input side of the first event's usage, for `response-start` (nothing when the event has no prompt count). */
function promptUsage(metadata: GeminiUsageMetadata | undefined): { usage?: Partial<Usage> } {
  if (metadata?.promptTokenCount === undefined) return {};
  const { inputTokens, cacheReadTokens } = decodeGeminiUsage(metadata);
  return { usage: { inputTokens, ...(cacheReadTokens ? { cacheReadTokens } : {}) } };
}

const CHUNK_KEYS = modelledKeys(['candidates', 'usageMetadata', 'modelVersion', 'responseId', 'error']);
const CANDIDATE_KEYS = modelledKeys(['content', 'finishReason', 'index']);

/**
 * A chunk's unmodelled fields, its own and its first candidate's (`safetyRatings`, `groundingMetadata`, …), as
 * `extensions.gemini`.
 */
function chunkExtension(chunk: GenerateContentResponse): Extensions | undefined {
  const fields = extensionOf(chunk as Record<string, unknown>, CHUNK_KEYS)?.fields;
  const first = chunk.candidates?.[0];
  const candidate = first ? extensionOf(first as Record<string, unknown>, CANDIDATE_KEYS)?.fields : undefined;
  if (!fields && !candidate) return undefined;
  const extension: GeminiChunkExtension = { ...(fields ? { fields } : {}), ...(candidate ? { candidate } : {}) };
  return withGeminiExtension(extension).extensions;
}

function parseEvent(data: string, upstream: string): GenerateContentResponse {
  return parseEventObject(data, upstream) as GenerateContentResponse;
}

/**
 * Decodes the stream, an event at a time. Text and thought parts become text and reasoning blocks,
 * opened and closed as the kind changes; a `thoughtSignature` rides on the end of the block its
 * part belongs to (a second signature starts a new block, so none is lost). Each `functionCall` is
 * a whole tool call: start (with its signature), one delta with the JSON arguments, end. The first
 * event's usage gives the prompt count (and cache reads) on `response-start`. A chunk's unmodelled
 * fields (`extensions.gemini`, see {@link chunkExtension}) ride on `response-start` for the first
 * chunk, else on the chunk's first text delta (a chunk without text has none to carry them). Gemini has no
 * terminal event, so the decoder is never `done`: when the body ends, `end` closes the open block
 * and appends `finish`, with the last usage (none if none came: the gateway counts it) and the
 * finish reason (the last finishReason, else a blocked prompt's). An `error` event throws its
 * status's GatewayError; a malformed chunk (see {@link responseFault}: a chunk may lack candidates
 * only with `usageMetadata` or `promptFeedback`) and a body that ends without either throw a 502.
 */
export class GenerateContentStreamDecoder implements StreamEventDecoder {
  readonly done: boolean = false;
  private started = false;
  private open: OpenBlock | undefined;
  private blockCount = 0;
  private finishRaw: string | undefined;
  private blockReason: string | undefined;
  private usage: Usage | undefined;
  private sawToolCalls = false;
  private mintId: () => string = callIdMinter(undefined);
  /** The current chunk's unmodelled fields, until its first text delta carries them. */
  private extensions: Extensions | undefined;
  /** A call Gemini is streaming in pieces (`partialArgs`), until its last piece. */
  private streamedCall: { id: string; writer: PartialArgsWriter } | undefined;

  constructor(
    private readonly upstream: string,
    private readonly fallbackModel: string,
  ) {}

  accept(event: SseEvent, out: ProviderStreamPart[]): void {
    if (event.data.trim().length === 0) return;
    const chunk = parseEvent(event.data, this.upstream);
    if (chunk.error !== undefined && chunk.error !== null)
      throw streamEventError(chunk.error, event.data, this.upstream);
    const fault = responseFault(chunk, false);
    if (fault) throw malformedUpstream(this.upstream, `a stream chunk with ${fault}`);
    const extensions = chunkExtension(chunk);
    this.extensions = undefined;
    if (!this.started) {
      this.started = true;
      this.mintId = callIdMinter(chunk.responseId);
      out.push({
        type: 'response-start',
        id: chunk.responseId ?? '',
        model: chunk.modelVersion ?? this.fallbackModel,
        created: Math.floor(Date.now() / 1000),
        ...promptUsage(chunk.usageMetadata),
        ...(extensions ? { extensions } : {}),
      });
    } else {
      this.extensions = extensions;
    }
    if (chunk.usageMetadata) this.usage = decodeGeminiUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.find((entry) => (entry.index ?? 0) === 0);
    if (!candidate) {
      if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
      return;
    }
    const parts = candidate.content?.parts;
    if (parts) for (let index = 0; index < parts.length; index++) this.part(parts[index]!, out);
    if (candidate.finishReason) {
      this.finishRaw = candidate.finishReason;
      if (this.streamedCall) this.endCall(undefined, out);
      this.close(out);
    }
  }

  end(out: ProviderStreamPart[]): void {
    let finish: FinishReason | undefined;
    if (this.finishRaw !== undefined) finish = mapGeminiFinishReason(this.finishRaw, this.sawToolCalls);
    else if (this.blockReason !== undefined) finish = blockedPromptFinish(this.blockReason);
    if (!finish)
      throw new GatewayError('upstream', `The upstream ${this.upstream} stream ended before it finished.`, {
        code: 'upstream_stream_cut',
      });
    if (this.streamedCall) this.endCall(undefined, out);
    this.close(out);
    out.push(
      this.usage
        ? { type: 'finish', usage: this.usage, finishReason: finish }
        : { type: 'finish', finishReason: finish },
    );
  }

  /** Appends the end of the open block, if any, with its signature. */
  private close(out: ProviderStreamPart[]): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const metadata = geminiMetadata(open.signature);
    out.push(
      open.kind === 'text'
        ? { type: 'text-end', id: open.id, ...metadata }
        : { type: 'reasoning-end', id: open.id, ...metadata },
    );
  }

  private textPart(kind: BlockKind, text: string, signature: string | undefined, out: ProviderStreamPart[]): void {
    if (text.length === 0 && !signature) return;
    if (this.open && (this.open.kind !== kind || (this.open.signature && signature))) this.close(out);
    let open = this.open;
    if (!open) {
      open = { kind, id: `${this.blockCount++}` };
      this.open = open;
      out.push(kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id });
    }
    if (text.length > 0 && kind === 'text') {
      const extensions = this.extensions;
      this.extensions = undefined;
      out.push(
        extensions
          ? { type: 'text-delta', id: open.id, delta: text, extensions }
          : { type: 'text-delta', id: open.id, delta: text },
      );
    } else if (text.length > 0) {
      out.push({ type: 'reasoning-delta', id: open.id, delta: text });
    }
    if (signature) open.signature = signature;
  }

  private part(raw: GeminiPart, out: ProviderStreamPart[]): void {
    if (raw.functionCall && (this.streamedCall || isPiece(raw.functionCall))) {
      this.callPiece(raw, raw.functionCall, out);
      return;
    }
    // A part of another kind ends a streamed call left open.
    if (this.streamedCall) this.endCall(undefined, out);
    if (raw.functionCall) {
      this.close(out);
      const call = decodeFunctionCall(raw.functionCall, raw.thoughtSignature, this.mintId);
      this.sawToolCalls = true;
      out.push({
        type: 'tool-call-start',
        id: call.id,
        name: call.name,
        ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}),
      });
      out.push({ type: 'tool-call-delta', id: call.id, delta: call.arguments });
      out.push({ type: 'tool-call-end', id: call.id });
    } else if (typeof raw.text === 'string') {
      this.textPart(raw.thought === true ? 'reasoning' : 'text', raw.text, raw.thoughtSignature, out);
    } else if (raw.thoughtSignature && Object.keys(raw).length === 1) {
      this.textPart(this.open?.kind ?? 'text', '', raw.thoughtSignature, out);
    } else {
      logProvider(
        'gemini: dropped a streamed part with %s (no canonical stream equivalent)',
        Object.keys(raw).join(', ') || 'no fields',
      );
    }
  }

  /**
   * One piece of a call Gemini streams in pieces: the first (with `name`) starts the tool call, each piece's
   * `partialArgs` become JSON text deltas (./partial-args.ts), and the piece without `willContinue` ends it. The piece
   * as it came rides on the first canonical part it makes (`extensions.gemini.streamedCall`), for a Gemini caller.
   */
  private callPiece(raw: GeminiPart, call: GeminiFunctionCall, out: ProviderStreamPart[]): void {
    let piece: Extensions | undefined = withGeminiExtension({ streamedCall: raw as JsonObject }).extensions;
    const take = (): { extensions?: Extensions } => {
      const extensions = piece;
      piece = undefined;
      return extensions ? { extensions } : {};
    };
    let streamed = this.streamedCall;
    if (!streamed) {
      this.close(out);
      this.sawToolCalls = true;
      streamed = { id: call.id || this.mintId(), writer: new PartialArgsWriter() };
      this.streamedCall = streamed;
      out.push({
        type: 'tool-call-start',
        id: streamed.id,
        name: call.name ?? '',
        ...geminiMetadata(raw.thoughtSignature),
        ...take(),
      });
    }
    let delta = '';
    for (const arg of call.partialArgs ?? []) delta += streamed.writer.write(arg);
    if (delta.length > 0 || (piece && call.willContinue === true))
      out.push({ type: 'tool-call-delta', id: streamed.id, delta, ...take() });
    if (call.willContinue !== true) this.endCall(call, out, take());
  }

  /** Ends the streamed call: the text that closes its arguments (or its whole `args`, when only they came), its end. */
  private endCall(
    call: GeminiFunctionCall | undefined,
    out: ProviderStreamPart[],
    piece: { extensions?: Extensions } = {},
  ): void {
    const streamed = this.streamedCall!;
    this.streamedCall = undefined;
    const rest = !streamed.writer.started && call?.args ? JSON.stringify(call.args) : streamed.writer.finish();
    if (rest.length > 0) out.push({ type: 'tool-call-delta', id: streamed.id, delta: rest });
    out.push({ type: 'tool-call-end', id: streamed.id, ...piece });
  }
}

/** Whether a `functionCall` part is a piece of a call streamed in pieces (`streamFunctionCallArguments`). */
function isPiece(call: GeminiFunctionCall): boolean {
  return call.willContinue === true || Array.isArray(call.partialArgs);
}
