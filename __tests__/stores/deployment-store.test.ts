/** The memory deployment store: the contract, and what only it promises (synchronous answers). */
import { MemoryDeploymentStore } from '../../lib';
import { describeDeploymentStoreContract } from '../helpers/deployment-store-contract';

describeDeploymentStoreContract('MemoryDeploymentStore', { create: async () => new MemoryDeploymentStore() });

describe('MemoryDeploymentStore', () => {
  it('answers every method without a promise', () => {
    const store = new MemoryDeploymentStore();
    for (const value of [
      store.read(['d']),
      store.fail('d', { windowMs: 1000, threshold: 1, cooldownMs: 10, immediate: false }),
      store.claimProbe('d', 10),
      store.affinity('s'),
    ])
      expect(value instanceof Promise).toBe(false);
  });

  it('follows an injected clock', () => {
    let now = 0;
    const store = new MemoryDeploymentStore({ now: () => now });
    store.fail('d', { windowMs: 1000, threshold: 1, cooldownMs: 7000, immediate: false });
    now = 6999;
    expect(store.read(['d'])[0]!.coolingMs).toBe(1);
    now = 7000;
    expect(store.read(['d'])[0]).toMatchObject({ coolingMs: 0, probation: true });
  });

  it('refuses a maxSessions that is not a positive integer', () => {
    expect(() => new MemoryDeploymentStore({ maxSessions: 0 })).toThrow(/maxSessions/);
  });
});
