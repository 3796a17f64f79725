/** A rate-limit store in Redis: token buckets and calls in flight shared by every gateway instance, as atomic Lua. */
import { randomUUID } from 'node:crypto';
import { RATE_LIMIT_WINDOW_MS } from '../rate-limits';
import type {
  RateLimitCounter,
  RateLimitLease,
  RateLimitResult,
  RateLimitScope,
  RateLimitState,
  RateLimitStore,
} from '../types';
import { knownOptions, positiveInteger } from '../../config-check';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';
import { RATE_LIMIT_SCRIPTS } from './scripts';

const STORE = 'RedisRateLimitStore';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions extends RedisConnectionOptions {
  /** Prepended to every Redis key; gateways that share limits use the same prefix. Default `rosetta:`. */
  prefix?: string;
  /**
   * How long a call holds its concurrency slot at most, in milliseconds: a slot whose instance died mid-call is freed
   * then. Set it above your longest call, streams included. Default 600,000 (10 minutes).
   */
  leaseTtlMs?: number;
  /** The window every "per minute" limit is counted over, in milliseconds. Default 60,000; shorter ones are for tests. */
  windowMs?: number;
}

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES, 'leaseTtlMs', 'windowMs'] as const;

function limitArgs(scope: RateLimitScope): number[] {
  return [scope.requestsPerMinute ?? -1, scope.tokensPerMinute ?? -1, scope.concurrent ?? -1];
}

function counter(limit: number | undefined, remaining: number, resetMs: number): RateLimitCounter | undefined {
  return limit === undefined || remaining < 0 ? undefined : { limit, remaining, resetMs };
}

/**
 * Rate limits in Redis, shared by every gateway instance that uses the same Redis and prefix: per scope a hash of
 * its two token buckets and a sorted set of the calls in flight. `acquire` and `settle` are one Lua script each
 * (EVALSHA) over all of a call's scopes, on Redis's clock, so no interleaving of calls from any number of instances
 * can pass a limit. A scope's keys expire once its buckets are full again and nothing is in flight; a call whose
 * instance died frees its slot after `leaseTtlMs`. Redis errors throw (the gateway answers 503).
 *
 * @example
 * ```ts
 * import { createRedisClient, RedisKeyStore, RedisRateLimitStore } from 'rosetta-gateway/redis';
 * const client = createRedisClient(process.env.REDIS_URL);
 * app.use(createGateway({ keyStore: new RedisKeyStore({ client }), rateLimitStore: new RedisRateLimitStore({ client }) }));
 * ```
 */
export class RedisRateLimitStore extends RedisStoreBase implements RateLimitStore {
  /** The key prefix in use. */
  readonly prefix: string;
  protected readonly link: RedisLink;
  private readonly leaseTtlMs: number;
  private readonly windowMs: number;

  constructor(options: RedisRateLimitStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    this.leaseTtlMs = positiveInteger(STORE, 'leaseTtlMs', options.leaseTtlMs, 600_000);
    this.windowMs = positiveInteger(STORE, 'windowMs', options.windowMs, RATE_LIMIT_WINDOW_MS);
    this.link = new RedisLink(STORE, options, Object.values(RATE_LIMIT_SCRIPTS));
  }

  async acquire(request: { scopes: readonly RateLimitScope[]; tokens: number }): Promise<RateLimitResult> {
    const { scopes, tokens } = request;
    const id = randomUUID();
    const args = [id, Math.max(0, Math.ceil(tokens)), this.windowMs, this.leaseTtlMs, ...scopes.flatMap(limitArgs)];
    const reply = (await this.link.run(RATE_LIMIT_SCRIPTS.acquire, this.keysOf(scopes), args)) as Array<
      number | string
    >;
    const admitted = reply[0] === 1;
    const offset = admitted ? 1 : 3;
    const state: RateLimitState = {};
    scopes.forEach((scope, index) => {
      const [requestsLeft, requestsReset, tokensLeft, tokensReset] = reply
        .slice(offset + index * 4, offset + index * 4 + 4)
        .map(Number) as [number, number, number, number];
      const requests = counter(scope.requestsPerMinute, requestsLeft, requestsReset);
      const tokenCounter = counter(scope.tokensPerMinute, tokensLeft, tokensReset);
      if (requests && (!state.requests || requests.remaining < state.requests.remaining)) state.requests = requests;
      if (tokenCounter && (!state.tokens || tokenCounter.remaining < state.tokens.remaining))
        state.tokens = tokenCounter;
    });
    if (!admitted) {
      const reason = String(reply[1]) as 'requests' | 'tokens' | 'concurrent';
      return { ok: false, reason, retryAfterMs: Number(reply[2]), state };
    }
    return { ok: true, lease: { id, scopes, tokens: Math.max(0, Math.ceil(tokens)) }, state };
  }

  async settle(lease: RateLimitLease, usedTokens: number): Promise<void> {
    const args = [
      lease.id,
      lease.tokens,
      Math.max(0, Math.ceil(usedTokens)),
      this.windowMs,
      ...lease.scopes.flatMap(limitArgs),
    ];
    await this.link.run(RATE_LIMIT_SCRIPTS.settle, this.keysOf(lease.scopes), args);
  }

  /**
   * The Redis keys of a scope: `<prefix>rate:{<key id>}` (and `:<model>` for a key × model scope), then `:leases`.
   * The key id is a hash tag, so all of a key's scopes live on one Cluster slot.
   */
  scopeKeys(scopeId: string): [string, string] {
    const split = scopeId.indexOf('\n');
    const base =
      split < 0
        ? `${this.prefix}rate:{${scopeId}}`
        : `${this.prefix}rate:{${scopeId.slice(0, split)}}:model:${scopeId.slice(split + 1)}`;
    return [base, `${base}:leases`];
  }

  private keysOf(scopes: readonly RateLimitScope[]): string[] {
    return [String(scopes.length * 2), ...scopes.flatMap((scope) => this.scopeKeys(scope.id))];
  }
}
