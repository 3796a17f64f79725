/** The Gemini generateContent protocol: POST /v1beta|/v1/models/{model}:generateContent, and the Gemini model list. */
import { headerValue } from '../shared/credentials';
import type { HttpRequestView, ProtocolCodec } from '../types';
import { decodeGenerateContentRequest } from './decode-request';
import { encodeGeminiError } from './encode-error';
import { encodeGenerateContentResponse } from './encode-response';
import { matchCallPath } from './match-path';
import { geminiModelList } from './model-list';

/** The key from `x-goog-api-key` (what @google/genai sends), else from the `key` query parameter. */
export function geminiKey(request: HttpRequestView): string | undefined {
  const header = headerValue(request.headers, 'x-goog-api-key');
  if (header) return header;
  const query = request.query.get('key');
  return query ? query : undefined;
}

/** Creates the Gemini codec (name `gemini`). */
export function geminiCodec(): ProtocolCodec {
  return {
    name: 'gemini',
    credentialHint: 'an "x-goog-api-key: <key>" header or a "key" query parameter',
    match: matchCallPath,
    extractKey: geminiKey,
    decode: (match, request) => ({
      operation: 'generate',
      request: decodeGenerateContentRequest({ model: match.params.model!, stream: match.params.action === 'streamGenerateContent' }, request.body, request.headers),
    }),
    encodeResponse: (result) => {
      if (result.operation !== 'generate') throw new TypeError('gemini encodes generate results only');
      return { status: 200, body: encodeGenerateContentResponse(result.response) };
    },
    encodeError: encodeGeminiError,
    modelList: geminiModelList,
  };
}
