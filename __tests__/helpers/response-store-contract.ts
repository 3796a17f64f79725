/** The ResponseStore contract as one test suite, run against every response store (memory, Redis) through a harness. */
import type { ResponseStore, StoredResponse } from '../../lib';

/** How the contract gets stores: each one fresh, holding nothing. */
export interface ResponseStoreHarness {
  create(): Promise<ResponseStore>;
}

/**
 * A record as the gateway writes one: a Response object, canonical messages with a signed reasoning part, input items.
 */
export function sampleRecord(id: string, text = 'Hello'): StoredResponse {
  return {
    response: {
      id,
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      output: [
        {
          type: 'message',
          id: `msg_${id}_0`,
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
    },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Hi ünïcödé 🔑' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'think', signature: 'sig==' },
          { type: 'text', text },
        ],
      },
    ],
    inputItems: [
      { type: 'message', id: `msg_${id}_in0`, role: 'user', content: [{ type: 'input_text', text: 'Hi ünïcödé 🔑' }] },
    ],
    createdAt: 1_700_000_000,
  };
}

/** Defines the contract's describe block for one store. */
export function describeResponseStoreContract(name: string, harness: ResponseStoreHarness): void {
  describe(`${name} keeps the ResponseStore contract`, () => {
    it('gives back what was put, equal and not the same object', async () => {
      const store = await harness.create();
      const record = sampleRecord('resp_a');
      await store.put('alice', 'resp_a', record);
      const got = await store.get('alice', 'resp_a');
      expect(got).toEqual(record);
      expect(got).not.toBe(record);
    });

    it('finds a record only with the owner that put it', async () => {
      const store = await harness.create();
      await store.put('alice', 'resp_a', sampleRecord('resp_a'));
      expect(await store.get('bob', 'resp_a')).toBeUndefined();
      expect(await store.delete('bob', 'resp_a')).toBe(false);
      expect(await store.get('alice', 'resp_a')).toBeDefined();
    });

    it('keeps owners apart whatever their ids contain', async () => {
      const store = await harness.create();
      await store.put('a:1', 'b', sampleRecord('b', 'first'));
      await store.put('a', '1:b', sampleRecord('1:b', 'second'));
      expect((await store.get('a:1', 'b'))!.response.id).toBe('b');
      expect((await store.get('a', '1:b'))!.response.id).toBe('1:b');
      expect(await store.get('a', '1:b:')).toBeUndefined();
    });

    it('returns undefined for an unknown id', async () => {
      const store = await harness.create();
      expect(await store.get('alice', 'resp_missing')).toBeUndefined();
    });

    it('replaces a record put again under the same id', async () => {
      const store = await harness.create();
      await store.put('alice', 'resp_a', sampleRecord('resp_a', 'one'));
      await store.put('alice', 'resp_a', sampleRecord('resp_a', 'two'));
      expect((await store.get('alice', 'resp_a'))!.messages[1]!.content[1]).toEqual({ type: 'text', text: 'two' });
    });

    it("finds a record's output and input items by their ids, only with the owner that put it", async () => {
      const store = await harness.create();
      const record = sampleRecord('resp_a');
      await store.put('alice', 'resp_a', record);
      const output = (record.response.output as Array<Record<string, unknown>>)[0]!;
      expect(await store.findItem!('alice', 'msg_resp_a_0')).toEqual(output);
      expect(await store.findItem!('alice', 'msg_resp_a_in0')).toEqual(record.inputItems[0]);
      expect(await store.findItem!('bob', 'msg_resp_a_0')).toBeUndefined();
      expect(await store.findItem!('alice', 'msg_unknown')).toBeUndefined();
      expect(await store.findItem!('alice', 'resp_a')).toBeUndefined();
    });

    it('finds an item held by several records in the one put last, and no item of a deleted record', async () => {
      const store = await harness.create();
      const first = sampleRecord('resp_a');
      const second = sampleRecord('resp_b');
      second.inputItems = [...first.inputItems, ...(first.response.output as Array<Record<string, unknown>>)];
      await store.put('alice', 'resp_a', first);
      await store.put('alice', 'resp_b', second);
      expect(await store.delete('alice', 'resp_a')).toBe(true);
      expect(await store.findItem!('alice', 'msg_resp_a_0')).toEqual(second.inputItems[1]);
      expect(await store.delete('alice', 'resp_b')).toBe(true);
      expect(await store.findItem!('alice', 'msg_resp_a_0')).toBeUndefined();
      expect(await store.findItem!('alice', 'msg_resp_b_0')).toBeUndefined();
    });

    it('deletes a record once: true, then false, and it is gone', async () => {
      const store = await harness.create();
      await store.put('alice', 'resp_a', sampleRecord('resp_a'));
      expect(await store.delete('alice', 'resp_a')).toBe(true);
      expect(await store.delete('alice', 'resp_a')).toBe(false);
      expect(await store.get('alice', 'resp_a')).toBeUndefined();
    });
  });
}
