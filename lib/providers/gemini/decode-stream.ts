/** A streamGenerateContent `alt=sse` stream (each event a GenerateContentResponse with only the new parts) → the canonical stream. */
import type { EventSourceMessage } from 'eventsource-parser';
import type { FinishReason, StreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { callIdMinter, decodeFunctionCall, decodeGeminiUsage, geminiMetadata } from './decode-response';
import { logProvider } from './log';
import { blockedPromptFinish, mapGeminiFinishReason } from './map-finish-reason';
import { streamEventError } from './upstream-error';
import type { GeminiPart, GeminiUsageMetadata, GenerateContentResponse } from './wire-types';

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

function parseEvent(data: string, upstream: string): GenerateContentResponse {
  try {
    return JSON.parse(data) as GenerateContentResponse;
  } catch (error) {
    throw new GatewayError('upstream', `The upstream ${upstream} sent a stream event that is not valid JSON.`, { cause: error, code: 'upstream_malformed' });
  }
}

/**
 * Decodes the stream. Text and thought parts become text and reasoning blocks, opened and closed
 * as the kind changes; a `thoughtSignature` rides on the end of the block its part belongs to (a
 * second signature starts a new block, so none is lost). Each `functionCall` is a whole tool call:
 * start, one delta with the JSON arguments, end (with its signature). The first event's usage gives
 * the prompt count (and cache reads) on `response-start`; `finish` carries the last usage (or `estimate` if none came)
 * and the finish reason decided at the end. An `error` event throws its status's GatewayError; a
 * stream that ends without a finishReason throws a 502.
 */
export async function* decodeGenerateContentStream(
  events: AsyncIterable<EventSourceMessage>,
  upstream: string,
  fallbackModel: string,
  estimate: (produced: string) => Usage,
): AsyncGenerator<StreamPart> {
  let started = false;
  let open: OpenBlock | undefined;
  let blockCount = 0;
  let finish: FinishReason | undefined;
  let finishRaw: string | undefined;
  let blockReason: string | undefined;
  let usage: Usage | undefined;
  let sawToolCalls = false;
  let produced = '';
  let mintId: () => string = callIdMinter(undefined);

  function* close(): Generator<StreamPart> {
    if (!open) return;
    const metadata = geminiMetadata(open.signature);
    yield open.kind === 'text' ? { type: 'text-end', id: open.id, ...metadata } : { type: 'reasoning-end', id: open.id, ...metadata };
    open = undefined;
  }

  function* textPart(kind: BlockKind, text: string, signature: string | undefined): Generator<StreamPart> {
    if (text.length === 0 && !signature) return;
    if (open && (open.kind !== kind || (open.signature && signature))) yield* close();
    if (!open) {
      open = { kind, id: `${blockCount++}` };
      yield kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id };
    }
    if (text.length > 0) {
      produced += text;
      yield kind === 'text' ? { type: 'text-delta', id: open.id, delta: text } : { type: 'reasoning-delta', id: open.id, delta: text };
    }
    if (signature) open.signature = signature;
  }

  function* part(raw: GeminiPart): Generator<StreamPart> {
    if (raw.functionCall) {
      yield* close();
      const call = decodeFunctionCall(raw.functionCall, raw.thoughtSignature, mintId);
      sawToolCalls = true;
      produced += call.name + call.arguments;
      yield { type: 'tool-call-start', id: call.id, name: call.name };
      yield { type: 'tool-call-delta', id: call.id, delta: call.arguments };
      yield { type: 'tool-call-end', id: call.id, ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}) };
    } else if (typeof raw.text === 'string') {
      yield* textPart(raw.thought === true ? 'reasoning' : 'text', raw.text, raw.thoughtSignature);
    } else if (raw.thoughtSignature && Object.keys(raw).length === 1) {
      yield* textPart(open?.kind ?? 'text', '', raw.thoughtSignature);
    } else {
      logProvider('gemini: dropped a streamed part with %s (no canonical stream equivalent)', Object.keys(raw).join(', ') || 'no fields');
    }
  }

  for await (const event of events) {
    if (event.data.trim().length === 0) continue;
    const chunk = parseEvent(event.data, upstream);
    if (chunk.error !== undefined && chunk.error !== null) throw streamEventError(chunk.error, event.data, upstream);
    if (!started) {
      started = true;
      mintId = callIdMinter(chunk.responseId);
      yield {
        type: 'response-start',
        id: chunk.responseId ?? '',
        model: chunk.modelVersion ?? fallbackModel,
        created: Math.floor(Date.now() / 1000),
        ...promptUsage(chunk.usageMetadata),
      };
    }
    if (chunk.usageMetadata) usage = decodeGeminiUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.find((entry) => (entry.index ?? 0) === 0);
    if (!candidate) {
      if (chunk.promptFeedback?.blockReason) blockReason = chunk.promptFeedback.blockReason;
      continue;
    }
    for (const raw of candidate.content?.parts ?? []) yield* part(raw);
    if (candidate.finishReason) {
      finishRaw = candidate.finishReason;
      yield* close();
    }
  }
  if (finishRaw !== undefined) finish = mapGeminiFinishReason(finishRaw, sawToolCalls);
  else if (blockReason !== undefined) finish = blockedPromptFinish(blockReason);
  if (!finish) throw new GatewayError('upstream', `The upstream ${upstream} stream ended before it finished.`, { code: 'upstream_stream_cut' });
  yield* close();
  yield { type: 'finish', usage: usage ?? estimate(produced), finishReason: finish };
}
