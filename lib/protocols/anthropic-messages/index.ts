/** The Anthropic messages protocol: POST /v1/messages (also `?beta=true`), and the Anthropic model list. */
import { bearerToken, headerValue } from '../shared/credentials';
import type { CountTokensRoute, GenerateRoute, HttpRequestView, ProtocolCodec, RouteMatch } from '../types';
import { ANTHROPIC_MESSAGES, decodeMessagesRequest } from './decode-request';
import { encodeAnthropicError } from './encode-error';
import { encodeMessagesResponse } from './encode-response';
import { encodeMessagesStream } from './encode-stream';
import { encodeAnthropicModelOrThrow, encodeAnthropicModelPage, messageModels } from './model-list';
import { anthropicRateLimitHeaders } from './rate-limit-headers';
import { THREAD_STATE } from './thread';

/** A count_tokens body is a messages body without `max_tokens` (and without `stream`). */
function decodeCountTokens(body: unknown, headers: Record<string, string | string[] | undefined>) {
  const withCap =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { max_tokens: 1, ...body, stream: false }
      : body;
  const { maxOutputTokens: _unused, ...request } = decodeMessagesRequest(withCap, headers);
  return request;
}

/** `POST /v1/messages`. The `request-id` header matches the streamed answers'. */
const MESSAGES: GenerateRoute = {
  operation: 'generate',
  decode: (http) => decodeMessagesRequest(http.body, http.headers),
  encode: (response, _request, call) => ({
    status: 200,
    headers: { 'request-id': call.requestId },
    body: encodeMessagesResponse(response),
  }),
  encodeStream: encodeMessagesStream,
  state: THREAD_STATE,
};

/** `POST /v1/messages/count_tokens`. */
const COUNT_TOKENS: CountTokensRoute = {
  operation: 'count-tokens',
  decode: (http) => decodeCountTokens(http.body, http.headers),
  encode: (inputTokens, _request, call) => ({
    status: 200,
    headers: { 'request-id': call.requestId },
    body: { input_tokens: inputTokens },
  }),
};

const ROUTES: ReadonlyMap<string, RouteMatch> = new Map<string, RouteMatch>([
  ['/v1/messages', Object.freeze({ route: MESSAGES, params: Object.freeze({}) })],
  ['/v1/messages/count_tokens', Object.freeze({ route: COUNT_TOKENS, params: Object.freeze({}) })],
]);

/**
 * The caller's key: `x-api-key`, else `Authorization: Bearer` (sent by SDK 1.x and by Claude Code with an auth token).
 */
export function anthropicKey(request: HttpRequestView): string | undefined {
  return headerValue(request.headers, 'x-api-key') ?? bearerToken(request.headers);
}

/** Whether a model-list request is an Anthropic client's: it carries `anthropic-version` and no Gemini key header. */
export function claimsModelList(request: HttpRequestView): boolean {
  return request.headers['anthropic-version'] !== undefined && request.headers['x-goog-api-key'] === undefined;
}

/**
 * Creates the Anthropic messages codec. Any `anthropic-version` (or none) is accepted; the
 * `anthropic-beta` values go into the request's extension (`betas`), for an Anthropic upstream.
 */
export function anthropicMessagesCodec(): ProtocolCodec {
  return {
    name: ANTHROPIC_MESSAGES,
    credentialHint: 'an "x-api-key: <key>" header (or "Authorization: Bearer <key>")',
    match: (path) => ROUTES.get(path),
    extractKey: anthropicKey,
    encodeError: (error, context) => encodeAnthropicError(error, context.requestId),
    rateLimitHeaders: anthropicRateLimitHeaders,
    modelList: {
      paths: ['/v1/models'],
      claims: claimsModelList,
      encodeList: (models, request) => ({
        status: 200,
        body: encodeAnthropicModelPage(messageModels(models), request.query),
      }),
      encodeModel: (model) => ({ status: 200, body: encodeAnthropicModelOrThrow(model) }),
    },
  };
}
