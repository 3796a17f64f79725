/** The OpenAI chat-completions protocol: POST /v1/chat/completions, and the OpenAI model list. */
import type { GenerateRoute, ModelInfo, ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { encodeOpenAIError } from '../shared/openai-error';
import { decodeChatRequest } from './decode-request';
import { encodeChatResponse } from './encode-response';
import { encodeChatStream } from './encode-stream';
import { openAIRateLimitHeaders } from '../shared/openai-rate-limit-headers';

const PATHS = new Set(['/v1/chat/completions', '/chat/completions']);

/** `POST /v1/chat/completions`. */
const CHAT_COMPLETIONS: GenerateRoute = {
  operation: 'generate',
  decode: (http) => decodeChatRequest(http.body),
  encode: (response) => ({ status: 200, body: encodeChatResponse(response) }),
  encodeStream: encodeChatStream,
};
const MATCH: RouteMatch = Object.freeze({ route: CHAT_COMPLETIONS, params: Object.freeze({}) });

function encodeModel(model: ModelInfo) {
  return { id: model.id, object: 'model' as const, created: model.created, owned_by: model.ownedBy };
}

/** Creates the chat-completions codec. */
export function openAIChatCodec(): ProtocolCodec {
  return {
    name: 'openai-chat',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => (PATHS.has(path) ? MATCH : undefined),
    extractKey: (request) => bearerToken(request.headers),
    encodeError: encodeOpenAIError,
    rateLimitHeaders: openAIRateLimitHeaders,
    modelList: {
      paths: ['/v1/models', '/models'],
      encodeList: (models) => ({ status: 200, body: { object: 'list', data: models.map(encodeModel) } }),
      encodeModel: (model) => ({ status: 200, body: encodeModel(model) }),
    },
  };
}
