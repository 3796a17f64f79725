/** The DeploymentStateStore contract as one test suite, run against every deployment store (memory, Redis). */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeploymentFailure, DeploymentStateStore } from '../../lib';

/** How the contract gets stores: each one fresh (its own names, its own prefix). */
export interface DeploymentStoreHarness {
  create(): Promise<DeploymentStateStore>;
}

const counted = (threshold: number, cooldownMs = 60_000): DeploymentFailure => ({
  windowMs: 60_000,
  threshold,
  cooldownMs,
  immediate: false,
});

export function describeDeploymentStoreContract(name: string, harness: DeploymentStoreHarness): void {
  describe(`${name} (DeploymentStateStore contract)`, () => {
    it('answers a deployment it never saw as healthy', async () => {
      const store = await harness.create();
      expect(await store.read(['never', 'seen'])).toEqual([
        { coolingMs: 0, probation: false, probing: false, failures: 0, inFlight: 0 },
        { coolingMs: 0, probation: false, probing: false, failures: 0, inFlight: 0 },
      ]);
    });

    it('counts failures and cools down at the threshold, for the cooldown', async () => {
      const store = await harness.create();
      expect(await store.fail('d', counted(3))).toBe(0);
      expect(await store.fail('d', counted(3))).toBe(0);
      expect((await store.read(['d']))[0]).toMatchObject({ coolingMs: 0, failures: 2 });
      const cooled = await store.fail('d', counted(3));
      expect(cooled).toBeGreaterThan(59_000);
      expect(cooled).toBeLessThanOrEqual(60_000);
      const [state] = await store.read(['d']);
      expect(state!.coolingMs).toBeGreaterThan(59_000);
      expect(state!.probation).toBe(false);
    });

    it('cools down at once when told to, never shortening a longer cooldown', async () => {
      const store = await harness.create();
      expect(await store.fail('d', { ...counted(3, 7_000), immediate: true })).toBeGreaterThan(6_900);
      expect(await store.fail('d', { ...counted(3, 300_000), immediate: true })).toBeGreaterThan(299_000);
      expect(await store.fail('d', { ...counted(3, 1_000), immediate: true })).toBeGreaterThan(299_000);
    });

    it('after a cooldown: probation, one probe claim among many, a failed probe cools again at once', async () => {
      const store = await harness.create();
      await store.fail('d', { ...counted(1, 50), immediate: true });
      await sleep(80);
      expect((await store.read(['d']))[0]).toMatchObject({ coolingMs: 0, probation: true, probing: false });
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimProbe('d', 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await store.read(['d']))[0]).toMatchObject({ probation: true, probing: true });
      expect(await store.fail('d', counted(5, 60_000))).toBeGreaterThan(59_000);
      expect((await store.read(['d']))[0]).toMatchObject({ probation: false, probing: false });
    });

    it('a success ends cooldown, probation and the failure count', async () => {
      const store = await harness.create();
      await store.fail('d', counted(3));
      await store.fail('e', { ...counted(1), immediate: true });
      await store.succeed('d');
      await store.succeed('e');
      const states = await store.read(['d', 'e']);
      for (const state of states) expect(state).toMatchObject({ coolingMs: 0, probation: false, failures: 0 });
    });

    it('counts calls in flight', async () => {
      const store = await harness.create();
      await store.enter('d');
      await store.enter('d');
      await store.enter('e');
      await store.leave('d');
      expect((await store.read(['d', 'e'])).map((state) => state.inFlight)).toEqual([1, 1]);
    });

    it('remembers a session’s deployment for its idle time', async () => {
      const store = await harness.create();
      expect(await store.affinity('s')).toBeUndefined();
      await store.setAffinity('s', 'd1', 60_000);
      await store.setAffinity('t', 'd2', 40);
      expect(await store.affinity('s')).toBe('d1');
      await store.setAffinity('s', 'd3', 60_000);
      expect(await store.affinity('s')).toBe('d3');
      await sleep(80);
      expect(await store.affinity('t')).toBeUndefined();
      expect(await store.affinity('s')).toBe('d3');
    });
  });
}
