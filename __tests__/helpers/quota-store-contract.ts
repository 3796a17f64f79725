/** The QuotaStore contract as one test suite, run against every quota store (memory, Redis) through a harness. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { MaybePromise, QuotaStore, Reservation, ReserveResult } from '../../lib';

/** An account as the test stores report it, in credits. */
export interface AccountView {
  balance: number;
  reserved: number;
  spent: number;
  available: number;
}

/** A quota store plus the helpers the contract tests read and fund it with. */
export interface QuotaStoreUnderTest extends QuotaStore {
  getAccount(keyId: string): MaybePromise<AccountView>;
  setBalance(keyId: string, balance: number): MaybePromise<void>;
}

/** How the contract gets stores. Every store it gets is fresh: no balances but the ones asked for. */
export interface QuotaStoreHarness {
  create(balances: Record<string, number>): Promise<QuotaStoreUnderTest>;
  /** For stores whose reservations expire: a fresh store whose holds lapse `ttlMs` after they are made. */
  createExpiring?(balances: Record<string, number>, ttlMs: number): Promise<QuotaStoreUnderTest>;
}

const info = { model: 'contract-model', operation: 'generate' as const, requestId: 'req_contract' };

function held(result: ReserveResult): Reservation {
  if (!result.ok) throw new Error(`expected a hold, got a refusal: ${JSON.stringify(result)}`);
  return result.reservation;
}

/** A deterministic spread of numbers in [0, 1) so failures reproduce. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Defines the contract's describe blocks for one store. */
export function describeQuotaStoreContract(name: string, harness: QuotaStoreHarness): void {
  describe(`${name} keeps the QuotaStore contract`, () => {
    it('holds the full amount when it is available; settle charges the actual usage and frees the rest', async () => {
      const store = await harness.create({ a: 100 });
      const reservation = held(await store.reserve('a', 60, { minimum: 10, info }));
      expect(reservation).toMatchObject({ keyId: 'a', amount: 60 });
      expect(typeof reservation.id).toBe('string');
      expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 60, spent: 0, available: 40 });
      await store.settle(reservation, 25);
      expect(await store.getAccount('a')).toMatchObject({ balance: 75, reserved: 0, spent: 25, available: 75 });
    });

    it('gives each reservation its own id', async () => {
      const store = await harness.create({ a: 100 });
      const ids = new Set<string>();
      for (let index = 0; index < 20; index++) ids.add(held(await store.reserve('a', 1, { minimum: 1, info })).id);
      expect(ids.size).toBe(20);
    });

    it('partial holds: holds what is available when that is at least the minimum, then refuses', async () => {
      const store = await harness.create({ a: 100 });
      expect(held(await store.reserve('a', 60, { minimum: 10, info })).amount).toBe(60);
      expect(held(await store.reserve('a', 60, { minimum: 10, info })).amount).toBe(40);
      expect(await store.reserve('a', 60, { minimum: 1, info })).toMatchObject({
        ok: false,
        reason: 'insufficient_balance',
        available: 0,
      });
      expect(await store.getAccount('a')).toMatchObject({ reserved: 100, available: 0 });
    });

    it('refuses a hold below the minimum, holds nothing, and says what is available', async () => {
      const store = await harness.create({ a: 5 });
      expect(await store.reserve('a', 20, { minimum: 10, info })).toMatchObject({
        ok: false,
        reason: 'insufficient_balance',
        available: 5,
      });
      expect(await store.getAccount('a')).toMatchObject({ balance: 5, reserved: 0, spent: 0 });
      expect(held(await store.reserve('a', 20, { minimum: 5, info })).amount).toBe(5);
    });

    it('refuses when nothing is left, even with a minimum of 0', async () => {
      const store = await harness.create({ a: 0 });
      expect(await store.reserve('a', 10, { minimum: 0, info })).toMatchObject({ ok: false, available: 0 });
    });

    it('release frees the whole hold and charges nothing', async () => {
      const store = await harness.create({ a: 100 });
      const reservation = held(await store.reserve('a', 80, { minimum: 1, info }));
      await store.release(reservation);
      expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 0, spent: 0, available: 100 });
    });

    it('settlement is idempotent: a second settle or release of a reservation changes nothing', async () => {
      const store = await harness.create({ a: 100 });
      const first = held(await store.reserve('a', 30, { minimum: 1, info }));
      const second = held(await store.reserve('a', 30, { minimum: 1, info }));
      const third = held(await store.reserve('a', 30, { minimum: 1, info }));
      await store.settle(first, 10);
      await store.settle(first, 10);
      await store.release(first);
      await store.release(second);
      await store.release(second);
      await store.settle(second, 20);
      await store.settle(third, 5);
      await store.settle(third, 50);
      expect(await store.getAccount('a')).toMatchObject({ balance: 85, reserved: 0, spent: 15, available: 85 });
    });

    it('settling one reservation many times at once charges it once', async () => {
      const store = await harness.create({ a: 1000 });
      const reservation = held(await store.reserve('a', 100, { minimum: 1, info }));
      await Promise.all(Array.from({ length: 50 }, () => store.settle(reservation, 40)));
      expect(await store.getAccount('a')).toMatchObject({ balance: 960, reserved: 0, spent: 40 });
    });

    it('charges the full actual usage when it exceeds the hold, rather than lose the charge', async () => {
      const store = await harness.create({ a: 100 });
      const reservation = held(await store.reserve('a', 10, { minimum: 1, info }));
      await store.settle(reservation, 15);
      expect(await store.getAccount('a')).toMatchObject({ balance: 85, reserved: 0, spent: 15 });
    });

    it('an overrun may take the balance below 0; the key is then refused until it is funded again', async () => {
      const store = await harness.create({ a: 100 });
      const reservation = held(await store.reserve('a', 10, { minimum: 1, info }));
      await store.settle(reservation, 130, { settlement: 'completed', overrun: 120 });
      expect(await store.getAccount('a')).toMatchObject({ balance: -30, reserved: 0, spent: 130, available: -30 });
      expect(await store.reserve('a', 1, { minimum: 0, info })).toMatchObject({
        ok: false,
        reason: 'insufficient_balance',
        available: 0,
      });
      await store.setBalance('a', 50);
      expect(held(await store.reserve('a', 20, { minimum: 1, info })).amount).toBe(20);
    });

    it('a negative actual charges nothing', async () => {
      const store = await harness.create({ a: 100 });
      await store.settle(held(await store.reserve('a', 10, { minimum: 1, info })), -5);
      expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 0, spent: 0 });
    });

    it('a reservation the store never made charges and frees nothing', async () => {
      const store = await harness.create({ a: 100 });
      held(await store.reserve('a', 40, { minimum: 1, info }));
      await store.settle({ id: 'forged-reservation', keyId: 'a', amount: 40 }, 40);
      await store.release({ id: 'forged-reservation', keyId: 'a', amount: 40 });
      expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 40, spent: 0 });
    });

    it('keeps keys apart', async () => {
      const store = await harness.create({ a: 100, b: 10 });
      await store.settle(held(await store.reserve('a', 50, { minimum: 1, info })), 50);
      expect(await store.getAccount('b')).toMatchObject({ balance: 10, reserved: 0, spent: 0 });
      expect(await store.reserve('b', 20, { minimum: 20, info })).toMatchObject({ ok: false, available: 10 });
    });

    it('setBalance changes what a key may spend; open holds stay held', async () => {
      const store = await harness.create({ a: 10 });
      const reservation = held(await store.reserve('a', 10, { minimum: 1, info }));
      await store.setBalance('a', 50);
      expect(await store.getAccount('a')).toMatchObject({ balance: 50, reserved: 10, available: 40 });
      await store.settle(reservation, 10);
      expect(await store.getAccount('a')).toMatchObject({ balance: 40, reserved: 0, spent: 10 });
    });

    it('takes fractional credits', async () => {
      const store = await harness.create({ a: 1.5 });
      const reservation = held(await store.reserve('a', 0.75, { minimum: 0.25, info }));
      expect(reservation.amount).toBeCloseTo(0.75, 9);
      await store.settle(reservation, 0.1 + 0.2);
      const account = await store.getAccount('a');
      expect(account.balance).toBeCloseTo(1.2, 9);
      expect(account.spent).toBeCloseTo(0.3, 9);
      expect(account.reserved).toBeCloseTo(0, 9);
    });

    it('hundreds of concurrent reserves never hold more than the balance, and their settles charge exactly the usage', async () => {
      const store = await harness.create({ a: 10_000 });
      const results = await Promise.all(
        Array.from({ length: 300 }, () => store.reserve('a', 50, { minimum: 50, info })),
      );
      const holds = results.filter((result) => result.ok).map(held);
      expect(holds).toHaveLength(200);
      expect(results.filter((result) => !result.ok)).toHaveLength(100);
      expect(await store.getAccount('a')).toMatchObject({ reserved: 10_000, available: 0 });
      const actuals = holds.map((_, index) => 1 + ((index * 37) % 50));
      await Promise.all(holds.map((reservation, index) => store.settle(reservation, actuals[index]!)));
      const charged = actuals.reduce((sum, actual) => sum + actual, 0);
      expect(await store.getAccount('a')).toMatchObject({
        balance: 10_000 - charged,
        reserved: 0,
        spent: charged,
        available: 10_000 - charged,
      });
    });

    it('hundreds of concurrent reserve → call → settle/release cycles never overspend, and charge exactly what was used', async () => {
      const balance = 5_000;
      const store = await harness.create({ a: balance });
      const random = sequence(7);
      const plan = Array.from({ length: 400 }, (_, index) => ({
        delayMs: Math.floor(random() * 4),
        use: 5 + Math.floor(random() * 36),
        fails: index % 9 === 0,
      }));
      let running = true;
      const lowest = { balance: Infinity, available: Infinity };
      const watcher = (async () => {
        while (running) {
          const account = await store.getAccount('a');
          lowest.balance = Math.min(lowest.balance, account.balance);
          lowest.available = Math.min(lowest.available, account.available);
          await sleep(1);
        }
      })();
      const outcomes = await Promise.all(
        plan.map(async (step) => {
          const result = await store.reserve('a', 40, { minimum: 10, info });
          if (!result.ok) return { served: false, charged: 0, partial: false };
          await sleep(step.delayMs);
          if (step.fails) {
            await store.release(result.reservation);
            return { served: false, charged: 0, partial: false };
          }
          const charged = Math.min(step.use, result.reservation.amount);
          await store.settle(result.reservation, charged);
          return { served: true, charged, partial: result.reservation.amount < 40 };
        }),
      );
      running = false;
      await watcher;
      const charged = outcomes.reduce((sum, outcome) => sum + outcome.charged, 0);
      const account = await store.getAccount('a');
      expect(account).toMatchObject({ spent: charged, balance: balance - charged, reserved: 0 });
      expect(account.balance).toBeGreaterThanOrEqual(0);
      expect(lowest.balance).toBeGreaterThanOrEqual(0);
      expect(lowest.available).toBeGreaterThanOrEqual(0);
      expect(outcomes.filter((outcome) => outcome.served).length).toBeGreaterThan(0);
      expect(outcomes.filter((outcome) => !outcome.served && outcome.charged === 0).length).toBeGreaterThan(
        plan.filter((step) => step.fails).length,
      );
    });

    if (harness.createExpiring) {
      const createExpiring = harness.createExpiring.bind(harness);
      const ttlMs = 200;
      const lapse = () => sleep(ttlMs + 150);

      describe('reservations expire', () => {
        it('a hold neither settled nor released lapses after its TTL and goes back to the balance', async () => {
          // The hold counts while it lives: checked under a TTL no stall of this process can outlast (under 200 ms, a
          // busy machine that took 200 ms between the two calls saw the hold lapse before the refusal was asked for).
          const lasting = await createExpiring({ a: 100 }, 60_000);
          held(await lasting.reserve('a', 70, { minimum: 1, info }));
          expect(await lasting.reserve('a', 70, { minimum: 70, info })).toMatchObject({ ok: false, available: 30 });
          const store = await createExpiring({ a: 100 }, ttlMs);
          held(await store.reserve('a', 70, { minimum: 1, info }));
          await lapse();
          expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 0, spent: 0, available: 100 });
          expect(held(await store.reserve('a', 70, { minimum: 70, info })).amount).toBe(70);
        });

        it('a lapsed hold is returned by the next reserve, without any read in between', async () => {
          const store = await createExpiring({ a: 100 }, ttlMs);
          held(await store.reserve('a', 100, { minimum: 1, info }));
          await lapse();
          expect(held(await store.reserve('a', 100, { minimum: 100, info })).amount).toBe(100);
        });

        it('a late settle of a lapsed reservation still charges its usage, once', async () => {
          const store = await createExpiring({ a: 100 }, ttlMs);
          const reservation = held(await store.reserve('a', 60, { minimum: 1, info }));
          await lapse();
          await store.settle(reservation, 25);
          await store.settle(reservation, 25);
          await store.release(reservation);
          expect(await store.getAccount('a')).toMatchObject({ balance: 75, reserved: 0, spent: 25 });
        });

        it('releasing a lapsed reservation charges nothing, and a settle after it changes nothing', async () => {
          const store = await createExpiring({ a: 100 }, ttlMs);
          const reservation = held(await store.reserve('a', 60, { minimum: 1, info }));
          await lapse();
          await store.release(reservation);
          await store.settle(reservation, 25);
          expect(await store.getAccount('a')).toMatchObject({ balance: 100, reserved: 0, spent: 0 });
        });

        it('a reservation settled in time is not touched when its TTL passes', async () => {
          const store = await createExpiring({ a: 100 }, ttlMs);
          const reservation = held(await store.reserve('a', 60, { minimum: 1, info }));
          await store.settle(reservation, 20);
          await lapse();
          await store.settle(reservation, 20);
          expect(await store.getAccount('a')).toMatchObject({ balance: 80, reserved: 0, spent: 20 });
        });
      });
    }
  });
}
