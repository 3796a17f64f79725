/** The OpenAI chat-completions protocol: POST /v1/chat/completions, and the OpenAI model list. */
import type { ModelInfo, ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { decodeChatRequest } from './decode-request';
import { encodeOpenAIError } from './encode-error';
import { encodeChatResponse } from './encode-response';
import { encodeChatStream } from './encode-stream';

const PATHS = new Set(['/v1/chat/completions', '/chat/completions']);
const MATCH: RouteMatch = Object.freeze({ operation: 'generate', params: {} }) as RouteMatch;

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
    decode: (_match, request) => ({ operation: 'generate', request: decodeChatRequest(request.body) }),
    encodeResponse: (result) => {
      if (result.operation !== 'generate') throw new TypeError('openai-chat encodes generate results only');
      return { status: 200, body: encodeChatResponse(result.response) };
    },
    encodeStream: encodeChatStream,
    encodeError: encodeOpenAIError,
    modelList: {
      paths: ['/v1/models', '/models'],
      encodeList: (models) => ({ status: 200, body: { object: 'list', data: models.map(encodeModel) } }),
      encodeModel: (model) => ({ status: 200, body: encodeModel(model) }),
    },
  };
}
