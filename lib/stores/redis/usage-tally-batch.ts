/**
 * The usage stream's script and its call for a batch of records: their entries, and what they add to each bucket's
 * tally merged per hash, so that a batch of records ending in the same buckets costs Redis one increment per field, not
 * one per record.
 */
import type { UsageRecord } from '../../usage/record';
import { bucketsOf } from './usage-tally-buckets';
import type { ScriptDefinition } from './scripts';
import { tallyFields } from './usage-tally-hash';

/**
 * The usage stream's record, for a batch of records: appends each record's entry and counts them into their buckets'
 * tallies, in one step. KEYS: the stream, then the buckets' hashes. ARGV: max length, the number of records, their JSON
 * (in order), then per hash (in KEYS order) its expiry (epoch ms), the number of increments and their `field, by` pairs
 * (`HINCRBYFLOAT`: credits may be fractions), the number of maxima and their `field, value` pairs (the hash keeps the
 * larger). Returns the number of entries added.
 */
const USAGE_RECORD = `
local records = tonumber(ARGV[2])
for i = 1, records do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'record', ARGV[2 + i])
end
local at = 3 + records
for h = 2, #KEYS do
  local hash = KEYS[h]
  local expire_at = ARGV[at]
  local increments = tonumber(ARGV[at + 1])
  at = at + 2
  for i = 1, increments do
    redis.call('HINCRBYFLOAT', hash, ARGV[at], ARGV[at + 1])
    at = at + 2
  end
  local maxima = tonumber(ARGV[at])
  at = at + 1
  for i = 1, maxima do
    local kept = tonumber(redis.call('HGET', hash, ARGV[at]))
    if kept == nil or tonumber(ARGV[at + 1]) > kept then
      redis.call('HSET', hash, ARGV[at], ARGV[at + 1])
    end
    at = at + 2
  end
  redis.call('PEXPIREAT', hash, expire_at)
end
return records
`;

/** The usage stream's script. */
export const USAGE_SCRIPTS = Object.freeze({
  record: { name: 'rosettaUsageRecord', lua: USAGE_RECORD },
} satisfies Record<string, ScriptDefinition>);

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

/** The script's call for `records` (in order) on the stream `streamKey` ({@link USAGE_SCRIPTS}.record). */
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
