/** The Gemini protocol: POST /v1beta|/v1/models/{model}:generateContent and :streamGenerateContent, and the Gemini model list. */
import { headerValue } from '../shared/credentials';
import type { DecodedCall, HttpRequestView, ProtocolCodec, RouteMatch } from '../types';
import { decodeGenerateContentRequest } from './decode-request';
import { encodeGeminiError } from './encode-error';
import { encodeGenerateContentResponse } from './encode-response';
import { encodeGeminiStream } from './encode-stream';
import { matchCallPath } from './match-path';
import { geminiModelList } from './model-list';
import { streamFormatOf } from './stream-format';

/** The key from `x-goog-api-key` (what @google/genai sends), else from the `key` query parameter. */
export function geminiKey(request: HttpRequestView): string | undefined {
  const header = headerValue(request.headers, 'x-goog-api-key');
  if (header) return header;
  const query = request.query.get('key');
  return query ? query : undefined;
}

/** Decodes a call; a streaming one first checks that its `alt` framing is one we write (400 otherwise). */
function decodeCall(match: RouteMatch, request: HttpRequestView): DecodedCall {
  if (match.operation === 'count-tokens') return { operation: 'count-tokens', request: decodeCountTokensRequest(match.params.model!, request.body) };
  const stream = match.params.action === 'streamGenerateContent';
  if (stream) streamFormatOf(request.query);
  return { operation: 'generate', request: decodeGenerateContentRequest({ model: match.params.model!, stream }, request.body) };
}

/**
 * A countTokens body: `{contents}` (what @google/genai sends), or the REST form
 * `{generateContentRequest: {model, contents, systemInstruction, tools, …}}` that counts a whole request.
 */
function decodeCountTokensRequest(model: string, body: unknown) {
  const inner = body !== null && typeof body === 'object' && 'generateContentRequest' in body ? (body as { generateContentRequest: unknown }).generateContentRequest : body;
  return decodeGenerateContentRequest({ model, stream: false }, inner);
}

/** Creates the Gemini codec (name `gemini`). */
export function geminiCodec(): ProtocolCodec {
  return {
    name: 'gemini',
    credentialHint: 'an "x-goog-api-key: <key>" header or a "key" query parameter',
    match: matchCallPath,
    extractKey: geminiKey,
    decode: decodeCall,
    encodeResponse: (result) => {
      if (result.operation === 'count-tokens') return { status: 200, body: { totalTokens: result.inputTokens } };
      if (result.operation !== 'generate') throw new TypeError('gemini encodes generate results only');
      return { status: 200, body: encodeGenerateContentResponse(result.response) };
    },
    encodeStream: encodeGeminiStream,
    encodeError: encodeGeminiError,
    modelList: geminiModelList,
  };
}
