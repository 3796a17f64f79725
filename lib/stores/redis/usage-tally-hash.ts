/**
 * How a {@link UsageTally} is kept in a Redis hash (RedisUsageStream's buckets): the fields one record increments, and
 * the tally a hash's fields stand for.
 *
 * | Field | Holds |
 * |---|---|
 * | `calls`, `ok`, `errors`, `cancelled` | call counts |
 * | `in`, `out`, `credits` | input tokens, output tokens, credits charged |
 * | `l:<bin>`, `f:<bin>` | latency and time-to-first-token counts per histogram bin (lib/usage/tally.ts) |
 * | `lmax`, `fmax` | the longest latency and time to first token (ms) |
 * | `e:<kind> <status>` | failed calls of that kind and status |
 * | `kc:<id>`, `ke:<id>`, `kt:<id>`, `kx:<id>` | a key id's calls, errors, tokens, credits (`kc` … without `:<id>`: no key) |
 * | `mc:<id>`, `me:<id>`, `mt:<id>`, `mx:<id>` | the same per public model id |
 */
import type { UsageRecord } from '../../usage/record';
import {
  durationsOf,
  emptyTally,
  errorKindOf,
  histogramBin,
  type LatencyHistogram,
  type SpendTally,
  type UsageTally,
} from '../../usage/tally';

/** What one record adds to a bucket's hash: fields to increment (`HINCRBYFLOAT`) and fields that keep a maximum. */
export interface TallyFields {
  increments: Array<[field: string, by: number]>;
  maxima: Array<[field: string, value: number]>;
}

/** The fields one record adds to each bucket's hash it ends in. */
export function tallyFields(record: UsageRecord): TallyFields {
  const input = record.usage?.inputTokens ?? 0;
  const output = record.usage?.outputTokens ?? 0;
  const tokens = input + output;
  const credits = record.credits.charged;
  const failed = record.outcome === 'error';
  const increments: Array<[string, number]> = [['calls', 1]];
  const add = (field: string, by: number) => {
    if (by !== 0) increments.push([field, by]);
  };
  add(failed ? 'errors' : record.outcome === 'ok' ? 'ok' : 'cancelled', 1);
  add('in', input);
  add('out', output);
  add('credits', credits);
  if (failed) add(`e:${errorKindOf(record).id}`, 1);
  const maxima: Array<[string, number]> = [];
  const { latency, timeToFirstToken } = durationsOf(record);
  if (latency !== undefined) {
    add(`l:${histogramBin(latency)}`, 1);
    maxima.push(['lmax', latency]);
  }
  if (timeToFirstToken !== undefined) {
    add(`f:${histogramBin(timeToFirstToken)}`, 1);
    maxima.push(['fmax', timeToFirstToken]);
  }
  for (const [prefix, name] of [
    ['k', record.keyId],
    ['m', record.model],
  ] as const) {
    const suffix = name === undefined ? '' : `:${name}`;
    add(`${prefix}c${suffix}`, 1);
    if (failed) add(`${prefix}e${suffix}`, 1);
    add(`${prefix}t${suffix}`, tokens);
    add(`${prefix}x${suffix}`, credits);
  }
  return { increments, maxima };
}

const SPEND_FIELDS: Record<string, keyof SpendTally> = { c: 'calls', e: 'errors', t: 'tokens', x: 'credits' };
const COUNTERS: Record<string, 'calls' | 'ok' | 'errors' | 'cancelled' | 'inputTokens' | 'outputTokens' | 'credits'> = {
  calls: 'calls',
  ok: 'ok',
  errors: 'errors',
  cancelled: 'cancelled',
  in: 'inputTokens',
  out: 'outputTokens',
  credits: 'credits',
};

/** The tally a bucket's hash holds (`HGETALL`); fields it does not know are skipped. */
export function tallyOfHash(hash: Record<string, string>): UsageTally {
  const tally = emptyTally();
  for (const [field, text] of Object.entries(hash)) {
    const value = Number(text);
    if (!Number.isFinite(value)) continue;
    const counter = COUNTERS[field];
    if (counter) tally[counter] += value;
    else if (field === 'lmax') setMax(tally.latency, value);
    else if (field === 'fmax') setMax(tally.timeToFirstToken, value);
    else if (field.startsWith('l:')) addBin(tally.latency, field, value);
    else if (field.startsWith('f:')) addBin(tally.timeToFirstToken, field, value);
    else if (field.startsWith('e:')) {
      const id = field.slice(2);
      const at = id.lastIndexOf(' ');
      tally.errorKinds.set(id, { kind: id.slice(0, at), status: Number(id.slice(at + 1)), count: value });
    } else if ((field[0] === 'k' || field[0] === 'm') && SPEND_FIELDS[field[1] ?? ''] !== undefined) {
      if (field.length > 2 && field[2] !== ':') continue;
      const rows = field[0] === 'k' ? tally.keys : tally.models;
      const name = field.length === 2 ? null : field.slice(3);
      let row = rows.get(name);
      if (!row) rows.set(name, (row = { calls: 0, errors: 0, tokens: 0, credits: 0 }));
      row[SPEND_FIELDS[field[1]!]!] += value;
    }
  }
  return tally;
}

function addBin(histogram: LatencyHistogram, field: string, count: number): void {
  const bin = Number(field.slice(2));
  if (!Number.isInteger(bin)) return;
  histogram.bins.set(bin, (histogram.bins.get(bin) ?? 0) + count);
  histogram.count += count;
}

function setMax(histogram: LatencyHistogram, value: number): void {
  if (histogram.max === null || value > histogram.max) histogram.max = value;
}
