/** Canonical stream → streamGenerateContent: `data:` events with `alt=sse`, else a JSON array written element by element. */
import type { StreamPart } from '../../canonical';
import type { EncodeContext, EncodedStream } from '../types';
import { streamFormatOf } from './stream-format';
import { geminiStreamResponses, type GeminiStreamItem, type StreamIdentity } from './stream-responses';

/** Separator between the array's elements, as the Google API writes it. */
const ARRAY_SEPARATOR = ',\r\n';

/** Each response (or the error body) as one single-line `data:` event; no `event:` lines, no terminator. */
export async function* sseEvents(items: AsyncIterable<GeminiStreamItem>): AsyncGenerator<string> {
  for await (const item of items) yield `data: ${JSON.stringify(item)}\n\n`;
}

/** `[` + the responses (the error body, if any, last) separated by `,\r\n` + `]`, each element written as it comes. */
export async function* jsonArrayElements(items: AsyncIterable<GeminiStreamItem>): AsyncGenerator<string> {
  let separator = '[';
  for await (const item of items) {
    yield `${separator}${JSON.stringify(item)}`;
    separator = ARRAY_SEPARATOR;
  }
  yield separator === '[' ? '[]' : ']';
}

function fallbackIdentity(context: EncodeContext): StreamIdentity {
  const model = context.call?.operation === 'generate' ? context.call.request.model : '';
  return { modelVersion: model, responseId: context.requestId };
}

/** Encodes a stream in the format the request's `alt` query parameter chose (`sse` when the query is unknown). */
export function encodeGeminiStream(parts: AsyncIterable<StreamPart>, context: EncodeContext): EncodedStream {
  const items = geminiStreamResponses(parts, fallbackIdentity(context));
  if (!context.request || streamFormatOf(context.request.query) === 'sse') return { chunks: sseEvents(items) };
  return { headers: { 'content-type': 'application/json; charset=utf-8' }, chunks: jsonArrayElements(items) };
}
