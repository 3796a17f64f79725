/** The ThreadStore contract as one test suite, run against every thread store (memory, Redis) through a harness. */
import type { StoredThread, ThreadStore } from '../../lib';

/** How the contract gets stores: each one fresh, holding nothing; `idleSeconds` when the test needs a short one. */
export interface ThreadStoreHarness {
  create(idleSeconds?: number): Promise<ThreadStore>;
}

/** A turn as the gateway writes one: system, a tool call and its result, the answer, the tools, the fingerprint. */
export function sampleThread(text = 'done'): StoredThread {
  return {
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Be brief ünïcödé' }] },
      { role: 'user', content: [{ type: 'text', text: 'Add.' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'add', arguments: '{"step":1}' }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_1', toolName: 'add', content: [{ type: 'text', text: 'r1' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text }] },
    ],
    tools: [{ name: 'add', description: 'Adds.', parameters: { type: 'object', properties: {} } }],
    fingerprint: { system: 'sys-digest', tools: 'tools-digest' },
    createdAt: 1_700_000_000,
  };
}

export function describeThreadStoreContract(name: string, harness: ThreadStoreHarness): void {
  describe(`${name}: the ThreadStore contract`, () => {
    it('gives back what was put, for its owner only', async () => {
      const store = await harness.create();
      await store.put('alice', 'msg_1', sampleThread());
      expect(await store.get('alice', 'msg_1')).toEqual(sampleThread());
      expect(await store.get('bob', 'msg_1')).toBeUndefined();
      expect(await store.get('alice', 'msg_2')).toBeUndefined();
    });

    it('keeps owners apart whatever their ids contain', async () => {
      const store = await harness.create();
      await store.put('a:b', 'c', sampleThread('first'));
      await store.put('a', 'b:c', sampleThread('second'));
      expect((await store.get('a:b', 'c'))?.messages.at(-1)).toEqual(sampleThread('first').messages.at(-1));
      expect((await store.get('a', 'b:c'))?.messages.at(-1)).toEqual(sampleThread('second').messages.at(-1));
    });

    it('deletes a turn for its owner only', async () => {
      const store = await harness.create();
      await store.put('alice', 'msg_1', sampleThread());
      expect(await store.delete?.('bob', 'msg_1')).toBe(false);
      expect(await store.delete?.('alice', 'msg_1')).toBe(true);
      expect(await store.get('alice', 'msg_1')).toBeUndefined();
    });

    it('forgets a turn after its idle lifetime', async () => {
      const store = await harness.create(1);
      await store.put('alice', 'msg_1', sampleThread());
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await store.get('alice', 'msg_1')).toBeUndefined();
    });
  });
}
