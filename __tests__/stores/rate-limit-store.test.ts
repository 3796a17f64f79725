/** The memory rate-limit store: the shared contract, and what its injected clock and sweep add. */
import { MemoryRateLimitStore } from '../../lib';
import { describeRateLimitStoreContract } from '../helpers/rate-limit-store-contract';

describeRateLimitStoreContract('MemoryRateLimitStore', {
  create: async (windowMs) => new MemoryRateLimitStore({ windowMs }),
});

describe('MemoryRateLimitStore', () => {
  it('refills a bucket by the clock it is given: one request per minute / limit', () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    const scopes = [{ id: 'k', requestsPerMinute: 4 }];
    for (let i = 0; i < 4; i++) expect(store.acquire({ scopes, tokens: 0 }).ok).toBe(true);
    const refused = store.acquire({ scopes, tokens: 0 });
    expect(refused).toMatchObject({ ok: false, reason: 'requests', retryAfterMs: 15_000 });
    now += 14_999;
    expect(store.acquire({ scopes, tokens: 0 }).ok).toBe(false);
    now += 1;
    expect(store.acquire({ scopes, tokens: 0 }).ok).toBe(true);
  });

  it('counts calls in flight per scope', () => {
    const store = new MemoryRateLimitStore();
    const result = store.acquire({ scopes: [{ id: 'k', concurrent: 3 }], tokens: 0 });
    expect(store.inFlight('k')).toBe(1);
    if (result.ok) store.settle(result.lease, 0);
    expect(store.inFlight('k')).toBe(0);
  });

  it('refuses a window that is not a positive integer', () => {
    expect(() => new MemoryRateLimitStore({ windowMs: 0 })).toThrow(/'windowMs' must be a positive integer/);
  });
});
