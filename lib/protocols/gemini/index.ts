/** The Gemini protocol: POST /v1beta|/v1/models/{model}:generateContent and :streamGenerateContent, and the Gemini model list. */
import { headerValue } from '../shared/credentials';
import type { DecodedCall, HttpRequestView, ProtocolCodec, RouteMatch } from '../types';
import { decodeGenerateContentRequest } from './decode-request';
import { encodeGeminiError } from './encode-error';
import { encodeGenerateContentResponse } from './encode-response';
import { encodeGeminiStream } from './encode-stream';
import { matchCallPath } from './match-path';
import { geminiModelList } from './model-list';
import { rememberStreamFormat, streamFormatOf } from './stream-format';

/** The key from `x-goog-api-key` (what @google/genai sends), else from the `key` query parameter. */
export function geminiKey(request: HttpRequestView): string | undefined {
  const header = headerValue(request.headers, 'x-goog-api-key');
  if (header) return header;
  const query = request.query.get('key');
  return query ? query : undefined;
}

/** Decodes a call; a streaming one also records the framing its `alt` query parameter asks for. */
function decodeCall(match: RouteMatch, request: HttpRequestView): DecodedCall {
  const stream = match.params.action === 'streamGenerateContent';
  const format = stream ? streamFormatOf(request.query) : undefined;
  const decoded = decodeGenerateContentRequest({ model: match.params.model!, stream }, request.body, request.headers);
  if (format) rememberStreamFormat(decoded, format);
  return { operation: 'generate', request: decoded };
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
      if (result.operation !== 'generate') throw new TypeError('gemini encodes generate results only');
      return { status: 200, body: encodeGenerateContentResponse(result.response) };
    },
    encodeStream: encodeGeminiStream,
    encodeError: encodeGeminiError,
    modelList: geminiModelList,
  };
}
