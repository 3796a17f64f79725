/** The RateLimitStore contract as one test suite, run against every rate-limit store (memory, Redis) through a harness. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimitLease, RateLimitResult, RateLimitScope, RateLimitStore } from '../../lib';

/** How the contract gets stores: each one fresh, counting over a window of `windowMs`. */
export interface RateLimitStoreHarness {
  create(windowMs: number): Promise<RateLimitStore>;
}

const MINUTE = 60_000;

function leaseOf(result: RateLimitResult): RateLimitLease {
  if (!result.ok) throw new Error(`expected an admission, got a refusal: ${JSON.stringify(result)}`);
  return result.lease;
}

const acquire = (store: RateLimitStore, scopes: RateLimitScope[], tokens = 0) =>
  Promise.resolve(store.acquire({ scopes, tokens, requestId: 'req_contract' }));

export function describeRateLimitStoreContract(name: string, harness: RateLimitStoreHarness): void {
  describe(`${name} (RateLimitStore contract)`, () => {
    it('admits exactly M of N concurrent calls under M requests per minute; the rest wait about a minute / M', async () => {
      const store = await harness.create(MINUTE);
      const scopes = [{ id: 'k', requestsPerMinute: 5 }];
      const results = await Promise.all(Array.from({ length: 12 }, () => acquire(store, scopes)));
      const admitted = results.filter((result) => result.ok);
      expect(admitted).toHaveLength(5);
      for (const result of results.filter((each) => !each.ok)) {
        if (result.ok) continue;
        expect(result.reason).toBe('requests');
        expect(result.retryAfterMs).toBeGreaterThan(0);
        expect(result.retryAfterMs).toBeLessThanOrEqual(MINUTE / 5);
        expect(result.state.requests).toMatchObject({ limit: 5, remaining: 0 });
      }
      const remaining = admitted.map((result) => result.state.requests!.remaining).sort();
      expect(remaining).toEqual([0, 1, 2, 3, 4]);
    });

    it('takes the estimated tokens on admission, and settles them to the tokens used', async () => {
      const store = await harness.create(MINUTE);
      const scopes = [{ id: 'k', tokensPerMinute: 1000 }];
      const first = leaseOf(await acquire(store, scopes, 600));
      const refused = await acquire(store, scopes, 600);
      expect(refused).toMatchObject({ ok: false, reason: 'tokens' });
      await store.settle(first, 100);
      const second = await acquire(store, scopes, 600);
      expect(second.ok).toBe(true);
      expect(second.state.tokens!.remaining).toBeLessThanOrEqual(300);
      expect(second.state.tokens!.remaining).toBeGreaterThanOrEqual(299);
    });

    it('admits a call larger than the whole token budget only on a full bucket, which it then overdraws', async () => {
      const store = await harness.create(MINUTE);
      const scopes = [{ id: 'k', tokensPerMinute: 1000 }];
      const big = await acquire(store, scopes, 5000);
      expect(big.ok).toBe(true);
      expect(big.state.tokens!.remaining).toBe(0);
      expect(await acquire(store, scopes, 1)).toMatchObject({ ok: false, reason: 'tokens' });
    });

    it('holds a concurrency slot per call until it settles, once', async () => {
      const store = await harness.create(MINUTE);
      const scopes = [{ id: 'k', concurrent: 2 }];
      const a = leaseOf(await acquire(store, scopes));
      leaseOf(await acquire(store, scopes));
      expect(await acquire(store, scopes)).toMatchObject({ ok: false, reason: 'concurrent' });
      await store.settle(a, 0);
      await store.settle(a, 0);
      leaseOf(await acquire(store, scopes));
      expect(await acquire(store, scopes)).toMatchObject({ ok: false, reason: 'concurrent' });
    });

    it('counts a call in each of its scopes, and a refused call takes nothing from any of them', async () => {
      const store = await harness.create(MINUTE);
      const key = { id: 'k', requestsPerMinute: 5 };
      const model = { id: 'k\nm', requestsPerMinute: 1 };
      leaseOf(await acquire(store, [key, model]));
      expect(await acquire(store, [key, model])).toMatchObject({ ok: false, reason: 'requests' });
      const other = await acquire(store, [key]);
      expect(other.state.requests).toMatchObject({ limit: 5, remaining: 3 });
    });

    it('reports the tighter scope in its state', async () => {
      const store = await harness.create(MINUTE);
      const result = await acquire(store, [
        { id: 'k', requestsPerMinute: 100 },
        { id: 'k\nm', requestsPerMinute: 3 },
      ]);
      expect(result.state.requests).toMatchObject({ limit: 3, remaining: 2 });
      expect(result.state.requests!.resetMs).toBeGreaterThan(0);
    });

    it('keeps scopes apart', async () => {
      const store = await harness.create(MINUTE);
      leaseOf(await acquire(store, [{ id: 'a', requestsPerMinute: 1 }]));
      leaseOf(await acquire(store, [{ id: 'b', requestsPerMinute: 1 }]));
    });

    it('refills evenly over the window: a refused call admitted after its retry delay', async () => {
      // Two requests per 2 s window: one comes back every second. The refusal needs the three calls to land within
      // that second (under a 1 s window they had 500 ms, which a busy machine's stall between two calls can use up).
      const store = await harness.create(2000);
      const scopes = [{ id: 'k', requestsPerMinute: 2 }];
      leaseOf(await acquire(store, scopes));
      leaseOf(await acquire(store, scopes));
      const refused = await acquire(store, scopes);
      if (refused.ok) throw new Error('expected a refusal');
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
      await sleep(refused.retryAfterMs + 20);
      leaseOf(await acquire(store, scopes));
    });
  });
}
