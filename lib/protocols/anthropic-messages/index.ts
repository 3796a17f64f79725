/** The Anthropic messages protocol: POST /v1/messages (also `?beta=true`), and the Anthropic model list. */
import { bearerToken, headerValue } from '../shared/credentials';
import type { HttpRequestView, ProtocolCodec, RouteMatch } from '../types';
import { ANTHROPIC_MESSAGES, decodeMessagesRequest } from './decode-request';
import { encodeAnthropicError } from './encode-error';
import { encodeMessagesResponse } from './encode-response';
import { encodeMessagesStream } from './encode-stream';
import { encodeAnthropicModelOrThrow, encodeAnthropicModelPage, messageModels } from './model-list';

const PATH = '/v1/messages';
const MATCH: RouteMatch = Object.freeze({ operation: 'generate', params: {} }) as RouteMatch;

/** The caller's key: `x-api-key`, else `Authorization: Bearer` (sent by SDK 1.x and by Claude Code with an auth token). */
export function anthropicKey(request: HttpRequestView): string | undefined {
  return headerValue(request.headers, 'x-api-key') ?? bearerToken(request.headers);
}

/** Whether a model-list request is an Anthropic client's: it carries `anthropic-version` and no Gemini key header. */
export function claimsModelList(request: HttpRequestView): boolean {
  return request.headers['anthropic-version'] !== undefined && request.headers['x-goog-api-key'] === undefined;
}

/**
 * Creates the Anthropic messages codec. Any `anthropic-version` (or none) is accepted;
 * `anthropic-beta` headers are ignored and stay in `origin.headers`.
 */
export function anthropicMessagesCodec(): ProtocolCodec {
  return {
    name: ANTHROPIC_MESSAGES,
    credentialHint: 'an "x-api-key: <key>" header (or "Authorization: Bearer <key>")',
    match: (path) => (path === PATH ? MATCH : undefined),
    extractKey: anthropicKey,
    decode: (_match, request) => ({ operation: 'generate', request: decodeMessagesRequest(request.body, request.headers) }),
    encodeResponse: (result, context) => {
      if (result.operation !== 'generate') throw new TypeError('anthropic-messages encodes generate results only');
      return { status: 200, headers: { 'request-id': context.requestId }, body: encodeMessagesResponse(result.response) };
    },
    encodeStream: encodeMessagesStream,
    encodeError: (error, context) => encodeAnthropicError(error, context.requestId),
    modelList: {
      paths: ['/v1/models'],
      claims: claimsModelList,
      encodeList: (models, request) => ({ status: 200, body: encodeAnthropicModelPage(messageModels(models), request.query) }),
      encodeModel: (model) => ({ status: 200, body: encodeAnthropicModelOrThrow(model) }),
    },
  };
}
