/** The shared store contracts, run against the in-memory defaults (the Redis adapters run the same suites in redis-store.test.ts). */
import { MemoryKeyStore, MemoryQuotaStore } from '../lib';
import { describeKeyStoreContract } from './helpers/key-store-contract';
import { describeQuotaStoreContract } from './helpers/quota-store-contract';

// MemoryQuotaStore has no reservation TTL (its holds live and die with the process), so the
// contract's expiry block is not defined for it.
describeQuotaStoreContract('MemoryQuotaStore', {
  create: async (balances) => new MemoryQuotaStore({ balances }),
});

describeKeyStoreContract('MemoryKeyStore', {
  create: async (entries) => new MemoryKeyStore(entries),
});
