/** MemoryUsageLog: the usage log contract, its ring's capacity, and its option check. */
import { GatewayConfigError, MemoryUsageLog, type UsageRecord } from '../../lib';
import { describeUsageLogContract, sampleUsageRecord } from '../helpers/usage-log-contract';

describeUsageLogContract('MemoryUsageLog', { create: async () => new MemoryUsageLog() });

describe('MemoryUsageLog', () => {
  it('keeps the last capacity records, the oldest overwritten first', () => {
    const log = new MemoryUsageLog({ capacity: 3 });
    const records = Array.from({ length: 5 }, (_, index) => sampleUsageRecord(`k${index}`));
    for (const record of records) log.record(record);
    expect(log.size).toBe(3);
    expect(log.query()).toEqual([records[4], records[3], records[2]]);
    expect(log.query({ keyId: 'k1' })).toEqual([]);
  });

  it('answers every shape of record exactly as recorded, each a copy', () => {
    const log = new MemoryUsageLog({ capacity: 20 });
    const records: UsageRecord[] = [
      sampleUsageRecord('alice'),
      sampleUsageRecord(undefined, { outcome: 'error', status: 401, attempts: [], usage: undefined }),
      sampleUsageRecord('bob', {
        stream: true,
        usage: {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 1,
          cacheWriteTokens: 2,
          cacheWriteLongTokens: 3,
          reasoningTokens: 4,
        },
        credits: {
          held: 9,
          charged: 7.5,
          settlement: 'cancelled',
          split: { input: 1, cacheRead: 2, cacheWrite: 3, output: 1.5, image: 0, total: 7.5 },
        },
      }),
      sampleUsageRecord('carol', { operation: 'image', images: 2, usage: undefined, usageSource: undefined }),
      // Kept whole: an error, a fallback's attempts, a field the ring does not know.
      sampleUsageRecord('dave', {
        outcome: 'error',
        status: 502,
        error: { kind: 'upstream', status: 502, message: 'The upstream failed.' },
      }),
      sampleUsageRecord('erin', {
        attempts: [
          { model: 'a', provider: 'p', upstreamModel: 'a-1', error: { kind: 'upstream', status: 503 } },
          { model: 'b', provider: 'p', upstreamModel: 'b-1' },
        ],
      }),
      { ...sampleUsageRecord('frank'), note: 'extra' } as UsageRecord,
      // Packed: a call served by a deployment, its session held.
      sampleUsageRecord('grace', {
        deployment: 'acct-a',
        affinity: 'held',
        attempts: [{ model: 'pool', provider: 'acct-a', upstreamModel: 'up-a', deployment: 'acct-a' }],
      }),
      // Kept whole: a deployment passed over on the way.
      sampleUsageRecord('heidi', {
        deployment: 'acct-b',
        affinity: 'moved',
        attempts: [
          { model: 'pool', provider: 'acct-a', upstreamModel: 'up-a', deployment: 'acct-a', skipped: 'cooldown' },
          { model: 'pool', provider: 'acct-b', upstreamModel: 'up-b', deployment: 'acct-b' },
        ],
      }),
    ];
    // Fields a record leaves out are absent, not undefined.
    for (const record of records)
      for (const field of Object.keys(record) as (keyof UsageRecord)[])
        if (record[field] === undefined) delete record[field];
    for (const record of records) log.record(record);
    const expected = structuredClone([...records].reverse());
    const answered = log.query();
    expect(answered).toStrictEqual(expected);
    // Changing an answered record changes nothing kept.
    for (const record of answered) {
      record.status = 599;
      record.credits.charged = -1;
      record.timings.ended = 0;
      record.attempts.length = 0;
      if (record.usage) record.usage.inputTokens = -1;
    }
    expect(log.query()).toStrictEqual(expected);
  });

  it('packs a call served by a deployment, with its session’s affinity, into its columns', () => {
    const log = new MemoryUsageLog({ capacity: 2 });
    const record = sampleUsageRecord('alice', {
      deployment: 'acct-a',
      affinity: 'new',
      attempts: [{ model: 'pool', provider: 'acct-a', upstreamModel: 'up-a', deployment: 'acct-a' }],
    });
    log.record(record);
    log.record(sampleUsageRecord('bob', { deployment: 'acct-b' }));
    const ring = (log as unknown as { ring: { whole: unknown[] } }).ring;
    expect(ring.whole).toEqual([undefined, undefined]);
    expect(log.query({ keyId: 'alice' })).toStrictEqual([record]);
  });

  it('filters records kept whole and packed alike', () => {
    const log = new MemoryUsageLog({ capacity: 4 });
    const failed = sampleUsageRecord('alice', {
      outcome: 'error',
      status: 500,
      error: { kind: 'internal', status: 500, message: 'Failed.' },
    });
    const answered = sampleUsageRecord('alice');
    const other = sampleUsageRecord('bob');
    for (const record of [failed, answered, other]) log.record(record);
    expect(log.query({ keyId: 'alice' })).toStrictEqual([answered, failed]);
    expect(log.query({ until: failed.timings.ended - 1 })).toStrictEqual([]);
  });

  it('keeps 10,000 records by default', () => {
    expect(new MemoryUsageLog().capacity).toBe(10_000);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses capacity %s', (capacity) => {
    expect(() => new MemoryUsageLog({ capacity })).toThrow(GatewayConfigError);
  });
});
