/**
 * The Gemini protocol: POST /v1beta|/v1/models/{model}:generateContent, :streamGenerateContent, :countTokens,
 * :embedContent and :batchEmbedContents, and the Gemini model list.
 */
import { headerValue } from '../shared/credentials';
import type { HttpRequestView, ProtocolCodec } from '../types';
import { encodeGeminiError } from './encode-error';
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
    encodeError: encodeGeminiError,
    modelList: geminiModelList,
  };
}
