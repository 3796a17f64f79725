/** The OpenAI images protocol: POST /v1/images/generations (models are listed by the chat codec's OpenAI list). */
import type { ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { encodeOpenAIError } from '../openai-chat/encode-error';
import { decodeImageRequest } from './decode-request';
import { encodeImagesResponse } from './encode-response';

const PATHS = new Set(['/v1/images/generations', '/images/generations']);
const MATCH: RouteMatch = Object.freeze({ operation: 'image', params: {} }) as RouteMatch;

/** Creates the images-generation codec (`openai-images`); errors use the OpenAI error envelope. */
export function openAIImagesCodec(): ProtocolCodec {
  return {
    name: 'openai-images',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => (PATHS.has(path) ? MATCH : undefined),
    extractKey: (request) => bearerToken(request.headers),
    decode: (_match, request) => ({ operation: 'image', request: decodeImageRequest(request.body) }),
    encodeResponse: (result, context) => {
      if (result.operation !== 'image') throw new TypeError('openai-images encodes image results only');
      const call = context.call?.operation === 'image' ? context.call.request : undefined;
      return { status: 200, body: encodeImagesResponse(result.response, call) };
    },
    encodeError: encodeOpenAIError,
  };
}
