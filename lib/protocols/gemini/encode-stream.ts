/**
 * Canonical stream → streamGenerateContent: `data:` events with `alt=sse`, else a JSON array written element by
 * element.
 */
import type { StreamPart } from '../../canonical';
import type { GenerateRequest } from '../../canonical';
import type { CallView, StreamEncoder } from '../types';
import { streamFormatOf } from './stream-format';
import { GeminiStreamResponses } from './stream-responses';

/** Separator between the array's elements, as the Google API writes it. */
const ARRAY_SEPARATOR = ',\r\n';

function isLast(part: StreamPart): boolean {
  return part.type === 'finish' || part.type === 'error';
}

/** Each response (or the error body) as one single-line `data:` event; no `event:` lines, no terminator. */
function sseEncoder(responses: GeminiStreamResponses): StreamEncoder {
  return {
    encode(part) {
      const item = responses.accept(part);
      return item === undefined ? '' : `data: ${JSON.stringify(item)}\n\n`;
    },
  };
}

/**
 * `[` + the responses (the error body, if any, last) separated by `,\r\n` + `]`, each element written as it comes; the
 * last part (`finish` or `error`) always makes one, then the `]`.
 */
function jsonArrayEncoder(responses: GeminiStreamResponses): StreamEncoder {
  let separator = '[';
  return {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    encode(part) {
      const item = responses.accept(part);
      let out = '';
      if (item !== undefined) {
        out = `${separator}${JSON.stringify(item)}`;
        separator = ARRAY_SEPARATOR;
      }
      if (isLast(part)) out += ']';
      return out;
    },
  };
}

/** Encodes a stream in the format the request's `alt` query parameter chose (`sse` when the query is unknown). */
export function encodeGeminiStream(request: GenerateRequest, call: CallView): StreamEncoder {
  const responses = new GeminiStreamResponses({ modelVersion: request.model, responseId: call.requestId });
  if (streamFormatOf(call.http.query) === 'sse') return sseEncoder(responses);
  return jsonArrayEncoder(responses);
}
