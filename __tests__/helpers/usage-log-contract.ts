/**
 * The contract every shipped usage log keeps (MemoryUsageLog, RedisUsageStream): a sink whose `query` answers newest
 * first, by key and by time window, at most `limit` records.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { UsageQuery, UsageRecord } from '../../lib';

/** A usage log as the contract drives it. */
export interface UsageLogUnderTest {
  record(record: UsageRecord): unknown;
  query(query?: UsageQuery): UsageRecord[] | Promise<UsageRecord[]>;
}

let made = 0;

/** A record of `keyId` (absent: a refused call without a key) that ended now. */
export function sampleUsageRecord(keyId: string | undefined, overrides: Partial<UsageRecord> = {}): UsageRecord {
  const now = Date.now();
  const record: UsageRecord = {
    requestId: `req_contract_${++made}`,
    protocol: 'openai-chat',
    operation: 'generate',
    stream: false,
    requestedModel: 'rosetta-echo',
    model: 'rosetta-echo',
    provider: 'local',
    upstreamModel: 'rosetta-echo',
    attempts: [{ model: 'rosetta-echo', provider: 'local', upstreamModel: 'rosetta-echo' }],
    outcome: 'ok',
    status: 200,
    usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 4 },
    usageSource: 'upstream',
    credits: { held: 100, charged: 15, settlement: 'completed' },
    timings: { received: now - 5, firstByte: now - 1, ended: now },
    ...overrides,
  };
  if (keyId !== undefined) record.keyId = keyId;
  return record;
}

/** Distinct milliseconds on either side of a boundary, so a window can split records recorded around it. */
async function boundary(): Promise<number> {
  await sleep(5);
  const at = Date.now();
  await sleep(5);
  return at;
}

export function describeUsageLogContract(name: string, setup: { create: () => Promise<UsageLogUnderTest> }): void {
  describe(`${name} (usage log contract)`, () => {
    it('answers every record, newest first, as it was recorded (plain JSON, nothing lost)', async () => {
      const log = await setup.create();
      const first = sampleUsageRecord('alice');
      const second = sampleUsageRecord(undefined, { outcome: 'error', status: 401, attempts: [] });
      const third = sampleUsageRecord('bob', { stream: true, outcome: 'cancelled' });
      for (const record of [first, second, third]) await log.record(record);
      expect(await log.query()).toEqual([third, second, first]);
    });

    it("filters by key: one key's records only, the refused calls without a key left out", async () => {
      const log = await setup.create();
      const records = [sampleUsageRecord('alice'), sampleUsageRecord('bob'), sampleUsageRecord(undefined)];
      records.push(sampleUsageRecord('alice'));
      for (const record of records) await log.record(record);
      const alice = await log.query({ keyId: 'alice' });
      expect(alice.map((record) => record.requestId)).toEqual([records[3]!.requestId, records[0]!.requestId]);
      expect(await log.query({ keyId: 'nobody' })).toEqual([]);
    });

    it('filters by time window, both ends inclusive of what falls inside', async () => {
      const log = await setup.create();
      const early = sampleUsageRecord('alice');
      await log.record(early);
      const from = await boundary();
      const middle = sampleUsageRecord('alice');
      await log.record(middle);
      const to = await boundary();
      const late = sampleUsageRecord('alice');
      await log.record(late);
      expect(await log.query({ since: from })).toEqual([late, middle]);
      expect(await log.query({ until: to })).toEqual([middle, early]);
      expect(await log.query({ keyId: 'alice', since: from, until: to })).toEqual([middle]);
    });

    it('returns at most limit records (the newest), also when filtering by key over many', async () => {
      const log = await setup.create();
      const records: UsageRecord[] = [];
      for (let index = 0; index < 1_200; index++) {
        const record = sampleUsageRecord(index % 3 === 0 ? 'alice' : 'bob');
        records.push(record);
        await log.record(record);
      }
      expect(await log.query({ limit: 2 })).toEqual([records[1_199], records[1_198]]);
      const alice = records.filter((record) => record.keyId === 'alice').reverse();
      expect(await log.query({ keyId: 'alice', limit: 300 })).toEqual(alice.slice(0, 300));
      expect(await log.query({ keyId: 'alice', limit: 1_000 })).toEqual(alice);
      expect(await log.query()).toHaveLength(100);
    });
  });
}
