/** MemoryUsageLog: the usage log contract, its ring's capacity, and its option check. */
import { GatewayConfigError, MemoryUsageLog } from '../../lib';
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

  it('keeps 10,000 records by default', () => {
    expect(new MemoryUsageLog().capacity).toBe(10_000);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses capacity %s', (capacity) => {
    expect(() => new MemoryUsageLog({ capacity })).toThrow(GatewayConfigError);
  });
});
