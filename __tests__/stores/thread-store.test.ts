/** MemoryThreadStore: the shared ThreadStore contract, its caps and its options. */
import { MemoryThreadStore } from '../../lib';
import { describeThreadStoreContract, sampleThread } from '../helpers/thread-store-contract';

describeThreadStoreContract('MemoryThreadStore', {
  create: async (idleSeconds) => new MemoryThreadStore(idleSeconds ? { idleSeconds } : {}),
});

describe('MemoryThreadStore', () => {
  it('evicts the oldest turns past its entry cap and its byte cap', () => {
    const byEntries = new MemoryThreadStore({ maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) byEntries.put('o', id, sampleThread());
    expect(byEntries.get('o', 'a')).toBeUndefined();
    expect(byEntries.get('o', 'c')).toBeDefined();
    expect(byEntries.size.entries).toBe(2);
    const one = Buffer.byteLength(JSON.stringify(sampleThread()));
    const byBytes = new MemoryThreadStore({ maxBytes: one * 2 });
    for (const id of ['a', 'b', 'c']) byBytes.put('o', id, sampleThread());
    expect(byBytes.size).toEqual({ entries: 2, bytes: one * 2 });
    const tiny = new MemoryThreadStore({ maxBytes: 10 });
    tiny.put('o', 'a', sampleThread());
    expect(tiny.get('o', 'a')).toBeUndefined();
  });

  it('refuses a bad option by name', () => {
    expect(() => new MemoryThreadStore({ idleSeconds: 0 })).toThrow(/idleSeconds/);
    expect(() => new MemoryThreadStore({ idle: 5 } as never)).toThrow(/idle/);
  });
});
