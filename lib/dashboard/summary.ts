/**
 * The dashboard's aggregates of a window of usage records (docs/operations.md, *Dashboard*): computed on the server, so
 * the page gets a few hundred numbers however many records the window holds, from the records themselves or from the
 * tallies a log keeps as they arrive (RedisUsageStream).
 */
import type { UsageRecord } from '../usage/record';
import {
  durationsOf,
  emptyTally,
  errorKindOf,
  histogramPercentile,
  type LatencyHistogram,
  mergeTally,
  type SpendTally,
  type UsageTallies,
} from '../usage/tally';

/** A window the page can choose: its name, its length and the width of one bar of its charts. */
export interface DashboardWindow {
  name: string;
  ms: number;
  bucketMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The windows the page offers, shortest first (about 60 buckets each). */
export const WINDOWS: readonly DashboardWindow[] = [
  { name: '15m', ms: 15 * MINUTE, bucketMs: 15_000 },
  { name: '1h', ms: HOUR, bucketMs: MINUTE },
  { name: '6h', ms: 6 * HOUR, bucketMs: 5 * MINUTE },
  { name: '24h', ms: 24 * HOUR, bucketMs: 20 * MINUTE },
  { name: '7d', ms: 7 * 24 * HOUR, bucketMs: 3 * HOUR },
];

/** The window named `name` (default one hour); undefined for a name the page does not offer. */
export function windowNamed(name: string | undefined): DashboardWindow | undefined {
  return WINDOWS.find((window) => window.name === (name ?? '1h'));
}

/** Percentiles of a set of durations, in ms (null when the set is empty). */
export interface Percentiles {
  count: number;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/** One row of the top keys or top models. */
export interface SpendRow {
  /** The key's id or the model's public id; null for calls without one (a refused key, an unknown model). */
  name: string | null;
  calls: number;
  errors: number;
  tokens: number;
  credits: number;
}

/** What `/api/summary` answers. */
export interface DashboardSummary {
  window: string;
  /** Epoch ms: the window's start and end. */
  from: number;
  to: number;
  bucketMs: number;
  /**
   * Records read; `truncated` when the window held more than the dashboard reads (`maxRecords`). From a log's kept
   * tallies: the calls they count, and never truncated.
   */
  scanned: number;
  truncated: boolean;
  totals: { calls: number; ok: number; errors: number; cancelled: number; tokens: number; credits: number };
  /** One entry per bucket: its start (epoch seconds, as the charts take it) and its figures. */
  series: {
    time: number[];
    calls: number[];
    errors: number[];
    inputTokens: number[];
    outputTokens: number[];
    credits: number[];
    latencyP50: (number | null)[];
    latencyP95: (number | null)[];
  };
  /**
   * Of the calls an upstream was asked for (refusals answer in microseconds and would hide it). From kept tallies the
   * percentiles (here and in `series`) are those of a histogram: exact below 32 ms, within 1/32 (3.1 %) above; `count`
   * and `max` are exact.
   */
  latency: Percentiles;
  /** Of the streamed calls that sent a first byte. */
  timeToFirstToken: Percentiles;
  topKeys: SpendRow[];
  topModels: SpendRow[];
  /** Failed calls by error kind and status, most frequent first. */
  errorKinds: Array<{ kind: string; status: number; count: number }>;
}

/**
 * The window's chart buckets: aligned on their width, the last one holding `now`; `indexOf` a time's bucket (times
 * before the first or after the last counted in it).
 */
function bucketGrid(
  window: DashboardWindow,
  now: number,
): { first: number; buckets: number; indexOf(at: number): number } {
  const { bucketMs } = window;
  const buckets = Math.ceil(window.ms / bucketMs);
  const first = Math.floor(now / bucketMs) * bucketMs - (buckets - 1) * bucketMs;
  return { first, buckets, indexOf: (at) => Math.min(buckets - 1, Math.max(0, Math.floor((at - first) / bucketMs))) };
}

/** The most rows of the top keys and top models. */
const TOP = 10;

/** The aggregates of `records` (any order) over `window` ending at `now`; records outside the window are skipped. */
export function summarize(
  records: readonly UsageRecord[],
  window: DashboardWindow,
  now: number,
  truncated: boolean,
): DashboardSummary {
  const { bucketMs } = window;
  const { first, buckets, indexOf } = bucketGrid(window, now);
  const from = now - window.ms;
  const zeros = () => new Array<number>(buckets).fill(0);
  const calls = zeros();
  const errors = zeros();
  const inputTokens = zeros();
  const outputTokens = zeros();
  const credits = zeros();
  const bucketLatencies: number[][] = Array.from({ length: buckets }, () => []);
  const latencies: number[] = [];
  const firstTokens: number[] = [];
  const keys = new Map<string | null, SpendRow>();
  const models = new Map<string | null, SpendRow>();
  const kinds = new Map<string, { kind: string; status: number; count: number }>();
  const totals = { calls: 0, ok: 0, errors: 0, cancelled: 0, tokens: 0, credits: 0 };
  for (const record of records) {
    const { ended } = record.timings;
    if (ended < from || ended > now) continue;
    const index = indexOf(ended);
    const input = record.usage?.inputTokens ?? 0;
    const output = record.usage?.outputTokens ?? 0;
    const charged = record.credits.charged;
    const failed = record.outcome === 'error';
    calls[index]!++;
    inputTokens[index]! += input;
    outputTokens[index]! += output;
    credits[index]! += charged;
    totals.calls++;
    totals.tokens += input + output;
    totals.credits += charged;
    if (failed) {
      errors[index]!++;
      totals.errors++;
      const { id, kind, status } = errorKindOf(record);
      const entry = kinds.get(id);
      if (entry) entry.count++;
      else kinds.set(id, { kind, status, count: 1 });
    } else if (record.outcome === 'ok') totals.ok++;
    else totals.cancelled++;
    const { latency, timeToFirstToken } = durationsOf(record);
    if (latency !== undefined) {
      latencies.push(latency);
      bucketLatencies[index]!.push(latency);
    }
    if (timeToFirstToken !== undefined) firstTokens.push(timeToFirstToken);
    addSpend(keys, record.keyId ?? null, failed, input + output, charged);
    addSpend(models, record.model ?? null, failed, input + output, charged);
  }
  const latencyP50: (number | null)[] = [];
  const latencyP95: (number | null)[] = [];
  for (const values of bucketLatencies) {
    const sorted = Float64Array.from(values).sort();
    latencyP50.push(rank(sorted, 0.5));
    latencyP95.push(rank(sorted, 0.95));
  }
  return {
    window: window.name,
    from,
    to: now,
    bucketMs,
    scanned: records.length,
    truncated,
    totals,
    series: {
      time: calls.map((_, index) => (first + index * bucketMs) / 1000),
      calls,
      errors,
      inputTokens,
      outputTokens,
      credits,
      latencyP50,
      latencyP95,
    },
    latency: percentiles(latencies),
    timeToFirstToken: percentiles(firstTokens),
    topKeys: top(keys),
    topModels: top(models),
    errorKinds: sortKinds(kinds.values()),
  };
}

/**
 * The aggregates of a window from a log's kept tallies ({@link UsageTallies}, asked for `now − window.ms` … `now` in
 * the window's buckets): the same figures as {@link summarize} of the records they count, percentiles within their
 * histogram's bins; `from` is where the tallies start (up to one kept bucket before `now − window.ms`).
 */
export function summarizeTallies(tallies: UsageTallies, window: DashboardWindow, now: number): DashboardSummary {
  const { bucketMs } = window;
  const { first, buckets, indexOf } = bucketGrid(window, now);
  const perBucket = Array.from({ length: buckets }, emptyTally);
  const all = emptyTally();
  for (const { start, tally } of tallies.buckets) {
    mergeTally(perBucket[indexOf(start)]!, tally);
    mergeTally(all, tally);
  }
  const keys = spendRows(all.keys);
  const models = spendRows(all.models);
  return {
    window: window.name,
    from: tallies.since,
    to: now,
    bucketMs,
    scanned: all.calls,
    truncated: false,
    totals: {
      calls: all.calls,
      ok: all.ok,
      errors: all.errors,
      cancelled: all.cancelled,
      tokens: all.inputTokens + all.outputTokens,
      credits: all.credits,
    },
    series: {
      time: perBucket.map((_, index) => (first + index * bucketMs) / 1000),
      calls: perBucket.map((tally) => tally.calls),
      errors: perBucket.map((tally) => tally.errors),
      inputTokens: perBucket.map((tally) => tally.inputTokens),
      outputTokens: perBucket.map((tally) => tally.outputTokens),
      credits: perBucket.map((tally) => tally.credits),
      latencyP50: perBucket.map((tally) => histogramPercentile(tally.latency, 0.5)),
      latencyP95: perBucket.map((tally) => histogramPercentile(tally.latency, 0.95)),
    },
    latency: histogramPercentiles(all.latency),
    timeToFirstToken: histogramPercentiles(all.timeToFirstToken),
    topKeys: top(keys),
    topModels: top(models),
    errorKinds: sortKinds(all.errorKinds.values()),
  };
}

function spendRows(tallies: Map<string | null, SpendTally>): Map<string | null, SpendRow> {
  return new Map([...tallies].map(([name, spend]) => [name, { name, ...spend }]));
}

function histogramPercentiles(histogram: LatencyHistogram): Percentiles {
  return {
    count: histogram.count,
    p50: histogramPercentile(histogram, 0.5),
    p90: histogramPercentile(histogram, 0.9),
    p95: histogramPercentile(histogram, 0.95),
    p99: histogramPercentile(histogram, 0.99),
    max: histogram.max,
  };
}

/** Error kinds, most frequent first (then by kind and status, so that equal counts keep one order). */
function sortKinds(
  kinds: Iterable<{ kind: string; status: number; count: number }>,
): Array<{ kind: string; status: number; count: number }> {
  return [...kinds].sort((a, b) => b.count - a.count || compare(a.kind, b.kind) || a.status - b.status);
}

/** Strings in code-unit order, null first. */
function compare(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function addSpend(
  rows: Map<string | null, SpendRow>,
  name: string | null,
  failed: boolean,
  tokens: number,
  credits: number,
): void {
  let row = rows.get(name);
  if (!row) rows.set(name, (row = { name, calls: 0, errors: 0, tokens: 0, credits: 0 }));
  row.calls++;
  if (failed) row.errors++;
  row.tokens += tokens;
  row.credits += credits;
}

/** The rows that spent most (then the busiest, then by name), at most {@link TOP}. */
function top(rows: Map<string | null, SpendRow>): SpendRow[] {
  return [...rows.values()]
    .sort((a, b) => b.credits - a.credits || b.calls - a.calls || compare(a.name, b.name))
    .slice(0, TOP);
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: rank(sorted, 0.5),
    p90: rank(sorted, 0.9),
    p95: rank(sorted, 0.95),
    p99: rank(sorted, 0.99),
    max: sorted.length === 0 ? null : sorted[sorted.length - 1]!,
  };
}

/** The nearest-rank percentile `q` of sorted values; null when there are none. */
function rank(sorted: Float64Array, q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
