/**
 * The key-store, quota-store, rate-limit-store and response-store contracts a host app implements (or takes the memory
 * defaults of).
 */
import type { Extensions, Message, ToolDefinition } from '../canonical';

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
  /**
   * This key's rate limits, merged over the gateway's `rateLimits` default field by field (docs/operations.md,
   * *Rate limits*). Absent: the default alone, or no limit.
   */
  rateLimits?: KeyRateLimits;
}

/**
 * Rate limits of one scope (a key, or a key × model). Each is a positive integer; absent means no limit of that
 * kind, and `null` lifts a limit the gateway's default sets.
 */
export interface RateLimits {
  /** Calls admitted per minute (a token bucket of this size, refilled evenly over the minute). */
  requestsPerMinute?: number | null;
  /**
   * Tokens (input + output) per minute: a call is admitted on its estimate (the input bound plus its output cap)
   * and charged its real usage when it ends.
   */
  tokensPerMinute?: number | null;
  /** Calls in flight at once, streams included, however they end. */
  concurrent?: number | null;
}

/** A key's rate limits: its own, and optionally per model (by public model id or alias) on top of them. */
export interface KeyRateLimits extends RateLimits {
  /** Limits of this key's calls to one model, each counted in a scope of its own besides the key's. */
  models?: Readonly<Record<string, RateLimits>>;
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
 * A `balance` reservation is the same probe made before a large body is read (docs/errors.md, "Body size"); its
 * `model` is empty (the body that names it is not read yet).
 */
export interface ReservationInfo {
  model: string;
  operation: 'generate' | 'image' | 'count-tokens' | 'embed' | 'balance';
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

/** One scope a call is counted in, with the limits that apply there (only positive integers; absent: no limit). */
export interface RateLimitScope {
  /** The scope's id: the key id, or the key id and the public model id joined by `\n`. */
  readonly id: string;
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  readonly concurrent?: number;
}

/** A call admitted by {@link RateLimitStore.acquire}: what its `settle` must undo or correct. */
export interface RateLimitLease {
  /** Unique per lease. */
  readonly id: string;
  readonly scopes: readonly RateLimitScope[];
  /** The tokens taken on admission (the estimate). */
  readonly tokens: number;
}

/** One limit as rate-limit headers show it. */
export interface RateLimitCounter {
  /** The limit per minute. */
  limit: number;
  /** What is left now (whole units, at least 0). */
  remaining: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
}

/** Where a call's limits stand after it was admitted or refused: the scope with the least left, per kind. */
export interface RateLimitState {
  requests?: RateLimitCounter;
  tokens?: RateLimitCounter;
}

/** The outcome of {@link RateLimitStore.acquire}. */
export type RateLimitResult =
  | { ok: true; lease: RateLimitLease; state: RateLimitState }
  | {
      ok: false;
      /** The first limit that refused the call. */
      reason: 'requests' | 'tokens' | 'concurrent';
      /** Milliseconds until the call could be admitted (for `concurrent`, a guess: until a slot might free). */
      retryAfterMs: number;
      state: RateLimitState;
    };

/**
 * Counts calls against rate limits: per scope a token bucket of requests and one of tokens, both refilled evenly
 * over the window (a minute), and a count of calls in flight.
 *
 * - `acquire({ scopes, tokens, requestId })` admits a call only if every scope has a request, `tokens` (at most its
 *   whole bucket) and a concurrency slot left; then takes them all, atomically, and returns a lease. Otherwise it
 *   takes nothing and says which limit refused and when to retry. Concurrent calls never get more than a limit
 *   allows, however many instances share the store.
 * - `settle(lease, usedTokens)` gives back the concurrency slot and corrects the tokens taken to `usedTokens`
 *   (a refund, or a further charge that may leave the bucket below zero). Idempotent: a second settle of a lease
 *   changes nothing. A failed call settles with 0.
 */
export interface RateLimitStore {
  acquire(request: {
    scopes: readonly RateLimitScope[];
    tokens: number;
    requestId: string;
  }): MaybePromise<RateLimitResult>;
  settle(lease: RateLimitLease, usedTokens: number): MaybePromise<void>;
  /** Called once before the gateway serves; the gateway waits for it. */
  init?(): MaybePromise<void>;
  /** Called by `gateway.close()`. */
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

/**
 * One turn of a message thread (the Anthropic messages API's `thread`, beta `message-threads-2026-08-12`): the whole
 * conversation the upstream saw, so the next turn, which sends only its new messages, can be rebuilt on any upstream.
 * Plain JSON; written once, never changed.
 */
export interface StoredThread {
  /** Every message the model saw (system messages first, as the thread's create request gave them), then the answer. */
  messages: Message[];
  /** The tools the thread was created with (a continue may not change them). */
  tools?: ToolDefinition[];
  /** What the create request carried that the rebuilt request needs again (the Anthropic server tools). */
  extensions?: Extensions;
  /**
   * Digests of the create request's `system` and `tools` as sent: a continue that repeats them must repeat them
   * unchanged (Anthropic's `thread_fingerprint_mismatch`).
   */
  fingerprint: { system: string; tools: string };
  /** When the turn was answered, Unix seconds. */
  createdAt: number;
}

/**
 * Keeps message threads (docs/stores.md, *ThreadStore*): each turn under the id of the message that answered it, for
 * the owner (the principal's key id) that made it. A thread is best-effort, as Anthropic's are: a store may drop a turn
 * at any time, and a continue that finds none is a 404 `thread_not_found`, on which the SDK replays the whole
 * conversation. The memory and Redis stores keep a turn 5 minutes after it was stored (Anthropic's idle lifetime).
 *
 * - `put(owner, id, thread)` stores a turn.
 * - `get(owner, id)` returns it, or `undefined` (unknown, expired, another owner's).
 * - `delete(owner, id)`: optional; the gateway calls it on a turn once a later turn continued it (each answer is
 *   continued once, as Anthropic allows), so a store holds one turn per live thread.
 */
export interface ThreadStore {
  put(owner: string, id: string, thread: StoredThread): MaybePromise<void>;
  get(owner: string, id: string): MaybePromise<StoredThread | undefined>;
  delete?(owner: string, id: string): MaybePromise<boolean>;
  /** Called once before the gateway serves; the gateway waits for it. */
  init?(): MaybePromise<void>;
  /** Called by `gateway.close()`. */
  close?(): MaybePromise<void>;
}

/**
 * One deployment's shared health as {@link DeploymentStateStore.read} answers it (docs/routing.md, *Health and
 * cooldown*), in the store's own clock.
 */
export interface DeploymentState {
  /** Milliseconds left of its cooldown; 0 when it is not cooling down. */
  coolingMs: number;
  /** Its cooldown has ended and no call has proved it healthy yet: the next call to it is its probe. */
  probation: boolean;
  /** Whether a caller holds the probe claim (the others keep away until it answers or the claim expires). */
  probing: boolean;
  /** Failures counted in its current window. */
  failures: number;
  /** Calls in flight on it, counted by {@link DeploymentStateStore.enter} / `leave` (the `least-busy` strategy only). */
  inFlight: number;
}

/** A deployment with nothing against it: what a store answers for one it holds no state of. */
export const HEALTHY_DEPLOYMENT: DeploymentState = Object.freeze({
  coolingMs: 0,
  probation: false,
  probing: false,
  failures: 0,
  inFlight: 0,
});

/** A failure of a deployment, as {@link DeploymentStateStore.fail} counts it. */
export interface DeploymentFailure {
  /** Failures are counted in a window of this many milliseconds that starts at the first one. */
  windowMs: number;
  /** The failures in one window that cool the deployment down. */
  threshold: number;
  /** How long a cooldown lasts, in milliseconds. */
  cooldownMs: number;
  /** Cool down at once, whatever the count (an upstream `Retry-After`, rejected credentials, a failed probe). */
  immediate: boolean;
}

/**
 * The state the deployments of a model share across calls and, with a shared store, across gateway instances
 * (docs/routing.md): each deployment's failures, cooldown, probe claim and calls in flight, and each session's
 * deployment (affinity). Methods may answer a value or a promise; the memory store answers values, so a call pays no
 * promise for it.
 *
 * - `read(names)` answers each deployment's {@link DeploymentState}, in order (an unknown one is healthy).
 * - `fail(name, failure)` counts a failure; when the window holds `threshold` of them, or `immediate`, or the
 *   deployment is on probation, it starts a cooldown of `cooldownMs` (never shortening one already running) and
 *   answers its length in milliseconds; otherwise 0.
 * - `succeed(name)` ends its cooldown, probation, probe claim and failure count.
 * - `claimProbe(name, ttlMs)` is true for exactly one caller until `succeed`, `fail` or `ttlMs` passes.
 * - `enter(name)` / `leave(name)` count calls in flight (never below 0).
 * - `affinity(session)` answers the deployment a session was last served by, if that was less than its idle time
 *   ago; `setAffinity(session, name, idleMs)` records it (and restarts the idle time). Memory stays bounded.
 */
export interface DeploymentStateStore {
  read(names: readonly string[]): MaybePromise<readonly DeploymentState[]>;
  fail(name: string, failure: DeploymentFailure): MaybePromise<number>;
  succeed(name: string): MaybePromise<void>;
  claimProbe(name: string, ttlMs: number): MaybePromise<boolean>;
  enter(name: string): MaybePromise<void>;
  leave(name: string): MaybePromise<void>;
  affinity(session: string): MaybePromise<string | undefined>;
  setAffinity(session: string, name: string, idleMs: number): MaybePromise<void>;
  /** Called once before the gateway serves; the gateway waits for it. */
  init?(): MaybePromise<void>;
  /** Called by `gateway.close()`. */
  close?(): MaybePromise<void>;
}
