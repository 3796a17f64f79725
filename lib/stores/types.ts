/** The key-store, quota-store and response-store contracts a host app implements (or takes the memory defaults of). */
import type { Message } from '../canonical';

/** Who a key belongs to. Returned by a key store; never contains the key itself. */
export interface Principal {
  /** A stable, non-secret id for the key (used in logs and by the quota store). */
  id: string;
  /**
   * Model ids (public ids or aliases) this key may use; absent means every model. An entry ending in
   * `/*` allows every id with that prefix (e.g. `openai/*` for `provider/model` ids).
   */
  allowedModels?: readonly string[];
  /** Anything the host wants to carry along (plan, user id…). Never logged. */
  metadata?: Record<string, unknown>;
}

/** A value or a promise of it: store methods may be synchronous or asynchronous; the gateway always awaits. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Authenticates callers. `authenticate` receives the presented secret and returns the principal,
 * or `undefined` when the key is unknown. Implementations must compare secrets in constant time.
 */
export interface KeyStore {
  authenticate(key: string): MaybePromise<Principal | undefined>;
  /** Called once before the gateway serves; the gateway waits for it. */
  init?(): MaybePromise<void>;
  /** Called by `gateway.close()`. */
  close?(): MaybePromise<void>;
}

/**
 * What a reservation is for; stores may record it. A `count-tokens` reservation is a probe of one
 * credit (minimum 0), released at once: a key with nothing to spend is refused before its count runs.
 */
export interface ReservationInfo {
  model: string;
  operation: 'generate' | 'image' | 'count-tokens';
  requestId: string;
}

/** A hold on part of a balance, made before the upstream call. */
export interface Reservation {
  /** Unique per reservation. */
  id: string;
  keyId: string;
  /** Credits held. */
  amount: number;
}

/**
 * How a call's hold was closed:
 * - `completed`: the call finished; charged its usage.
 * - `cancelled`: the caller left mid-stream; charged the input and the output produced (the upstream bills it).
 * - `failed-free`: the stream failed because the upstream broke; charged nothing (the default).
 * - `failed-charged`: the same, charged the input and partial output (`chargeFailedStreams: true`).
 */
export type Settlement = 'completed' | 'cancelled' | 'failed-free' | 'failed-charged';

/** What the gateway tells `settle` about a charge, for stores that record usage. */
export interface SettleInfo {
  settlement: Settlement;
  /**
   * Credits charged beyond the hold (0 when none): the upstream reported more than the upper bound
   * the hold was sized on. The charge is still the full figure (docs/stores.md, "Overspend bound").
   */
  overrun: number;
}

/** The outcome of a reserve call. */
export type ReserveResult =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: 'insufficient_balance' | 'quota_exceeded'; message?: string; available?: number };

/**
 * Holds balances. The invariant every implementation must keep: the sum of settled charges and
 * open reservations of a key never exceeds its balance, however many calls run at once.
 *
 * - `reserve(keyId, amount)` holds up to `amount` credits. With `minimum`, a store that cannot hold
 *   `amount` may hold less (what is available), but never less than `minimum`; otherwise it refuses.
 * - `settle(reservation, actual, info)` charges `actual` credits and frees the rest of the hold;
 *   `actual` may exceed the hold (an overrun, see {@link SettleInfo}), and is charged in full.
 *   It must be idempotent: settling or releasing a reservation twice changes nothing.
 * - `release(reservation)` frees the whole hold without charging (the call failed).
 */
export interface QuotaStore {
  reserve(
    keyId: string,
    amount: number,
    options: { minimum: number; info: ReservationInfo },
  ): MaybePromise<ReserveResult>;
  settle(reservation: Reservation, actual: number, info?: SettleInfo): MaybePromise<void>;
  release(reservation: Reservation): MaybePromise<void>;
  init?(): MaybePromise<void>;
  close?(): MaybePromise<void>;
}

/**
 * One stored answer: what a later call needs to continue the conversation, and what reading it back
 * answers. Plain JSON (a store may serialize it); the gateway writes it once and never changes it.
 */
export interface StoredResponse {
  /** The answer as the caller got it, in the caller's protocol (the Responses API's `Response` object). */
  response: Record<string, unknown>;
  /**
   * The conversation in canonical form: every message the model saw (earlier stored turns
   * included), then the answer as an `assistant` message, reasoning and vendor signatures kept.
   */
  messages: Message[];
  /** The call's input as the caller's protocol lists it (earlier turns' input and output first), for reading back. */
  inputItems: Record<string, unknown>[];
  /** When the answer was created, Unix seconds. */
  createdAt: number;
}

/**
 * Keeps answers that callers ask to keep (the Responses API's `store` and `previous_response_id`,
 * `GET` / `DELETE /v1/responses/{id}`). Every record belongs to an `owner`, the principal's key id
 * (never the key): a record is found, listed and deleted only with the owner that put it.
 *
 * - `put(owner, id, record)` stores (or replaces) a record. How long it is kept is the store's
 *   choice (its TTL and size cap); a store may drop a record early, never change one.
 * - `get(owner, id)` returns the record, or `undefined` when there is none for this owner
 *   (unknown, expired, evicted, or another owner's).
 * - `delete(owner, id)` removes it; returns whether there was one for this owner.
 * - `findItem(owner, itemId)` returns an item of a record this owner put, by the item's own `id`:
 *   one of the answer's output items (`response.output`) or of its `inputItems` (the Responses
 *   API's `item_reference` names them). `put` indexes the record's item ids for as long as it keeps
 *   the record; an id held by several records is found in the one put last. Optional (default:
 *   absent): without it a call that names an item by reference is a 400.
 */
export interface ResponseStore {
  put(owner: string, id: string, record: StoredResponse): MaybePromise<void>;
  get(owner: string, id: string): MaybePromise<StoredResponse | undefined>;
  delete(owner: string, id: string): MaybePromise<boolean>;
  findItem?(owner: string, itemId: string): MaybePromise<Record<string, unknown> | undefined>;
  /** Called once before the gateway serves; the gateway waits for it. */
  init?(): MaybePromise<void>;
  /** Called by `gateway.close()`. */
  close?(): MaybePromise<void>;
}
