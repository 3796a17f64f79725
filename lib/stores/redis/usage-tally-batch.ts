/**
 * One call of the usage stream's script for a batch of records: their entries, and what they add to each bucket's
 * tally merged per hash, so that a batch of records ending in the same buckets costs Redis one increment per field, not
 * one per record.
 */
import type { UsageRecord } from '../../usage/record';
import { bucketsOf } from './usage-tally-buckets';
import { tallyFields } from './usage-tally-hash';

/** The keys (their count first, as a script of a variable key count takes them) and arguments of the script's call. */
export interface UsageBatchCall {
  keys: string[];
  args: Array<string | number>;
}

interface HashChange {
  expireAt: number;
  increments: Map<string, number>;
  maxima: Map<string, number>;
}

/** The script's call for `records` (in order) on the stream `streamKey` (USAGE_SCRIPTS.record, lib/stores/redis/scripts.ts). */
export function usageBatchCall(streamKey: string, maxLength: number, records: readonly UsageRecord[]): UsageBatchCall {
  const hashes = new Map<string, HashChange>();
  for (const record of records) {
    const { increments, maxima } = tallyFields(record);
    for (const bucket of bucketsOf(streamKey, record.timings.ended)) {
      let change = hashes.get(bucket.key);
      if (!change)
        hashes.set(bucket.key, (change = { expireAt: bucket.expireAt, increments: new Map(), maxima: new Map() }));
      for (const [field, by] of increments) change.increments.set(field, (change.increments.get(field) ?? 0) + by);
      for (const [field, value] of maxima) change.maxima.set(field, Math.max(change.maxima.get(field) ?? value, value));
    }
  }
  const args: Array<string | number> = [maxLength, records.length, ...records.map((record) => JSON.stringify(record))];
  for (const change of hashes.values()) {
    args.push(change.expireAt, change.increments.size, ...[...change.increments].flat());
    args.push(change.maxima.size, ...[...change.maxima].flat());
  }
  return { keys: [String(1 + hashes.size), streamKey, ...hashes.keys()], args };
}
