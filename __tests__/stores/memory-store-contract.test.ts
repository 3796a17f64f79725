/**
 * The shared store contracts, run against the in-memory defaults (the Redis adapters run the same suites in
 * stores/redis/redis-store.test.ts).
 */
import { MemoryKeyStore, MemoryQuotaStore } from '../../lib';
import { describeKeyStoreContract } from '../helpers/key-store-contract';
import { describeQuotaStoreContract } from '../helpers/quota-store-contract';

// MemoryQuotaStore has no reservation TTL (its holds live and die with the process), so the
// contract's expiry block is not defined for it.
describeQuotaStoreContract('MemoryQuotaStore', {
  create: async (balances) => new MemoryQuotaStore({ balances }),
});

describeKeyStoreContract('MemoryKeyStore', {
  create: async (entries) => new MemoryKeyStore(entries),
});

describe('MemoryKeyStore digests', () => {
  it('gives the same key id and match with the one-shot crypto.hash as with createHash (older Node 20 releases have no crypto.hash)', () => {
    const withHash = jest.requireActual<typeof import('../../lib/stores/memory-key-store')>(
      '../../lib/stores/memory-key-store',
    );
    let withoutHash!: typeof import('../../lib/stores/memory-key-store');
    jest.isolateModules(() => {
      jest.doMock('node:crypto', () => {
        const { hash: _hash, ...rest } = jest.requireActual<typeof import('node:crypto') & { hash?: unknown }>(
          'node:crypto',
        );
        return rest;
      });
      withoutHash = jest.requireActual<typeof import('../../lib/stores/memory-key-store')>(
        '../../lib/stores/memory-key-store',
      );
    });
    jest.dontMock('node:crypto');
    expect(typeof (jest.requireActual('node:crypto') as { hash?: unknown }).hash).toBe('function');
    for (const key of ['sk-a', 'sk-ünïcödé-🔑', 'x'.repeat(300)]) {
      expect(withoutHash.fingerprintKey(key)).toBe(withHash.fingerprintKey(key));
      const principal = new withoutHash.MemoryKeyStore([{ key }]).authenticate(key);
      expect(principal?.id).toBe(withHash.fingerprintKey(key));
      expect(new withoutHash.MemoryKeyStore([{ key }]).authenticate(`${key}!`)).toBeUndefined();
    }
  });
});
