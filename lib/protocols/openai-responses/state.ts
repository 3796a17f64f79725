/**
 * The Responses API's response state: `previous_response_id` continues a stored answer (its
 * conversation before the call's input, without its `instructions`, as OpenAI does), an
 * `item_reference` input item stands for a stored item, and `store` (default true, as in OpenAI's
 * API) keeps the answer when the gateway has a response store.
 */
import type { GenerateRequest, GenerateResponse, Message } from '../../canonical';
import { answerMessage } from '../../canonical/answer-message';
import { isJsonObject, type JsonObject } from '../../json';
import type { StoredResponse } from '../../stores/types';
import {
  RESPONSES,
  responsesExtension,
  type ResponsesMessageExtension,
  type ResponsesRequestExtension,
} from '../../wire/openai/responses-extensions';
import { GatewayError } from '../../errors';
import type { ConversationState, HttpRequestView } from '../types';
import { idStem } from './ids';
import { ownInputItems } from './input-items';

/** The call's `previous_response_id`, when it names one. */
export function previousIdOf(http: HttpRequestView): string | undefined {
  const body = http.body;
  const id = isJsonObject(body) ? body.previous_response_id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** An `item_reference` input item with an id (one without is left to the decoder's 400). */
function isReference(item: unknown): item is { type: 'item_reference'; id: string } {
  return isJsonObject(item) && item.type === 'item_reference' && typeof item.id === 'string' && item.id.length > 0;
}

/** The ids the call's `input` names by `item_reference`. */
function itemReferences(http: HttpRequestView): string[] {
  const input = isJsonObject(http.body) ? http.body.input : undefined;
  return Array.isArray(input) ? input.filter(isReference).map((item) => item.id) : [];
}

/** The body with each `item_reference` replaced by the stored item it names, as if the caller had sent that item. */
function withItems(body: unknown, items: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (!isJsonObject(body) || !Array.isArray(body.input)) return body;
  const input = body.input.map((item) => (isReference(item) ? ((items.get(item.id) as JsonObject) ?? item) : item));
  return { ...body, input };
}

function isInstructions(message: Message): boolean {
  return responsesExtension<ResponsesMessageExtension>(message.extensions)?.instructions === true;
}

/** The request continuing `previous` (its own `instructions` first), with `store` as it will be honoured. */
function prepare(request: GenerateRequest, previous: StoredResponse | undefined, stored: boolean): GenerateRequest {
  const extension = responsesExtension<ResponsesRequestExtension>(request.extensions);
  const prepared: GenerateRequest = { ...request };
  if (extension?.store !== stored)
    prepared.extensions = { ...request.extensions, [RESPONSES]: { ...extension, store: stored } };
  if (previous) {
    const own = request.messages;
    const instructions = own[0] && isInstructions(own[0]) ? [own[0]] : [];
    prepared.messages = [
      ...instructions,
      ...previous.messages.filter((message) => !isInstructions(message)),
      ...own.slice(instructions.length),
    ];
  }
  return prepared;
}

/**
 * The record of an answer: the Response object as sent, the conversation so far, the input items listed by
 * `input_items`.
 */
function record(
  request: GenerateRequest,
  previous: StoredResponse | undefined,
  answer: GenerateResponse,
  body: unknown,
  call: { http: HttpRequestView },
): { id: string; record: StoredResponse } {
  const response = body as JsonObject;
  const id = response.id as string;
  const earlier = previous
    ? [...previous.inputItems, ...((previous.response.output as JsonObject[] | undefined) ?? [])]
    : [];
  const input = isJsonObject(call.http.body) ? call.http.body.input : undefined;
  return {
    id,
    record: {
      response,
      messages: [...request.messages, answerMessage(answer)],
      inputItems: [...earlier, ...ownInputItems(input, idStem(id))],
      createdAt: typeof response.created_at === 'number' ? response.created_at : answer.created,
    },
  };
}

/** Without a store, a call that continues a stored answer is refused: it would silently forget the history. */
function withoutStore(_request: GenerateRequest, call: { http: HttpRequestView }): GatewayError | undefined {
  if (previousIdOf(call.http) === undefined) return undefined;
  const message =
    'This gateway keeps no responses (no responseStore is configured), so previous_response_id cannot be used: send the whole conversation in input (the earlier input items, then the output items of the previous response) instead.';
  return new GatewayError('invalid_request', message, { param: 'previous_response_id' });
}

function notFound(id: string): GatewayError {
  return new GatewayError('not_found', `Previous response with id '${id}' not found.`, {
    param: 'previous_response_id',
    code: 'previous_response_not_found',
  });
}

/** The Responses route's use of the gateway's response store. */
export const RESPONSES_STATE: ConversationState & { readonly store: 'responses' } = {
  store: 'responses',
  withoutStore,
  notFound,
  previousId: (_request, call) => previousIdOf(call.http),
  wantsStored: (request) => responsesExtension<ResponsesRequestExtension>(request.extensions)?.store !== false,
  prepare,
  itemReferences,
  withItems,
  record,
};
