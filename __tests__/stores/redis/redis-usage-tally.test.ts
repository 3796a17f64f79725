/**
 * RedisUsageStream's kept tallies on a real redis-server: the dashboard's summary made from them equals the summary of
 * the records themselves for every window (percentiles within their histogram's bins), several writers count into one
 * tally, and each bucket's hash expires after the windows that read it.
 */
import type { Redis } from 'ioredis';
import type { UsageRecord } from '../../../lib';
import { type DashboardSummary, summarize, summarizeTallies, WINDOWS } from '../../../lib/dashboard/summary';
import { createRedisClient, RedisUsageStream } from '../../../lib/stores/redis';
import { planTally, TALLY_RESOLUTIONS } from '../../../lib/stores/redis/usage-tally-buckets';
import { RUN_PREFIX, type RedisServer, startRedisServer } from '../../helpers/redis-server';

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}tally${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

async function stream(prefix: string): Promise<RedisUsageStream> {
  const created = new RedisUsageStream({ client, prefix });
  await created.init();
  return created;
}

const KEYS = ['alice', 'bob', 'carol', 'dave', 'erin', undefined];
const MODELS = ['gpt-small', 'claude-mid', 'gemini-big', undefined];
const KINDS = [
  { kind: 'upstream', status: 502 },
  { kind: 'rate_limit', status: 429 },
  { kind: 'authentication', status: 401 },
] as const;

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Call `index` of a mixed set, ending at `ended`: several keys, models, outcomes, streamed or not, refused or sent. */
function mixedRecord(index: number, ended: number, next: () => number): UsageRecord {
  const keyId = KEYS[index % KEYS.length];
  const model = MODELS[Math.floor(next() * MODELS.length)];
  const roll = next();
  const outcome = roll < 0.7 ? 'ok' : roll < 0.9 ? 'error' : 'cancelled';
  const refused = outcome === 'error' && next() < 0.3;
  const stream = next() < 0.5;
  // Durations from under a millisecond's bin to a minute and a half: the exact bins and the log-spaced ones.
  const latency = Math.floor(next() < 0.2 ? next() * 40 : Math.exp(next() * 11.4));
  const received = ended - latency;
  const failure = KINDS[index % KINDS.length]!;
  const record: UsageRecord = {
    requestId: `req_tally_${index}`,
    protocol: 'openai-chat',
    operation: 'generate',
    stream,
    ...(model !== undefined ? { requestedModel: model, model } : {}),
    attempts: refused ? [] : [{ model: model ?? 'x', provider: 'mock', upstreamModel: model ?? 'x' }],
    outcome,
    status: outcome === 'error' ? failure.status : 200,
    ...(outcome === 'error' && index % 7 !== 0 ? { error: { ...failure, message: 'failed' } } : {}),
    ...(refused ? {} : { usage: { inputTokens: Math.floor(next() * 5_000), outputTokens: Math.floor(next() * 900) } }),
    credits: { held: 10_000, charged: refused ? 0 : Math.floor(next() * 4_000) },
    timings: {
      received,
      ...(stream && !refused && next() < 0.9 ? { firstByte: received + Math.floor(latency * next()) } : {}),
      ended,
    },
  };
  if (keyId !== undefined && !(refused && index % 2 === 0)) record.keyId = keyId;
  return record;
}

/** Whether a kept percentile is the exact one within its histogram bin: exact below 32 ms, within 1/32 above. */
function within(kept: number | null, exact: number | null): boolean {
  if (kept === null || exact === null) return kept === exact;
  return Math.abs(kept - exact) <= exact / 32 + 1e-9;
}

/** A summary without its percentiles, and the fields a kept summary defines its own way (`from`, `scanned`). */
function exactPart(summary: DashboardSummary) {
  const { latency, timeToFirstToken, from, scanned, truncated, series, ...rest } = summary;
  const { latencyP50, latencyP95, ...counts } = series;
  return {
    ...rest,
    series: counts,
    latencyCount: latency.count,
    latencyMax: latency.max,
    ttftCount: timeToFirstToken.count,
    ttftMax: timeToFirstToken.max,
  };
}

describe('RedisUsageStream tallies', () => {
  it('summarise every window as the records do: counts, tokens, credits, series and top rows exactly, percentiles within a bin', async () => {
    const prefix = freshPrefix();
    const usage = await stream(prefix);
    const now = Date.now();
    const next = random(20261207);
    // Calls spread over 8 days, denser towards now: every window has some, and some are older than the longest.
    const spans = [15 * 60_000, 3_600_000, 6 * 3_600_000, 24 * 3_600_000, 8 * 24 * 3_600_000];
    const candidates: UsageRecord[] = [];
    for (let index = 0; index < 1_500; index++) {
      const span = spans[index % spans.length]!;
      candidates.push(mixedRecord(index, now - Math.floor(next() * span), next));
    }
    // A few on the boundaries of buckets and right at `now`.
    for (const [offset, index] of [
      [0, 9_001],
      [15_000, 9_002],
      [60_000, 9_003],
      [3 * 3_600_000, 9_004],
    ] as const)
      candidates.push(mixedRecord(index, Math.floor(now / 15_000) * 15_000 - offset, next));
    candidates.push(mixedRecord(9_005, now, next));
    // The kept tallies start at the start of their finest bucket at a window's start: leave out the calls between
    // there and the window's start, which the record path does not count and the tallies do (documented).
    const gaps = WINDOWS.map((window) => ({
      from: planTally(usage.key, now - window.ms, now, window.bucketMs).since,
      to: now - window.ms,
    }));
    const records = candidates.filter(
      (record) => !gaps.some((gap) => record.timings.ended >= gap.from && record.timings.ended < gap.to),
    );
    expect(records.length).toBeGreaterThan(1_400);
    for (let at = 0; at < records.length; at += 100)
      await Promise.all(records.slice(at, at + 100).map((record) => usage.record(record)));

    for (const window of WINDOWS) {
      const tallies = await usage.tally({ since: now - window.ms, until: now, bucketMs: window.bucketMs });
      const kept = summarizeTallies(tallies, window, now);
      const scanned = summarize(records, window, now, false);
      expect(scanned.totals.calls).toBeGreaterThan(30);
      expect(scanned.totals.errors).toBeGreaterThan(0);
      expect(exactPart(kept)).toEqual(exactPart(scanned));
      expect(kept.scanned).toBe(scanned.totals.calls);
      expect(kept.truncated).toBe(false);
      expect(kept.from).toBe(gaps[WINDOWS.indexOf(window)]!.from);
      for (const name of ['latency', 'timeToFirstToken'] as const)
        for (const q of ['p50', 'p90', 'p95', 'p99'] as const)
          expect({ window: window.name, name, q, ok: within(kept[name][q], scanned[name][q]) }).toMatchObject({
            ok: true,
          });
      kept.series.latencyP50.forEach((value, index) => {
        expect(within(value, scanned.series.latencyP50[index]!)).toBe(true);
        expect(within(kept.series.latencyP95[index]!, scanned.series.latencyP95[index]!)).toBe(true);
      });
      // A few dozen hashes per window, never the records.
      expect(planTally(usage.key, now - window.ms, now, window.bucketMs).pieces.length).toBeLessThanOrEqual(90);
    }
  });

  it('count the records of several writers on one Redis into one tally', async () => {
    const prefix = freshPrefix();
    const writers = [createRedisClient(server.options), createRedisClient(server.options)];
    try {
      const streams = writers.map((writer) => new RedisUsageStream({ client: writer, prefix }));
      await Promise.all(streams.map((each) => each.init()));
      const now = Date.now();
      const next = random(7);
      const records = Array.from({ length: 200 }, (_, index) => mixedRecord(index, now - index * 1_000, next));
      await Promise.all(records.map((record, index) => streams[index % 2]!.record(record)));
      const reader = await stream(prefix);
      const window = WINDOWS.find((each) => each.name === '1h')!;
      const kept = summarizeTallies(
        await reader.tally({ since: now - window.ms, until: now, bucketMs: window.bucketMs }),
        window,
        now,
      );
      expect(exactPart(kept)).toEqual(exactPart(summarize(records, window, now, false)));
      expect(kept.totals.calls).toBe(200);
    } finally {
      for (const writer of writers) writer.disconnect();
    }
  });

  it('keep one hash per bucket width, each expiring after the windows that read it', async () => {
    const prefix = freshPrefix();
    const usage = await stream(prefix);
    const ended = Date.now();
    await usage.record(mixedRecord(1, ended, random(1)));
    for (const { ms, keepMs } of TALLY_RESOLUTIONS) {
      const key = `${usage.key}:tally:${ms}:${Math.floor(ended / ms) * ms}`;
      expect(Number(await client.hget(key, 'calls'))).toBe(1);
      const ttl = await client.pttl(key);
      expect(ttl).toBeGreaterThan(keepMs);
      expect(ttl).toBeLessThanOrEqual(ms + keepMs + 3_600_000);
    }
    // A record older than the finest widths keep counts only in the widths that still read it.
    const old = ended - 2 * 24 * 3_600_000;
    await usage.record(mixedRecord(2, old, random(2)));
    const kept = [];
    for (const { ms } of TALLY_RESOLUTIONS)
      if (await client.exists(`${usage.key}:tally:${ms}:${Math.floor(old / ms) * ms}`)) kept.push(ms);
    expect(kept).toEqual([20 * 60_000, 3 * 3_600_000]);
  });

  it('keep and count a record whose credits are fractions (a cache read is priced at a fraction of an input token)', async () => {
    const usage = await stream(freshPrefix());
    const now = Date.now();
    const whole = mixedRecord(1, now, random(3));
    const fraction = mixedRecord(2, now, random(4));
    fraction.credits = { held: 10, charged: 1.5 };
    const third = mixedRecord(3, now, random(5));
    third.credits = { held: 10, charged: 0.25 };
    await Promise.all([usage.record(whole), usage.record(fraction), usage.record(third)]);
    expect((await usage.query()).map((record) => record.requestId).sort()).toEqual(
      [whole.requestId, fraction.requestId, third.requestId].sort(),
    );
    const tallies = await usage.tally({ since: now - 60_000, until: now, bucketMs: 60_000 });
    const credits = tallies.buckets.reduce((sum, bucket) => sum + bucket.tally.credits, 0);
    expect(credits).toBeCloseTo(whole.credits.charged + 1.75, 9);
  });

  it('refuse a bucket width that is not a multiple of 15 s', async () => {
    const usage = await stream(freshPrefix());
    await expect(usage.tally({ since: 0, until: 60_000, bucketMs: 10_000 })).rejects.toThrow(RangeError);
  });
});
