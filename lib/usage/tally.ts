/**
 * A tally of usage records: the counts, sums, latency histograms and per-key / per-model spend of the calls that ended
 * in one stretch of time. A log that keeps tallies as records arrive (`RedisUsageStream.tally`) answers a dashboard's
 * summary from a few hundred of them instead of reading every record (docs/operations.md, *Dashboard*).
 */
import type { UsageRecord } from './record';

/** What one key or one model spent in a tally. */
export interface SpendTally {
  calls: number;
  errors: number;
  /** Input plus output tokens. */
  tokens: number;
  /** Credits charged (integers: exact). */
  credits: number;
}

/**
 * Durations (ms) counted in log-spaced bins ({@link histogramBin}): exact below 32 ms, within 1/32 (3.1 %) of the value
 * above; `max` is exact.
 */
export interface LatencyHistogram {
  count: number;
  /** Bin → how many durations fell in it. */
  bins: Map<number, number>;
  /** The longest duration; null when `count` is 0. */
  max: number | null;
}

/** The figures of the calls that ended in one stretch of time. */
export interface UsageTally {
  calls: number;
  ok: number;
  errors: number;
  cancelled: number;
  inputTokens: number;
  outputTokens: number;
  credits: number;
  /** Of the calls an upstream was asked for: `ended − received`. */
  latency: LatencyHistogram;
  /** Of the streamed calls sent upstream that sent a first byte: `firstByte − received`. */
  timeToFirstToken: LatencyHistogram;
  /** By key id; null for the calls refused before their key was known. */
  keys: Map<string | null, SpendTally>;
  /** By public model id; null for the calls without one. */
  models: Map<string | null, SpendTally>;
  /** The failed calls by `<kind> <status>`. */
  errorKinds: Map<string, { kind: string; status: number; count: number }>;
}

/** What {@link TallyingUsageLog.tally} is asked: the calls that ended from `since` to `until` (epoch ms), by bucket. */
export interface UsageTallyQuery {
  since: number;
  until: number;
  /** The width of one bucket (ms); buckets are aligned on it (their starts are multiples of it). */
  bucketMs: number;
}

/** What {@link TallyingUsageLog.tally} answers: one tally per bucket that holds calls. */
export interface UsageTallies {
  /**
   * Where the tallies start: `since`, or a little before it when the log keeps nothing finer there (a RedisUsageStream
   * rounds it down to the start of its finest bucket at that age: 15 s to 1 min).
   */
  since: number;
  until: number;
  bucketMs: number;
  /** Oldest first; each bucket's start (aligned on `bucketMs`), the first one covering only from `since`. */
  buckets: Array<{ start: number; tally: UsageTally }>;
}

/** A usage log that keeps tallies as records arrive, and answers a window's from them. */
export interface TallyingUsageLog {
  tally(query: UsageTallyQuery): Promise<UsageTallies>;
}

/** A tally of no calls. */
export function emptyTally(): UsageTally {
  return {
    calls: 0,
    ok: 0,
    errors: 0,
    cancelled: 0,
    inputTokens: 0,
    outputTokens: 0,
    credits: 0,
    latency: emptyHistogram(),
    timeToFirstToken: emptyHistogram(),
    keys: new Map(),
    models: new Map(),
    errorKinds: new Map(),
  };
}

function emptyHistogram(): LatencyHistogram {
  return { count: 0, bins: new Map(), max: null };
}

/** The durations a record adds to the histograms: its latency and time to first token, when it has them. */
export function durationsOf(record: UsageRecord): { latency?: number; timeToFirstToken?: number } {
  if (record.attempts.length === 0) return {};
  const { received, firstByte, ended } = record.timings;
  return {
    latency: ended - received,
    ...(record.stream && firstByte !== undefined ? { timeToFirstToken: firstByte - received } : {}),
  };
}

/** The `<kind> <status>` a failed record is counted under, and its parts. */
export function errorKindOf(record: UsageRecord): { id: string; kind: string; status: number } {
  const kind = record.error?.kind ?? 'unknown';
  const status = record.error?.status ?? record.status;
  return { id: `${kind} ${status}`, kind, status };
}

/** Durations below this many ms have a bin of their own per whole ms. */
const EXACT_BELOW = 32;
/** Bins per doubling above {@link EXACT_BELOW}: each at most 1/16 of its lower bound wide. */
const BINS_PER_OCTAVE = 16;

/**
 * The histogram bin of a duration (ms): 0–31 for whole milliseconds below 32, then 16 bins per doubling, each at most
 * 1/16 of its lower bound wide (32–33.99 ms, 34–35.99 ms, …, 64–67.99 ms, …, 1024–1087.99 ms, …).
 */
export function histogramBin(ms: number): number {
  const value = Math.max(0, ms);
  if (value < EXACT_BELOW) return Math.floor(value);
  const octave = Math.floor(Math.log2(value));
  const width = 2 ** (octave - 4);
  // Math.log2 may land a hair off at an exact power of two: the sub-bin is clamped into the octave.
  const sub = Math.min(BINS_PER_OCTAVE - 1, Math.max(0, Math.floor(value / width) - BINS_PER_OCTAVE));
  return EXACT_BELOW + (octave - 5) * BINS_PER_OCTAVE + sub;
}

/** The value a bin stands for: the whole ms below 32, else the middle of the bin (within 1/32 of any value in it). */
export function histogramValue(bin: number): number {
  if (bin < EXACT_BELOW) return bin;
  const octave = 5 + Math.floor((bin - EXACT_BELOW) / BINS_PER_OCTAVE);
  const sub = (bin - EXACT_BELOW) % BINS_PER_OCTAVE;
  const width = 2 ** (octave - 4);
  return (BINS_PER_OCTAVE + sub) * width + width / 2;
}

/** Counts one duration into a histogram. */
export function addDuration(histogram: LatencyHistogram, ms: number, count = 1): void {
  const bin = histogramBin(ms);
  histogram.bins.set(bin, (histogram.bins.get(bin) ?? 0) + count);
  histogram.count += count;
  if (histogram.max === null || ms > histogram.max) histogram.max = ms;
}

/**
 * The nearest-rank percentile `q` (0–1] of a histogram: the value of the bin holding that rank, never above the
 * histogram's `max`; null when it is empty.
 */
export function histogramPercentile(histogram: LatencyHistogram, q: number): number | null {
  if (histogram.count === 0) return null;
  const rank = Math.min(histogram.count - 1, Math.ceil(q * histogram.count) - 1);
  let seen = 0;
  for (const bin of [...histogram.bins.keys()].sort((a, b) => a - b)) {
    seen += histogram.bins.get(bin)!;
    if (seen > rank) return Math.min(histogramValue(bin), histogram.max ?? Number.POSITIVE_INFINITY);
  }
  return histogram.max;
}

/** Adds `from` into `into`. */
export function mergeTally(into: UsageTally, from: UsageTally): void {
  into.calls += from.calls;
  into.ok += from.ok;
  into.errors += from.errors;
  into.cancelled += from.cancelled;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.credits += from.credits;
  mergeHistogram(into.latency, from.latency);
  mergeHistogram(into.timeToFirstToken, from.timeToFirstToken);
  mergeSpend(into.keys, from.keys);
  mergeSpend(into.models, from.models);
  for (const [id, entry] of from.errorKinds) {
    const kept = into.errorKinds.get(id);
    if (kept) kept.count += entry.count;
    else into.errorKinds.set(id, { ...entry });
  }
}

function mergeHistogram(into: LatencyHistogram, from: LatencyHistogram): void {
  for (const [bin, count] of from.bins) into.bins.set(bin, (into.bins.get(bin) ?? 0) + count);
  into.count += from.count;
  if (from.max !== null && (into.max === null || from.max > into.max)) into.max = from.max;
}

function mergeSpend(into: Map<string | null, SpendTally>, from: Map<string | null, SpendTally>): void {
  for (const [name, spend] of from) {
    const kept = into.get(name);
    if (!kept) into.set(name, { ...spend });
    else {
      kept.calls += spend.calls;
      kept.errors += spend.errors;
      kept.tokens += spend.tokens;
      kept.credits += spend.credits;
    }
  }
}
