/**
 * MemoryResponseStore: the shared contract, its TTL, its caps on entries and bytes (least recently used evicted first),
 * its options.
 */
import { GatewayConfigError, MemoryResponseStore } from '../../lib';
import { describeResponseStoreContract, sampleRecord } from '../helpers/response-store-contract';

describeResponseStoreContract('MemoryResponseStore', { create: async () => new MemoryResponseStore() });

afterEach(() => jest.restoreAllMocks());

/** Pins Date.now to a clock the test moves. */
function clock(start = 1_700_000_000_000): { advance(ms: number): void } {
  let now = start;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
  return {
    advance(ms) {
      now += ms;
    },
  };
}

describe('MemoryResponseStore expiry', () => {
  it('keeps a record for ttlSeconds after it was put, then no longer', () => {
    const time = clock();
    const store = new MemoryResponseStore({ ttlSeconds: 60 });
    store.put('alice', 'resp_a', sampleRecord('resp_a'));
    time.advance(59_999);
    expect(store.get('alice', 'resp_a')).toBeDefined();
    time.advance(1);
    expect(store.get('alice', 'resp_a')).toBeUndefined();
    expect(store.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("finds a record's items for as long as it keeps the record", () => {
    const time = clock();
    const store = new MemoryResponseStore({ ttlSeconds: 60 });
    store.put('alice', 'resp_a', sampleRecord('resp_a'));
    time.advance(59_999);
    expect(store.findItem('alice', 'msg_resp_a_0')).toBeDefined();
    time.advance(1);
    expect(store.findItem('alice', 'msg_resp_a_0')).toBeUndefined();
    expect(store.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps records 30 days by default', () => {
    const time = clock();
    const store = new MemoryResponseStore();
    store.put('alice', 'resp_a', sampleRecord('resp_a'));
    time.advance(30 * 86_400_000 - 1);
    expect(store.get('alice', 'resp_a')).toBeDefined();
    time.advance(1);
    expect(store.get('alice', 'resp_a')).toBeUndefined();
  });

  it('drops expired records first when the cap needs room', () => {
    const time = clock();
    const store = new MemoryResponseStore({ ttlSeconds: 10, maxEntries: 2 });
    store.put('alice', 'old', sampleRecord('old'));
    time.advance(5_000);
    store.put('alice', 'young', sampleRecord('young'));
    store.get('alice', 'old');
    time.advance(6_000);
    store.put('alice', 'new', sampleRecord('new'));
    expect(store.get('alice', 'young')).toBeDefined();
    expect(store.get('alice', 'new')).toBeDefined();
    expect(store.size.entries).toBe(2);
  });
});

describe('MemoryResponseStore size caps', () => {
  it('evicts the least recently used record past maxEntries (a read counts as use)', () => {
    const store = new MemoryResponseStore({ maxEntries: 2 });
    store.put('alice', 'a', sampleRecord('a'));
    store.put('bob', 'b', sampleRecord('b'));
    expect(store.get('alice', 'a')).toBeDefined();
    store.put('alice', 'c', sampleRecord('c'));
    expect(store.get('bob', 'b')).toBeUndefined();
    expect(store.get('alice', 'a')).toBeDefined();
    expect(store.get('alice', 'c')).toBeDefined();
  });

  it('evicts past maxBytes, counting each record as its UTF-8 JSON', () => {
    const bytes = Buffer.byteLength(JSON.stringify(sampleRecord('a')), 'utf8');
    const store = new MemoryResponseStore({ maxBytes: bytes * 2 });
    store.put('alice', 'a', sampleRecord('a'));
    store.put('alice', 'b', sampleRecord('b'));
    expect(store.size).toEqual({ entries: 2, bytes: bytes * 2 });
    store.put('alice', 'c', sampleRecord('c'));
    expect(store.get('alice', 'a')).toBeUndefined();
    expect(store.size).toEqual({ entries: 2, bytes: bytes * 2 });
  });

  it('does not keep a record larger than maxBytes by itself, and keeps the others', () => {
    const store = new MemoryResponseStore({ maxBytes: 2_000 });
    store.put('alice', 'small', sampleRecord('small'));
    store.put('alice', 'big', sampleRecord('big', 'x'.repeat(5_000)));
    expect(store.get('alice', 'big')).toBeUndefined();
    expect(store.get('alice', 'small')).toBeDefined();
  });

  it('frees the bytes of a replaced or deleted record', () => {
    const store = new MemoryResponseStore();
    store.put('alice', 'a', sampleRecord('a', 'x'.repeat(1_000)));
    store.put('alice', 'a', sampleRecord('a'));
    expect(store.size.bytes).toBe(Buffer.byteLength(JSON.stringify(sampleRecord('a')), 'utf8'));
    store.delete('alice', 'a');
    expect(store.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('MemoryResponseStore options', () => {
  it('refuses a misspelt option with a suggestion, and a non-positive number', () => {
    expect(() => new MemoryResponseStore({ ttlSecond: 5 } as never)).toThrow(
      /'ttlSecond' is not an option.*ttlSeconds/,
    );
    expect(() => new MemoryResponseStore({ maxEntries: 0 })).toThrow(GatewayConfigError);
    expect(() => new MemoryResponseStore({ maxBytes: Number.NaN })).toThrow(/maxBytes/);
  });
});
