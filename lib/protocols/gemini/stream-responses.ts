/** Canonical stream parts → the GenerateContentResponse objects of a Gemini stream, each holding only the new parts. */
import type { Extensions, ProviderMetadata, StreamPart, Usage } from '../../canonical';
import {
  geminiExtension,
  type GeminiChunkExtension,
  type GeminiStreamedCallExtension,
} from '../../wire/gemini/extensions';
import type { JsonObject } from '../../json';
import { toGatewayError } from '../../errors';
import { geminiErrorBody } from './encode-error';
import { encodeUsageMetadata, parseArguments, type GeminiPart } from './encode-response';
import { mapFinishReason } from './map-finish-reason';
import { thoughtSignatureOf } from './thought-signature';

/** What every response of one stream repeats. */
export interface StreamIdentity {
  modelVersion: string;
  responseId: string;
}

/** One streamed GenerateContentResponse (with a Gemini upstream's unmodelled fields, when its chunk had them). */
export interface GeminiStreamResponse extends StreamIdentity {
  candidates: Array<
    { content: { role: 'model'; parts: GeminiPart[] }; finishReason?: string; index: number } & JsonObject
  >;
  usageMetadata?: Partial<ReturnType<typeof encodeUsageMetadata>>;
  [field: string]: unknown;
}

/** What a stream yields: responses, and at most one error body (last). */
export type GeminiStreamItem = GeminiStreamResponse | ReturnType<typeof geminiErrorBody>;

/**
 * Turns canonical parts into streamed responses: one per text or reasoning delta, one complete
 * `functionCall` per tool call (at its end, with the signature its start or end carried), an empty text part carrying a
 * `thoughtSignature` (Gemini's, or another vendor's carried in it: ./thought-signature.ts) that ended a text or
 * reasoning block, and a last response with `finishReason` and the final usage
 * (its parts a single empty text, as Gemini's own last chunk often is). The first response carries
 * the prompt token count when `response-start` gave it. An `error` part becomes the Gemini error body
 * and ends the stream. `fallback` names the response when the stream does not start with `response-start`.
 * A Gemini upstream's unmodelled chunk fields (`extensions.gemini` on `response-start` and
 * `text-delta`) go on the response the part makes, the response-start's on the first response. A call a Gemini
 * upstream streamed in pieces (`partialArgs`, `willContinue`) goes as those pieces, unchanged (`streamedCall`).
 */
export class GeminiStreamResponses {
  private identity: StreamIdentity;
  private promptUsage: { promptTokenCount: number } | undefined;
  private readonly toolCalls = new Map<string, { name: string; arguments: string; metadata?: ProviderMetadata }>();
  /** The calls a Gemini upstream streamed in pieces, sent as those pieces. */
  private readonly streamedCalls = new Set<string>();
  /** The response-start's unmodelled fields, for the first response. */
  private pending: GeminiChunkExtension | undefined;

  constructor(fallback: StreamIdentity) {
    this.identity = fallback;
  }

  /** The response (or error body) one part makes, if any. */
  accept(part: StreamPart): GeminiStreamItem | undefined {
    const piece = streamedPiece(part);
    if (piece) {
      if (part.type === 'tool-call-start') this.streamedCalls.add(part.id);
      if (part.type === 'tool-call-end') this.streamedCalls.delete(part.id);
      return this.response([piece as GeminiPart]);
    }
    if ((part.type === 'tool-call-delta' || part.type === 'tool-call-end') && this.streamedCalls.has(part.id)) {
      if (part.type === 'tool-call-end') this.streamedCalls.delete(part.id);
      return undefined;
    }
    switch (part.type) {
      case 'response-start':
        this.identity = { modelVersion: part.model, responseId: part.id };
        if (part.usage?.inputTokens !== undefined) this.promptUsage = { promptTokenCount: part.usage.inputTokens };
        this.pending = geminiExtension<GeminiChunkExtension>(part);
        return undefined;
      case 'text-delta':
        return part.delta.length > 0
          ? this.withExtension(this.response([{ text: part.delta }]), part.extensions)
          : undefined;
      case 'reasoning-delta':
        return part.delta.length > 0 ? this.response([{ text: part.delta, thought: true }]) : undefined;
      case 'text-end': {
        const signature = thoughtSignatureOf(part.providerMetadata);
        return signature.thoughtSignature ? this.response([{ text: '', ...signature }]) : undefined;
      }
      case 'reasoning-end': {
        const signature = thoughtSignatureOf(part.providerMetadata);
        return signature.thoughtSignature ? this.response([{ text: '', thought: true, ...signature }]) : undefined;
      }
      case 'tool-call-start':
        this.toolCalls.set(part.id, {
          name: part.name,
          arguments: '',
          ...(part.providerMetadata ? { metadata: part.providerMetadata } : {}),
        });
        return undefined;
      case 'tool-call-delta': {
        const call = this.toolCalls.get(part.id);
        if (call) call.arguments += part.delta;
        return undefined;
      }
      case 'tool-call-end': {
        const call = this.toolCalls.get(part.id);
        if (!call) return undefined;
        this.toolCalls.delete(part.id);
        const functionCall = { name: call.name, args: parseArguments(call.arguments), id: part.id };
        return this.response([{ functionCall, ...thoughtSignatureOf({ ...call.metadata, ...part.providerMetadata }) }]);
      }
      case 'finish':
        return this.response([{ text: '' }], { reason: mapFinishReason(part.finishReason), usage: part.usage });
      case 'error':
        return geminiErrorBody(toGatewayError(part.error));
      default:
        return undefined;
    }
  }

  private response(content: GeminiPart[], finish?: { reason: string; usage: Usage }): GeminiStreamResponse {
    const usageMetadata = finish ? encodeUsageMetadata(finish.usage) : this.promptUsage;
    this.promptUsage = undefined;
    const response: GeminiStreamResponse = {
      candidates: [
        { content: { role: 'model', parts: content }, ...(finish ? { finishReason: finish.reason } : {}), index: 0 },
      ],
      ...(usageMetadata ? { usageMetadata } : {}),
      ...this.identity,
    };
    const pending = this.pending;
    this.pending = undefined;
    return pending ? mergeChunkExtension(response, pending) : response;
  }

  private withExtension(response: GeminiStreamResponse, extensions: Extensions | undefined): GeminiStreamResponse {
    const extension = geminiExtension<GeminiChunkExtension>({ extensions });
    return extension ? mergeChunkExtension(response, extension) : response;
  }
}

/** The piece of a call a Gemini upstream streamed in pieces that a tool-call part came from, as it came. */
function streamedPiece(part: StreamPart): JsonObject | undefined {
  if (part.type !== 'tool-call-start' && part.type !== 'tool-call-delta' && part.type !== 'tool-call-end')
    return undefined;
  return geminiExtension<GeminiStreamedCallExtension>(part)?.streamedCall;
}

/**
 * A chunk's unmodelled fields on the response: the response's own, and the first candidate's (the codec's own keys
 * win).
 */
function mergeChunkExtension(response: GeminiStreamResponse, extension: GeminiChunkExtension): GeminiStreamResponse {
  const candidate = response.candidates[0]!;
  for (const key in extension.candidate) if (candidate[key] === undefined) candidate[key] = extension.candidate[key];
  for (const key in extension.fields) if (response[key] === undefined) response[key] = extension.fields[key];
  return response;
}
