/** Canonical stream parts → the GenerateContentResponse objects of a Gemini stream, each holding only the new parts. */
import type { ProviderMetadata, StreamPart, Usage } from '../../canonical';
import { toGatewayError } from '../../errors';
import { geminiErrorBody } from './encode-error';
import { encodeUsageMetadata, parseArguments, type GeminiPart } from './encode-response';
import { mapFinishReason } from './map-finish-reason';

/** What every response of one stream repeats. */
export interface StreamIdentity {
  modelVersion: string;
  responseId: string;
}

/** One streamed GenerateContentResponse. */
export interface GeminiStreamResponse extends StreamIdentity {
  candidates: Array<{ content: { role: 'model'; parts: GeminiPart[] }; finishReason?: string; index: number }>;
  usageMetadata?: Partial<ReturnType<typeof encodeUsageMetadata>>;
}

/** What a stream yields: responses, and at most one error body (last). */
export type GeminiStreamItem = GeminiStreamResponse | ReturnType<typeof geminiErrorBody>;

function thoughtSignature(metadata: ProviderMetadata | undefined): { thoughtSignature?: string } {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' ? { thoughtSignature: value } : {};
}

/**
 * Turns canonical parts into streamed responses: one per text or reasoning delta, one complete
 * `functionCall` per tool call (at its end), an empty text part carrying a Gemini `thoughtSignature`
 * that ended a text or reasoning block, and a last response with `finishReason` and the final usage
 * (its parts a single empty text, as Gemini's own last chunk often is). The first response carries
 * the prompt token count when `response-start` gave it. An `error` part becomes the Gemini error body
 * and ends the stream. `fallback` names the response when the stream does not start with `response-start`.
 */
export async function* geminiStreamResponses(parts: AsyncIterable<StreamPart>, fallback: StreamIdentity): AsyncGenerator<GeminiStreamItem> {
  let identity = fallback;
  let promptUsage: { promptTokenCount: number } | undefined;
  const toolCalls = new Map<string, { name: string; arguments: string }>();
  const response = (content: GeminiPart[], finish?: { reason: string; usage: Usage }): GeminiStreamResponse => {
    const usageMetadata = finish ? encodeUsageMetadata(finish.usage) : promptUsage;
    promptUsage = undefined;
    return {
      candidates: [{ content: { role: 'model', parts: content }, ...(finish ? { finishReason: finish.reason } : {}), index: 0 }],
      ...(usageMetadata ? { usageMetadata } : {}),
      ...identity,
    };
  };

  for await (const part of parts) {
    switch (part.type) {
      case 'response-start':
        identity = { modelVersion: part.model, responseId: part.id };
        if (part.usage?.inputTokens !== undefined) promptUsage = { promptTokenCount: part.usage.inputTokens };
        break;
      case 'text-delta':
        if (part.delta.length > 0) yield response([{ text: part.delta }]);
        break;
      case 'reasoning-delta':
        if (part.delta.length > 0) yield response([{ text: part.delta, thought: true }]);
        break;
      case 'text-end': {
        const signature = thoughtSignature(part.providerMetadata);
        if (signature.thoughtSignature) yield response([{ text: '', ...signature }]);
        break;
      }
      case 'reasoning-end': {
        const signature = thoughtSignature(part.providerMetadata);
        if (signature.thoughtSignature) yield response([{ text: '', thought: true, ...signature }]);
        break;
      }
      case 'tool-call-start':
        toolCalls.set(part.id, { name: part.name, arguments: '' });
        break;
      case 'tool-call-delta': {
        const call = toolCalls.get(part.id);
        if (call) call.arguments += part.delta;
        break;
      }
      case 'tool-call-end': {
        const call = toolCalls.get(part.id);
        if (!call) break;
        toolCalls.delete(part.id);
        const functionCall = { name: call.name, args: parseArguments(call.arguments), id: part.id };
        yield response([{ functionCall, ...thoughtSignature(part.providerMetadata) }]);
        break;
      }
      case 'finish':
        yield response([{ text: '' }], { reason: mapFinishReason(part.finishReason), usage: part.usage });
        return;
      case 'error':
        yield geminiErrorBody(toGatewayError(part.error));
        return;
      default:
        break;
    }
  }
}
