/**
 * One gateway's rate limiter: the scopes that count a call (its key, and its key × model), admitted in the
 * `RateLimitStore` before the quota hold (requests, the estimated tokens, a concurrency slot), or refused with a 429.
 */
import { isPromiseLike } from '../promise';
import { GatewayError } from '../errors';
import { logRequest } from '../log';
import type { ProtocolCodec } from '../protocols/types';
import { mergeKeyLimits } from '../stores/rate-limits';
import type {
  KeyRateLimits,
  MaybePromise,
  Principal,
  RateLimitResult,
  RateLimits,
  RateLimitScope,
  RateLimitStore,
} from '../stores/types';
import { RateSlot } from './slot';

/** What the limiter reads of a model (the model table's `ResolvedModel` is one): its public id. */
export interface LimitedModel {
  readonly id: string;
}

/** The codec method that turns a call's rate-limit state into its protocol's headers. */
export type RateLimitHeaders = ProtocolCodec['rateLimitHeaders'];

type Scopes = readonly RateLimitScope[];

/** The most keys whose scopes are kept per limits object (past it the cache starts again). */
const MAX_CACHED_KEYS = 10_000;

const REFUSED_BY = {
  requests: 'requests per minute',
  tokens: 'tokens per minute',
  concurrent: 'calls in flight',
} as const;

/** A scope's limits as the store takes them: only positive integers (`null` and absent both mean none). */
function scopeOf(id: string, limits: RateLimits): RateLimitScope | undefined {
  const { requestsPerMinute, tokensPerMinute, concurrent } = limits;
  if (requestsPerMinute == null && tokensPerMinute == null && concurrent == null) return undefined;
  return {
    id,
    ...(requestsPerMinute != null ? { requestsPerMinute } : {}),
    ...(tokensPerMinute != null ? { tokensPerMinute } : {}),
    ...(concurrent != null ? { concurrent } : {}),
  };
}

/** The scopes of a key's call to `model` (asked for as `requested`): the key's, then the key × model's; null if none. */
function scopesOf(keyId: string, limits: KeyRateLimits, model: LimitedModel, requested: string): Scopes | null {
  const scopes: RateLimitScope[] = [];
  const own = scopeOf(keyId, limits);
  if (own) scopes.push(own);
  const perModel = limits.models?.[model.id] ?? limits.models?.[requested];
  const modelScope = perModel && scopeOf(`${keyId}\n${model.id}`, perModel);
  if (modelScope) scopes.push(modelScope);
  return scopes.length > 0 ? scopes : null;
}

/** A store that failed (threw or rejected): the call is refused as unavailable, to be retried. */
function storeUnavailable(error: unknown): GatewayError {
  return new GatewayError('unavailable', 'The rate-limit store is unavailable; try again later.', {
    cause: error,
    retryAfter: 1,
  });
}

/**
 * One gateway's rate limiting: the default limits, a key's own merged over them (each merge made once per limits
 * object), and the store. A principal without limits under a gateway without a default costs one check and nothing
 * else: no store call, no allocation.
 */
export class RateLimiter {
  private readonly merged = new WeakMap<KeyRateLimits, KeyRateLimits>();
  /** The scopes of the calls seen, by limits object, key id and model (null: no limit counts such a call). */
  private readonly scopes = new WeakMap<KeyRateLimits, Map<string, Map<string, Scopes | null>>>();

  constructor(
    readonly store: RateLimitStore,
    private readonly defaults: KeyRateLimits | undefined,
  ) {}

  /** Whether any limit may count this principal's calls (when false, skip {@link admit} and its estimate). */
  applies(principal: Principal): boolean {
    return this.defaults !== undefined || principal.rateLimits !== undefined;
  }

  /**
   * Admits a call of `tokens` (estimated) to `model` (asked for as `requested`), or throws a 429 `rate_limit` with
   * `Retry-After` and the protocol's headers. Undefined when no limit counts the call. Synchronous when the store is
   * (the memory store): a promise only when the store answers with one.
   */
  admit(
    principal: Principal,
    model: LimitedModel,
    requested: string,
    tokens: number,
    requestId: string,
    headersOf: RateLimitHeaders,
  ): MaybePromise<RateSlot | undefined> {
    const scopes = this.scopesFor(principal, model, requested);
    if (scopes === undefined) return undefined;
    let outcome: MaybePromise<RateLimitResult>;
    try {
      outcome = this.store.acquire({ scopes, tokens, requestId });
    } catch (error) {
      throw storeUnavailable(error);
    }
    if (!isPromiseLike(outcome)) return this.slotFor(outcome, principal, requestId, headersOf);
    return Promise.resolve(outcome).then(
      (result) => this.slotFor(result, principal, requestId, headersOf),
      (error: unknown) => {
        throw storeUnavailable(error);
      },
    );
  }

  /** The slot of an admitted call, or the 429 of a refused one (thrown). */
  private slotFor(
    outcome: RateLimitResult,
    principal: Principal,
    requestId: string,
    headersOf: RateLimitHeaders,
  ): RateSlot {
    const headers = headersOf?.(outcome.state);
    if (outcome.ok) return new RateSlot(this.store, outcome.lease, headers, requestId);
    const seconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
    logRequest(
      '%s rate limited (%s) for %s; retry in %d ms',
      requestId,
      outcome.reason,
      principal.id,
      outcome.retryAfterMs,
    );
    throw new GatewayError(
      'rate_limit',
      `Rate limit reached for this key on ${REFUSED_BY[outcome.reason]}; try again in ${seconds} s.`,
      {
        code: 'rate_limit_exceeded',
        retryAfter: seconds,
        headers: { ...headers, 'retry-after-ms': String(Math.max(1, outcome.retryAfterMs)) },
      },
    );
  }

  /**
   * The scopes of a call: the key's, then the key × model's; undefined when none has a limit. Made once per limits
   * object, key and model, and handed to the store as they are (the store keeps them in the lease, never changes them).
   */
  private scopesFor(principal: Principal, model: LimitedModel, requested: string): Scopes | undefined {
    const limits = this.limitsOf(principal);
    if (limits === undefined) return undefined;
    let byKey = this.scopes.get(limits);
    if (!byKey) {
      byKey = new Map();
      this.scopes.set(limits, byKey);
    }
    let byModel = byKey.get(principal.id);
    if (!byModel) {
      // A default shared by many keys: the cache follows the keys in use, not every key ever seen.
      if (byKey.size >= MAX_CACHED_KEYS) byKey.clear();
      byModel = new Map();
      byKey.set(principal.id, byModel);
    }
    // The key × model limits are the resolved model's, else those of the name the caller asked for: that name is part
    // of the cache key only when it has limits of its own.
    const models = limits.models;
    const byName = models !== undefined && models[model.id] === undefined && models[requested] !== undefined;
    const modelKey = byName ? `${model.id}\n${requested}` : model.id;
    let scopes = byModel.get(modelKey);
    if (scopes === undefined) {
      scopes = scopesOf(principal.id, limits, model, requested);
      byModel.set(modelKey, scopes);
    }
    return scopes ?? undefined;
  }

  private limitsOf(principal: Principal): KeyRateLimits | undefined {
    const own = principal.rateLimits;
    if (own === undefined) return this.defaults;
    if (this.defaults === undefined) return own;
    let merged = this.merged.get(own);
    if (!merged) {
      merged = mergeKeyLimits(this.defaults, own);
      this.merged.set(own, merged);
    }
    return merged;
  }
}
