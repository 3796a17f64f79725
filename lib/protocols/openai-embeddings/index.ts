/** The OpenAI embeddings protocol: POST /v1/embeddings (models are listed by the chat codec's OpenAI list). */
import type { EmbedRoute, ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { encodeOpenAIError } from '../shared/openai-error';
import { openAIRateLimitHeaders } from '../shared/openai-rate-limit-headers';
import { decodeEmbeddingsRequest, encodingFormatOf } from './decode-request';
import { encodeEmbeddingsResponse } from './encode-response';

const PATHS = new Set(['/v1/embeddings', '/embeddings']);

/** `POST /v1/embeddings`. */
const EMBEDDINGS: EmbedRoute = {
  operation: 'embed',
  decode: (http) => decodeEmbeddingsRequest(http.body),
  encode: (response, _request, inputTokens, call) => ({
    status: 200,
    body: encodeEmbeddingsResponse(response, encodingFormatOf(call.http.body), inputTokens),
  }),
};
const MATCH: RouteMatch = Object.freeze({ route: EMBEDDINGS, params: Object.freeze({}) });

/** Creates the embeddings codec (`openai-embeddings`); errors use the OpenAI error envelope. */
export function openAIEmbeddingsCodec(): ProtocolCodec {
  return {
    name: 'openai-embeddings',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => (PATHS.has(path) ? MATCH : undefined),
    extractKey: (request) => bearerToken(request.headers),
    encodeError: encodeOpenAIError,
    rateLimitHeaders: openAIRateLimitHeaders,
  };
}
