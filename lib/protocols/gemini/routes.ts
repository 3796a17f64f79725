/**
 * The Gemini call routes: generateContent, streamGenerateContent and countTokens, each typed by what it decodes and
 * encodes.
 */
import type { CountTokensRoute, GenerateRoute, HttpRequestView, RouteParams } from '../types';
import { decodeGenerateContentRequest } from './decode-request';
import { encodeGenerateContentResponse } from './encode-response';
import { encodeGeminiStream } from './encode-stream';
import { streamFormatOf } from './stream-format';

/**
 * Decodes a call to `params.model`; a streaming one first checks that its `alt` framing is one we write (400
 * otherwise).
 */
function decodeGenerate(http: HttpRequestView, params: RouteParams, stream: boolean) {
  if (stream) streamFormatOf(http.query);
  return decodeGenerateContentRequest({ model: params.model!, stream }, http.body);
}

/** `:generateContent`. */
export const GENERATE_CONTENT: GenerateRoute = {
  operation: 'generate',
  decode: (http, params) => decodeGenerate(http, params, false),
  encode: (response) => ({ status: 200, body: encodeGenerateContentResponse(response) }),
  encodeStream: encodeGeminiStream,
};

/** `:streamGenerateContent` (`?alt=sse`, or a JSON array without it). */
export const STREAM_GENERATE_CONTENT: GenerateRoute = {
  ...GENERATE_CONTENT,
  decode: (http, params) => decodeGenerate(http, params, true),
};

/**
 * `:countTokens`. The body is `{contents}` (what @google/genai sends), or the REST form
 * `{generateContentRequest: {model, contents, systemInstruction, tools, …}}` that counts a whole request.
 */
export const COUNT_TOKENS: CountTokensRoute = {
  operation: 'count-tokens',
  decode: (http, params) => {
    const body = http.body;
    const inner =
      body !== null && typeof body === 'object' && 'generateContentRequest' in body
        ? (body as { generateContentRequest: unknown }).generateContentRequest
        : body;
    return decodeGenerateContentRequest({ model: params.model!, stream: false }, inner);
  },
  encode: (inputTokens) => ({ status: 200, body: { totalTokens: inputTokens } }),
};
