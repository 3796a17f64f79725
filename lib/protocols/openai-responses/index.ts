/**
 * The OpenAI Responses API: POST /v1/responses (streamed or not), POST /v1/responses/input_tokens,
 * POST /v1/responses/compact (compact.ts),
 * and the stored responses (GET / DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items);
 * the model list is the chat codec's.
 */
import { percentDecode } from '../../percent-decode';
import type {
  CountTokensRoute,
  GenerateRoute,
  ProtocolCodec,
  RouteMatch,
  StoredResponseMatch,
  StoredResponseRoutes,
} from '../types';
import { bearerToken } from '../shared/credentials';
import { COMPACT_ROUTE } from './compact';
import { withCompactionTurns } from './compaction-turn';
import { decodeResponsesRequest } from './decode-request';
import { encodeResponsesError } from './encode-error';
import { encodeResponsesResponse } from './encode-response';
import { encodeResponsesStream } from './encode-stream';
import { inputItemsPage } from './input-items';
import { previousIdOf, RESPONSES_STATE } from './state';
import { openAIRateLimitHeaders } from '../shared/openai-rate-limit-headers';

/** `POST /v1/responses` (an input ending in a `compaction_trigger` item is a compaction: compaction-turn.ts). */
const RESPONSES: GenerateRoute = withCompactionTurns({
  operation: 'generate',
  decode: (http) => decodeResponsesRequest(http.body),
  encode: (response, request, call) => ({
    status: 200,
    body: encodeResponsesResponse(response, request, previousIdOf(call.http)),
  }),
  encodeStream: (request, call) => encodeResponsesStream(request, previousIdOf(call.http)),
  state: RESPONSES_STATE,
});

/**
 * `POST /v1/responses/input_tokens`: the body of a create call, its input counted as that call would
 * run (its `item_reference` items and its `previous_response_id` conversation from the store).
 */
const INPUT_TOKENS: CountTokensRoute = {
  operation: 'count-tokens',
  decode: (http) => decodeResponsesRequest(http.body),
  encode: (inputTokens) => ({ status: 200, body: { object: 'response.input_tokens', input_tokens: inputTokens } }),
  state: RESPONSES_STATE,
};

const ROUTES: ReadonlyMap<string, RouteMatch> = new Map(
  [
    ['/v1/responses', RESPONSES],
    ['/responses', RESPONSES],
    ['/v1/responses/input_tokens', INPUT_TOKENS],
    ['/responses/input_tokens', INPUT_TOKENS],
    ['/v1/responses/compact', COMPACT_ROUTE],
    ['/responses/compact', COMPACT_ROUTE],
  ].map(([path, route]) => [
    path as string,
    Object.freeze({ route: route as GenerateRoute | CountTokensRoute, params: Object.freeze({}) }),
  ]),
);

const STORED_PATH = /^(?:\/v1)?\/responses\/([^/]+)(\/input_items)?$/;

/** `GET` / `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`. */
const STORED: StoredResponseRoutes = {
  match(path): StoredResponseMatch | undefined {
    const found = STORED_PATH.exec(path);
    if (!found) return undefined;
    return { id: percentDecode(found[1]!), resource: found[2] ? 'input-items' : 'response' };
  },
  encodeResponse: (record) => ({ status: 200, body: record.response }),
  encodeDeleted: (id) => ({ status: 200, body: { id, object: 'response', deleted: true } }),
  encodeInputItems: (record, request) => ({ status: 200, body: inputItemsPage(record.inputItems, request.query) }),
};

/** Creates the Responses codec. */
export function openAIResponsesCodec(): ProtocolCodec {
  return {
    name: 'openai-responses',
    credentialHint: 'an "Authorization: Bearer <key>" header',
    match: (path) => ROUTES.get(path),
    extractKey: (request) => bearerToken(request.headers),
    encodeError: encodeResponsesError,
    rateLimitHeaders: openAIRateLimitHeaders,
    storedResponses: STORED,
  };
}
