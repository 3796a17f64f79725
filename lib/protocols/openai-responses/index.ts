/** The OpenAI Responses API: POST /v1/responses (streamed or not) and POST /v1/responses/input_tokens; the model list is the chat codec's. */
import type { CountTokensRoute, GenerateRoute, ProtocolCodec, RouteMatch } from '../types';
import { bearerToken } from '../shared/credentials';
import { decodeResponsesRequest } from './decode-request';
import { encodeResponsesError } from './encode-error';
import { encodeResponsesResponse } from './encode-response';
import { encodeResponsesStream } from './encode-stream';

/** `POST /v1/responses`. */
const RESPONSES: GenerateRoute = {
  operation: 'generate',
  decode: (http, _params, warn) => decodeResponsesRequest(http.body, warn),
  encode: (response, request) => ({ status: 200, body: encodeResponsesResponse(response, request) }),
  encodeStream: encodeResponsesStream,
};

/** `POST /v1/responses/input_tokens`: the body of a create call, its input counted. */
const INPUT_TOKENS: CountTokensRoute = {
  operation: 'count-tokens',
  decode: (http) => decodeResponsesRequest(http.body),
  encode: (inputTokens) => ({ status: 200, body: { object: 'response.input_tokens', input_tokens: inputTokens } }),
};

const ROUTES: ReadonlyMap<string, RouteMatch> = new Map([
  ['/v1/responses', RESPONSES],
  ['/responses', RESPONSES],
  ['/v1/responses/input_tokens', INPUT_TOKENS],
  ['/responses/input_tokens', INPUT_TOKENS],
].map(([path, route]) => [path as string, Object.freeze({ route: route as GenerateRoute | CountTokensRoute, params: Object.freeze({}) })]));

/** Creates the Responses codec. */
export function openAIResponsesCodec(): ProtocolCodec {
  return {
    name: 'openai-responses',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => ROUTES.get(path),
    extractKey: (request) => bearerToken(request.headers),
    encodeError: encodeResponsesError,
  };
}
