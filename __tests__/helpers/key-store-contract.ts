/** The KeyStore contract as one test suite, run against every key store (memory, Redis) through a harness. */
import { fingerprintKey, type KeyStore, type MaybePromise, type MemoryKeyEntry, type Principal } from '../../lib';

/** A key store plus the helpers the contract tests manage keys with. */
export interface KeyStoreUnderTest extends KeyStore {
  add(entry: MemoryKeyEntry): MaybePromise<Principal>;
  removeById(id: string): MaybePromise<boolean>;
}

/** How the contract gets stores. Every store it gets is fresh: no keys but the ones given. */
export interface KeyStoreHarness {
  create(entries: readonly MemoryKeyEntry[]): Promise<KeyStoreUnderTest>;
}

const ALICE = 'sk-alice-0123456789abcdef';
const BOB = 'sk-bob-0123456789abcdef';

/** Defines the contract's describe blocks for one store. */
export function describeKeyStoreContract(name: string, harness: KeyStoreHarness): void {
  describe(`${name} keeps the KeyStore contract`, () => {
    it('returns the principal of a known key: id, allowedModels and metadata', async () => {
      const store = await harness.create([
        {
          key: ALICE,
          id: 'alice',
          allowedModels: ['rosetta-echo', 'openai/*'],
          metadata: { plan: 'pro', seats: 3, tags: ['a'] },
        },
        { key: BOB, id: 'bob' },
      ]);
      expect(await store.authenticate(ALICE)).toEqual({
        id: 'alice',
        allowedModels: ['rosetta-echo', 'openai/*'],
        metadata: { plan: 'pro', seats: 3, tags: ['a'] },
      });
      expect(await store.authenticate(BOB)).toEqual({ id: 'bob' });
    });

    it('returns undefined for unknown keys, near misses included', async () => {
      const store = await harness.create([{ key: ALICE, id: 'alice' }]);
      for (const attempt of [
        'sk-unknown',
        ALICE.slice(0, -1),
        `${ALICE}0`,
        ALICE.toUpperCase(),
        ` ${ALICE}`,
        ALICE.replace('a', 'b'),
        'alice',
        '',
      ]) {
        expect(await store.authenticate(attempt)).toBeUndefined();
      }
    });

    it('gives a key without an id a fingerprint id that does not contain the key', async () => {
      const store = await harness.create([]);
      const principal = await store.add({ key: ALICE });
      expect(principal.id).toBe(fingerprintKey(ALICE));
      expect(principal.id).not.toContain(ALICE);
      expect(await store.authenticate(ALICE)).toEqual({ id: fingerprintKey(ALICE) });
    });

    it('adding a key again replaces its principal', async () => {
      const store = await harness.create([{ key: ALICE, id: 'alice', allowedModels: ['a'] }]);
      await store.add({ key: ALICE, id: 'alice-2', metadata: { v: 2 } });
      expect(await store.authenticate(ALICE)).toEqual({ id: 'alice-2', metadata: { v: 2 } });
    });

    it('removeById removes the key; removing an unknown id reports false', async () => {
      const store = await harness.create([
        { key: ALICE, id: 'alice' },
        { key: BOB, id: 'bob' },
      ]);
      expect(await store.removeById('alice')).toBe(true);
      expect(await store.authenticate(ALICE)).toBeUndefined();
      expect(await store.authenticate(BOB)).toEqual({ id: 'bob' });
      expect(await store.removeById('alice')).toBe(false);
      expect(await store.removeById('nobody')).toBe(false);
    });

    it('matches any string as a key, exactly: unicode, long, with separators', async () => {
      const keys = ['ключ-🔑-鍵', 'x'.repeat(4096), 'key:with:colons{and}braces', 'a b\tc\nd'];
      const store = await harness.create(keys.map((key, index) => ({ key, id: `k${index}` })));
      for (const [index, key] of keys.entries()) expect(await store.authenticate(key)).toEqual({ id: `k${index}` });
      expect(await store.authenticate('ключ-🔑-鍵 ')).toBeUndefined();
    });

    it('answers many concurrent lookups correctly', async () => {
      const entries = Array.from({ length: 50 }, (_, index) => ({
        key: `sk-many-${index}-secret`,
        id: `many-${index}`,
      }));
      const store = await harness.create(entries);
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, index) =>
          store.authenticate(index % 60 < 50 ? `sk-many-${index % 60}-secret` : `sk-none-${index}`),
        ),
      );
      answers.forEach((principal, index) => {
        expect(principal).toEqual(index % 60 < 50 ? { id: `many-${index % 60}` } : undefined);
      });
    });
  });
}
