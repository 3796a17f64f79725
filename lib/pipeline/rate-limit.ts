/**
 * A call's rate limits: the scopes that count it (its key, and its key × model), admitted before the quota hold
 * (requests, the estimated tokens, a concurrency slot), settled with the tokens used however the call ends.
 */
import type { GenerateRequest, Usage } from '../canonical';
import { GatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import type { ProtocolCodec } from '../protocols/types';
import { mergeKeyLimits } from '../stores/rate-limits';
import type {
  KeyRateLimits,
  MaybePromise,
  Principal,
  RateLimitLease,
  RateLimitResult,
  RateLimits,
  RateLimitScope,
  RateLimitStore,
} from '../stores/types';
import type { Call } from './call';
import { boundInput, type InputBound } from './input-tokens';
import { logRequest } from './log';

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
function scopesOf(keyId: string, limits: KeyRateLimits, model: ResolvedModel, requested: string): Scopes | null {
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

function isPromiseLike<T>(value: MaybePromise<T> | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === 'function';
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
    model: ResolvedModel,
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
  private scopesFor(principal: Principal, model: ResolvedModel, requested: string): Scopes | undefined {
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

/**
 * An admitted call's lease, returned once: {@link settle} with the tokens the call used (answered, or a stream
 * however it ended), or {@link release} when it failed (its estimated tokens given back). A failing store is logged.
 */
export class RateSlot {
  private finished = false;

  constructor(
    private readonly store: RateLimitStore,
    private readonly lease: RateLimitLease,
    /** The protocol's rate-limit headers for the answer (undefined: the protocol has none). */
    readonly headers: Record<string, string> | undefined,
    private readonly requestId: string,
  ) {}

  /** Settles the lease: synchronous when the store is, a promise (that never rejects) when it answers with one. */
  settle(usedTokens: number): MaybePromise<void> {
    if (this.finished) return;
    this.finished = true;
    let settled: MaybePromise<void>;
    try {
      settled = this.store.settle(this.lease, usedTokens);
    } catch (error) {
      logRequest('%s rate-limit settle failed: %O', this.requestId, error);
      return;
    }
    if (isPromiseLike(settled))
      return Promise.resolve(settled).then(undefined, (error: unknown) => {
        logRequest('%s rate-limit settle failed: %O', this.requestId, error);
      });
  }

  release(): MaybePromise<void> {
    return this.settle(0);
  }
}

/** The tokens a call used, as tokens-per-minute limits count them: every input token (cached ones too) and output. */
export function usedTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** The tokens a text call is admitted on: its input bound and its output cap for every choice. */
export function estimatedTokens(request: GenerateRequest, model: ResolvedModel, inputBound: number): number {
  return inputBound + (request.maxOutputTokens ?? model.maxOutputTokens) * (request.choiceCount ?? 1);
}

/** A text call admitted by its rate limits: its slot, and the input bound its quota hold reuses. */
export interface AdmittedText {
  slot: RateSlot | undefined;
  bound: InputBound;
}

/**
 * Admits a text call (the caller is counted by some limit: {@link RateLimiter.applies}): its input bounded as its
 * quota hold will be, and the bound plus its output cap taken from its tokens per minute.
 */
export async function admitText(
  limiter: RateLimiter,
  call: Call,
  request: GenerateRequest,
  model: ResolvedModel,
): Promise<AdmittedText> {
  const bound = await boundInput(request, model, call.requestId);
  const tokens = estimatedTokens(request, model, bound.bound);
  const admitted = limiter.admit(call.caller, model, request.model, tokens, call.requestId, call.rateLimitHeaders);
  return { slot: isPromiseLike(admitted) ? await admitted : admitted, bound };
}
