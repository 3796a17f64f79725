/**
 * The rate limiter over a store: with a synchronous store (the memory one) a call is admitted and settled without a
 * promise, its scopes made once per key and model; with an asynchronous one, as before, through promises.
 */
import { GatewayError, MemoryRateLimitStore } from '../../lib';
import type { ResolvedModel } from '../../lib/models';
import { openAIRateLimitHeaders } from '../../lib/protocols/shared/openai-rate-limit-headers';
import { RateLimiter } from '../../lib/rate-limit/limiter';
import { RateSlot } from '../../lib/rate-limit/slot';
import type { RateLimitLease, RateLimitResult, RateLimitScope, RateLimitStore } from '../../lib/stores/types';

const model = { id: 'gpt-4o', upstreamModel: 'gpt-4o' } as ResolvedModel;
const alice = { id: 'alice', rateLimits: { requestsPerMinute: 10, models: { 'gpt-4o': { tokensPerMinute: 1_000 } } } };

/** A store that records the scopes it is asked about, answering as `inner` does, or through a promise. */
function recording(inner: RateLimitStore, async: boolean) {
  const seen: (readonly RateLimitScope[])[] = [];
  const store: RateLimitStore = {
    acquire(request) {
      seen.push(request.scopes);
      const result = inner.acquire(request) as RateLimitResult;
      return async ? Promise.resolve(result) : result;
    },
    settle(lease: RateLimitLease, used: number) {
      inner.settle(lease, used);
      return async ? Promise.resolve() : undefined;
    },
  };
  return { store, seen };
}

describe('RateLimiter', () => {
  it('admits and settles without a promise when the store answers without one', () => {
    const memory = new MemoryRateLimitStore();
    const { store, seen } = recording(memory, false);
    const limiter = new RateLimiter(store, undefined);
    const slot = limiter.admit(alice, model, 'gpt-4o', 100, 'req_1', openAIRateLimitHeaders);
    expect(slot).toBeInstanceOf(RateSlot);
    const admitted = slot as RateSlot;
    expect(admitted.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '9' });
    expect(memory.inFlight('alice')).toBe(1);
    expect(admitted.settle(40)).toBeUndefined();
    expect(memory.inFlight('alice')).toBe(0);
    // The second call is counted in the same scopes, made once.
    limiter.admit(alice, model, 'gpt-4o', 100, 'req_2', openAIRateLimitHeaders);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]).toEqual([
      { id: 'alice', requestsPerMinute: 10 },
      { id: 'alice\ngpt-4o', tokensPerMinute: 1_000 },
    ]);
  });

  it('refuses synchronously with a 429 and the headers when the store does', () => {
    const limiter = new RateLimiter(new MemoryRateLimitStore(), undefined);
    const one = { id: 'bob', rateLimits: { requestsPerMinute: 1 } };
    limiter.admit(one, model, 'gpt-4o', 0, 'req_1', openAIRateLimitHeaders);
    let refused: unknown;
    try {
      limiter.admit(one, model, 'gpt-4o', 0, 'req_2', openAIRateLimitHeaders);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).kind).toBe('rate_limit');
    expect((refused as GatewayError).headers).toMatchObject({ 'x-ratelimit-remaining-requests': '0' });
  });

  it('admits and settles through promises when the store answers with them', async () => {
    const memory = new MemoryRateLimitStore();
    const limiter = new RateLimiter(recording(memory, true).store, undefined);
    const admitted = limiter.admit(alice, model, 'gpt-4o', 100, 'req_1', undefined);
    expect(admitted).toBeInstanceOf(Promise);
    const slot = (await admitted) as RateSlot;
    expect(memory.inFlight('alice')).toBe(1);
    const settled = slot.settle(40);
    expect(settled).toBeInstanceOf(Promise);
    await settled;
    expect(memory.inFlight('alice')).toBe(0);
  });

  it('refuses as unavailable when the store throws or rejects', async () => {
    const failing = (async: boolean): RateLimitStore => ({
      acquire: () => {
        if (async) return Promise.reject(new Error('down'));
        throw new Error('down');
      },
      settle: () => undefined,
    });
    const sync = new RateLimiter(failing(false), undefined);
    expect(() => sync.admit(alice, model, 'gpt-4o', 1, 'req_1', undefined)).toThrow(
      expect.objectContaining({ kind: 'unavailable' }),
    );
    const rejecting = new RateLimiter(failing(true), undefined);
    await expect(rejecting.admit(alice, model, 'gpt-4o', 1, 'req_1', undefined)).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });
});
