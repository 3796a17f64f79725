/**
 * The response store on the generate path: the stored items a call names by reference, put in its body before it is
 * decoded; the answer a call continues, found before the quota hold; and the finished answer kept.
 */
import { randomUUID } from 'node:crypto';
import type { GenerateRequest, GenerateResponse, StreamPart } from '../canonical';
import { GatewayError } from '../errors';
import type { CallView, ConversationState, GenerateRoute, RouteState, StreamEncoder } from '../protocols/types';
import { PartCollector } from '../stream/collect';
import type {
  MaybePromise,
  Principal,
  ResponseStore,
  StoredResponse,
  StoredThread,
  ThreadStore,
} from '../stores/types';
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
  route: { readonly state?: Pick<ConversationState, 'itemReferences' | 'withItems'> },
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

/** What keeps a route's records: the gateway's response store or thread store, as its state names it. */
export interface KeptRecords<R> {
  put(owner: string, id: string, record: R): MaybePromise<void>;
  get(owner: string, id: string): MaybePromise<R | undefined>;
  delete?(owner: string, id: string): MaybePromise<boolean>;
}

/** The store that keeps `state`'s records, and the state typed for it. */
export type StateWithStore =
  | { state: ConversationState<StoredResponse>; store: KeptRecords<StoredResponse> | undefined }
  | { state: ConversationState<StoredThread>; store: KeptRecords<StoredThread> | undefined };

/** The route's state with the store of the gateway's that keeps its records. */
export function stateStore(
  stores: { responseStore: ResponseStore | undefined; threadStore: ThreadStore | undefined },
  state: RouteState,
): StateWithStore {
  return state.store === 'threads' ? { state, store: stores.threadStore } : { state, store: stores.responseStore };
}

/** A call that continues a stored answer or asks to be stored: the request as it runs, and what keeps its answer. */
export interface Continuation {
  request: GenerateRequest;
  /** Absent when the answer is not to be kept. */
  keeper?: AnswerKeeper;
}

/**
 * The request with the conversation it continues: the previous record is looked up for the caller's key (another
 * key's is not found: 404), and without a store a call that names one is refused, never a call that silently forgets
 * the history.
 */
export async function continueConversation(
  kept: StateWithStore,
  route: GenerateRoute,
  request: GenerateRequest,
  call: CallView,
  principal: Principal,
): Promise<Continuation> {
  // The state and its store were paired by stateStore: each reads and writes the records of the other's type.
  const { state, store } = kept as { state: ConversationState<unknown>; store: KeptRecords<unknown> | undefined };
  const previousId = state.previousId(request, call);
  const previous = await previousRecord(store, state, previousId, request, call, principal);
  const stored = store !== undefined && state.wantsStored(request, call);
  const prepared = state.prepare(request, previous, stored, call);
  if (!stored) return { request: prepared };
  const continued = previous && state.continuedOnce ? previousId : undefined;
  const keeper = new AnswerKeeper(store!, state, route, prepared, previous, call, principal.id, continued);
  return { request: prepared, keeper };
}

/** The record the call continues, for the caller's key; undefined when it continues none. */
async function previousRecord<R>(
  store: KeptRecords<R> | undefined,
  state: ConversationState<R>,
  previousId: string | undefined,
  request: GenerateRequest,
  call: CallView,
  principal: Principal,
): Promise<R | undefined> {
  if (!store) {
    const refusal = state.withoutStore(request, call);
    if (refusal) throw refusal;
    return undefined;
  }
  if (previousId === undefined) return undefined;
  const previous = await storeCall(() => store.get(principal.id, previousId));
  if (!previous) throw state.notFound(previousId);
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
  const previous = await previousRecord(store, state, state.previousId(request, call), request, call, principal);
  return previous ? state.prepare(request, previous, false, call) : request;
}

/**
 * Keeps one finished answer. A store that fails to keep it is logged and the answer still goes
 * out: the call is done and charged, and losing its answer would cost the caller more than a
 * later "not found".
 */
export class AnswerKeeper<R = unknown> {
  /**
   * The id the kept answer is given, in place of the upstream's: stored answers are found by id, and
   * an upstream's ids need not be unique (a mock's, a self-hosted server's, a fallback's).
   */
  readonly answerId = randomUUID().replaceAll('-', '');
  private collector: PartCollector | undefined;

  constructor(
    private readonly store: KeptRecords<R>,
    private readonly state: ConversationState<R>,
    private readonly route: GenerateRoute,
    private readonly request: GenerateRequest,
    private readonly previous: R | undefined,
    private readonly call: CallView,
    private readonly owner: string,
    /** The id of the record this answer continued, deleted once this one is kept (a record continued once). */
    private readonly continued?: string,
  ) {}

  /** Keeps a non-streamed answer; `body` is what the caller gets. */
  async keep(answer: GenerateResponse, body: unknown): Promise<void> {
    try {
      const { id, record } = this.state.record(this.request, this.previous, answer, body, this.call);
      await this.store.put(this.owner, id, record);
      if (this.continued !== undefined) await this.store.delete?.(this.owner, this.continued);
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
