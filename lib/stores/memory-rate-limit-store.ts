/** The default rate-limit store: token buckets and calls in flight per scope, in memory, each step synchronous. */
import { positiveInteger } from '../config-check';
import { type Bucket, counterOf, fullBucket, RATE_LIMIT_WINDOW_MS, refill, tighter, waitFor } from './rate-limits';
import type { RateLimitLease, RateLimitResult, RateLimitScope, RateLimitState, RateLimitStore } from './types';

/** Options of {@link MemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * The window every "per minute" limit is counted over, in milliseconds. Default 60,000; a shorter one is for tests
   * (a limit of 2 per 1,000 ms frees a request every 500 ms).
   */
  windowMs?: number;
  /** The clock, in milliseconds. Default `Date.now`; a test may pass its own. */
  now?: () => number;
}

interface ScopeState {
  requests: Bucket | undefined;
  tokens: Bucket | undefined;
  inFlight: number;
}

/** How many admissions pass between sweeps of idle scopes (full buckets, nothing in flight). */
const SWEEP_EVERY = 1024;

/** The wait a call refused for want of a concurrency slot is told (a guess: until a slot might free). */
const CONCURRENT_RETRY_MS = 1000;

/**
 * Rate limits in memory, for one gateway process. Every method runs to completion without awaiting, so on Node's
 * single thread no interleaving of concurrent calls can pass a limit. Scopes whose buckets are full again and that
 * have nothing in flight are dropped now and then, so memory follows the keys in use, not every key ever seen.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly open = new Set<string>();
  private readonly windowMs: number;
  private readonly now: () => number;
  private sequence = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.windowMs = positiveInteger('MemoryRateLimitStore', 'windowMs', options.windowMs, RATE_LIMIT_WINDOW_MS);
    this.now = options.now ?? Date.now;
  }

  /** Calls in flight in a scope (a key id, or `keyId\nmodelId`). */
  inFlight(scopeId: string): number {
    return this.scopes.get(scopeId)?.inFlight ?? 0;
  }

  acquire(request: { scopes: readonly RateLimitScope[]; tokens: number }): RateLimitResult {
    const now = this.now();
    const windowMs = this.windowMs;
    const { scopes, tokens } = request;
    const states: ScopeState[] = new Array(scopes.length);
    // The refusal is the limit with the longest wait (the first of equal ones), so a retry then is not refused again.
    let reason: 'requests' | 'tokens' | 'concurrent' | undefined;
    let retryAfterMs = 0;
    for (let index = 0; index < scopes.length; index++) {
      const scope = scopes[index]!;
      const state = this.refilled(scope, now);
      states[index] = state;
      if (scope.requestsPerMinute !== undefined) {
        const wait = waitFor(state.requests!, 1, scope.requestsPerMinute, windowMs);
        if (wait > retryAfterMs) {
          reason = 'requests';
          retryAfterMs = wait;
        }
      }
      if (scope.tokensPerMinute !== undefined) {
        const needed = Math.min(tokens, scope.tokensPerMinute);
        const wait = waitFor(state.tokens!, needed, scope.tokensPerMinute, windowMs);
        if (wait > retryAfterMs) {
          reason = 'tokens';
          retryAfterMs = wait;
        }
      }
      if (scope.concurrent !== undefined && state.inFlight >= scope.concurrent && CONCURRENT_RETRY_MS > retryAfterMs) {
        reason = 'concurrent';
        retryAfterMs = CONCURRENT_RETRY_MS;
      }
    }
    if (reason !== undefined) return { ok: false, reason, retryAfterMs, state: this.stateOf(scopes, states) };
    for (const state of states) {
      if (state.requests) state.requests.level -= 1;
      if (state.tokens) state.tokens.level -= tokens;
      state.inFlight += 1;
    }
    const lease: RateLimitLease = { id: `l${++this.sequence}`, scopes, tokens };
    this.open.add(lease.id);
    if (this.sequence % SWEEP_EVERY === 0) this.sweep(now);
    return { ok: true, lease, state: this.stateOf(scopes, states) };
  }

  settle(lease: RateLimitLease, usedTokens: number): void {
    if (!this.open.delete(lease.id)) return;
    const now = this.now();
    for (const scope of lease.scopes) {
      const state = this.scopes.get(scope.id);
      if (!state) continue;
      state.inFlight = Math.max(0, state.inFlight - 1);
      if (state.tokens && scope.tokensPerMinute !== undefined) {
        refill(state.tokens, scope.tokensPerMinute, this.windowMs, now);
        state.tokens.level = Math.min(
          scope.tokensPerMinute,
          state.tokens.level + lease.tokens - Math.max(0, usedTokens),
        );
      }
    }
  }

  /** A scope's state with its buckets refilled to `now` (made full on first use). */
  private refilled(scope: RateLimitScope, now: number): ScopeState {
    let state = this.scopes.get(scope.id);
    if (!state) {
      state = { requests: undefined, tokens: undefined, inFlight: 0 };
      this.scopes.set(scope.id, state);
    }
    if (scope.requestsPerMinute !== undefined) {
      if (state.requests) refill(state.requests, scope.requestsPerMinute, this.windowMs, now);
      else state.requests = fullBucket(scope.requestsPerMinute, now);
    }
    if (scope.tokensPerMinute !== undefined) {
      if (state.tokens) refill(state.tokens, scope.tokensPerMinute, this.windowMs, now);
      else state.tokens = fullBucket(scope.tokensPerMinute, now);
    }
    return state;
  }

  private stateOf(scopes: readonly RateLimitScope[], states: readonly ScopeState[]): RateLimitState {
    const result: RateLimitState = {};
    for (let index = 0; index < scopes.length; index++) {
      const scope = scopes[index]!;
      const state = states[index]!;
      if (scope.requestsPerMinute !== undefined)
        result.requests = tighter(result.requests, counterOf(state.requests!, scope.requestsPerMinute, this.windowMs));
      if (scope.tokensPerMinute !== undefined)
        result.tokens = tighter(result.tokens, counterOf(state.tokens!, scope.tokensPerMinute, this.windowMs));
    }
    return result;
  }

  /** Drops scopes with nothing in flight whose buckets have had a whole window to refill. */
  private sweep(now: number): void {
    for (const [id, state] of this.scopes) {
      const last = Math.max(state.requests?.at ?? 0, state.tokens?.at ?? 0);
      if (state.inFlight === 0 && now - last >= this.windowMs && (state.tokens?.level ?? 0) >= 0)
        this.scopes.delete(id);
    }
  }
}
