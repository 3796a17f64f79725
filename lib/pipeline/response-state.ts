/**
 * The response store on the generate path: the stored items a call names by reference, put in its body before it is
 * decoded; the answer a call continues, found before the quota hold; and the finished answer kept.
 */
import { randomUUID } from 'node:crypto';
import type { GenerateRequest, GenerateResponse, StreamPart } from '../canonical';
import { GatewayError } from '../errors';
import type { CallView, ConversationState, GenerateRoute, StreamEncoder } from '../protocols/types';
import { PartCollector } from '../stream/collect';
import type { MaybePromise, Principal, ResponseStore, StoredResponse } from '../stores/types';
import { logRequest } from '../log';

/** Runs one response-store call; a store that throws is unavailable (503), as a failing quota store is. */
export async function storeCall<T>(call: () => MaybePromise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new GatewayError('unavailable', 'The response store is unavailable; try again later.', {
      cause: error,
      retryAfter: 1,
    });
  }
}

/**
 * Puts in the call's body each stored item its input names by reference (the Responses API's
 * `item_reference`), found among the caller's own stored answers (another key's is not found:
 * 404), so the codec decodes it as if the caller had sent the item. Without a store the references
 * stay, and the codec's decoder answers them with a 400 saying to send the items.
 */
export async function resolveItemReferences(
  store: ResponseStore | undefined,
  route: { readonly state?: ConversationState },
  call: CallView,
  principal: Principal,
): Promise<void> {
  const state = route.state;
  const ids = state?.itemReferences?.(call.http);
  if (!store || !ids?.length || !state?.withItems) return;
  const findItem = store.findItem?.bind(store);
  if (!findItem) {
    const message =
      "This gateway's response store cannot find items by id, so item_reference cannot be used: send the items themselves in input instead.";
    throw new GatewayError('invalid_request', message, { param: 'input' });
  }
  const distinct = [...new Set(ids)];
  const found = await Promise.all(distinct.map((id) => storeCall(() => findItem(principal.id, id))));
  const items = new Map<string, Record<string, unknown>>();
  distinct.forEach((id, index) => {
    const item = found[index];
    if (!item)
      throw new GatewayError(
        'not_found',
        `Item with id '${id}' not found. Items are kept only for responses stored with this key (store: true); send the item itself instead.`,
        { param: 'input' },
      );
    items.set(id, item);
  });
  call.http.body = state.withItems(call.http.body, items);
}

/** A call that continues a stored answer or asks to be stored: the request as it runs, and what keeps its answer. */
export interface Continuation {
  request: GenerateRequest;
  /** Absent when the answer is not to be kept. */
  keeper?: AnswerKeeper;
}

/**
 * The request with the conversation it continues: the previous answer is looked up for the
 * caller's key (another key's is not found: 404), and without a store a call that names one is a
 * 400, never a call that silently forgets the history.
 */
export async function continueConversation(
  store: ResponseStore | undefined,
  route: GenerateRoute,
  request: GenerateRequest,
  call: CallView,
  principal: Principal,
): Promise<Continuation> {
  const state = route.state!;
  const previous = await previousAnswer(store, state, request, call, principal);
  const stored = store !== undefined && state.wantsStored(request, call);
  const prepared = state.prepare(request, previous, stored);
  if (!stored) return { request: prepared };
  return { request: prepared, keeper: new AnswerKeeper(store!, route, prepared, previous, call, principal.id) };
}

/** The stored answer the call continues, for the caller's key; undefined when it continues none. */
async function previousAnswer(
  store: ResponseStore | undefined,
  state: ConversationState,
  request: GenerateRequest,
  call: CallView,
  principal: Principal,
): Promise<StoredResponse | undefined> {
  const previousId = state.previousId(request, call);
  if (previousId === undefined) return undefined;
  if (!store) {
    const message =
      'This gateway keeps no responses (no responseStore is configured), so previous_response_id cannot be used: send the whole conversation in input (the earlier input items, then the output items of the previous response) instead.';
    throw new GatewayError('invalid_request', message, { param: 'previous_response_id' });
  }
  const previous = await storeCall(() => store.get(principal.id, previousId));
  if (!previous)
    throw new GatewayError('not_found', `Previous response with id '${previousId}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  return previous;
}

/**
 * A count's request as the call it counts would run: after the conversation it continues (a stored
 * answer found for the caller's key, as for {@link continueConversation}); nothing is stored.
 */
export async function countedConversation(
  store: ResponseStore | undefined,
  state: ConversationState,
  request: GenerateRequest,
  call: CallView,
  principal: Principal,
): Promise<GenerateRequest> {
  const previous = await previousAnswer(store, state, request, call, principal);
  return previous ? state.prepare(request, previous, false) : request;
}

/**
 * Keeps one finished answer. A store that fails to keep it is logged and the answer still goes
 * out: the call is done and charged, and losing its answer would cost the caller more than a
 * later "not found".
 */
export class AnswerKeeper {
  /**
   * The id the kept answer is given, in place of the upstream's: stored answers are found by id, and
   * an upstream's ids need not be unique (a mock's, a self-hosted server's, a fallback's).
   */
  readonly answerId = randomUUID().replaceAll('-', '');
  private collector: PartCollector | undefined;

  constructor(
    private readonly store: ResponseStore,
    private readonly route: GenerateRoute,
    private readonly request: GenerateRequest,
    private readonly previous: StoredResponse | undefined,
    private readonly call: CallView,
    private readonly owner: string,
  ) {}

  /** Keeps a non-streamed answer; `body` is what the caller gets. */
  async keep(answer: GenerateResponse, body: unknown): Promise<void> {
    try {
      const { id, record } = this.route.state!.record(this.request, this.previous, answer, body, this.call);
      await this.store.put(this.owner, id, record);
    } catch (error) {
      logRequest('%s the answer could not be stored: %O', this.call.requestId, error);
    }
  }

  /** The stream's encoder, the parts it encodes also gathered into the answer {@link keepStreamed} keeps. */
  collecting(encoder: StreamEncoder): StreamEncoder {
    const collector = new PartCollector();
    this.collector = collector;
    return {
      headers: encoder.headers,
      encode: (part: StreamPart): string => {
        const named = part.type === 'response-start' ? { ...part, id: this.answerId } : part;
        if (named.type !== 'error') collector.add(named);
        return encoder.encode(named);
      },
    };
  }

  /** Keeps a streamed answer once its `finish` part is encoded, before its last event is sent. */
  async keepStreamed(): Promise<void> {
    const collector = this.collector;
    if (!collector?.finished) return;
    const collected = collector.result();
    const answer: GenerateResponse = { ...collected, usage: { inputTokens: 0, outputTokens: 0, ...collected.usage } };
    let body: unknown;
    try {
      body = this.route.encode(answer, this.request, this.call).body;
    } catch (error) {
      logRequest('%s the streamed answer could not be encoded to be stored: %O', this.call.requestId, error);
      return;
    }
    await this.keep(answer, body);
  }
}
