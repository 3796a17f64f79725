/** The OpenAI images protocol: POST /v1/images/generations (models are listed by the chat codec's OpenAI list). */
import type { ImageRoute, ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { encodeOpenAIError } from '../shared/openai-error';
import { decodeImageRequest } from './decode-request';
import { encodeImagesResponse } from './encode-response';
import { openAIRateLimitHeaders } from '../shared/openai-rate-limit-headers';

const PATHS = new Set(['/v1/images/generations', '/images/generations']);

/** `POST /v1/images/generations`. */
const GENERATIONS: ImageRoute = {
  operation: 'image',
  decode: (http) => decodeImageRequest(http.body),
  encode: (response, request) => ({ status: 200, body: encodeImagesResponse(response, request) }),
};
const MATCH: RouteMatch = Object.freeze({ route: GENERATIONS, params: Object.freeze({}) });

/** Creates the images-generation codec (`openai-images`); errors use the OpenAI error envelope. */
export function openAIImagesCodec(): ProtocolCodec {
  return {
    name: 'openai-images',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => (PATHS.has(path) ? MATCH : undefined),
    extractKey: (request) => bearerToken(request.headers),
    encodeError: encodeOpenAIError,
    rateLimitHeaders: openAIRateLimitHeaders,
  };
}
