/**
 * A usage sink in Redis: one stream entry per record (its JSON), trimmed to an approximate length, shared by every
 * gateway instance and queried by key and time window; and a tally of the records per time bucket, kept as they arrive,
 * that answers a dashboard's summary without reading them.
 */
import type { UsageQuery } from '../memory-usage-log';
import { DEFAULT_USAGE_QUERY_LIMIT } from '../memory-usage-log';
import type { UsageRecord } from '../../usage/record';
import type { UsageSink } from '../../usage/sink';
import {
  emptyTally,
  mergeTally,
  type TallyingUsageLog,
  type UsageTallies,
  type UsageTally,
  type UsageTallyQuery,
} from '../../usage/tally';
import { knownOptions, positiveInteger } from '../../config-check';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';
import { USAGE_SCRIPTS, usageBatchCall } from './usage-tally-batch';
import { planTally, TALLY_BASE_MS } from './usage-tally-buckets';
import { tallyOfHash } from './usage-tally-hash';

const STORE = 'RedisUsageStream';

/** Options of {@link RedisUsageStream}. */
export interface RedisUsageStreamOptions extends RedisConnectionOptions {
  /** Prepended to the stream's key (`<prefix>usage`). Default `rosetta:`. */
  prefix?: string;
  /** About how many entries the stream keeps (`XADD … MAXLEN ~`): the oldest are trimmed past it. Default 1,000,000. */
  maxLength?: number;
}

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES, 'maxLength'] as const;
const DEFAULT_MAX_LENGTH = 1_000_000;
/** Entries read per `XREVRANGE` while a query looks for one key's records. */
const QUERY_BATCH = 500;
/** The most records one script call appends. */
const MAX_BATCH = 100;
/** The field of an entry holding the record's JSON. */
const FIELD = 'record';

/**
 * Records in one Redis stream (`XADD <prefix>usage MAXLEN ~ <maxLength> * record <json>`), so every
 * gateway instance on the same Redis and prefix appends to it and any of them can read it. An entry's
 * id is Redis's clock when it was added (milliseconds, within a few of the record's `timings.ended`):
 * `query` reads the window newest first with `XREVRANGE` on that time. Other consumers can read the
 * stream too (`XREAD`, consumer groups). Redis errors reject `record` (the gateway logs it; the call is
 * not affected) and `query`.
 *
 * The same script that appends a record counts it into a tally per time bucket (`<prefix>usage:tally:<width>:<start>`
 * hashes at five widths, 15 s to 3 h, bucketed by `timings.ended`, expiring after the longest window that reads them):
 * `tally` answers a window from a few dozen of them, so a dashboard's summary does not read the records
 * (docs/operations.md, *Dashboard*).
 *
 * @example
 * ```ts
 * const client = createRedisClient(process.env.REDIS_URL);
 * const usage = new RedisUsageStream({ client });
 * createGateway({ keyStore, usageSink: usage });
 * await usage.query({ keyId: 'alice', since: Date.now() - 3_600_000, limit: 50 });
 * ```
 */
export class RedisUsageStream extends RedisStoreBase implements UsageSink, TallyingUsageLog {
  /** The stream's Redis key. */
  readonly key: string;
  /** About how many entries are kept. */
  readonly maxLength: number;
  protected readonly link: RedisLink;
  /** The records given to `record` in this turn of the event loop, not sent yet. */
  private batch: Array<{ record: UsageRecord; resolve: () => void; reject: (error: unknown) => void }> = [];

  constructor(options: RedisUsageStreamOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.key = `${resolvePrefix(STORE, options.prefix)}usage`;
    this.maxLength = positiveInteger(STORE, 'maxLength', options.maxLength, DEFAULT_MAX_LENGTH);
    this.link = new RedisLink(STORE, options, Object.values(USAGE_SCRIPTS));
  }

  /**
   * Appends a record and counts it into its buckets' tallies, in one script. The records given in one
   * turn of the event loop (the gateway hands its queue over at once) go in one script call, their tallies merged per
   * bucket; the promise settles when that call has. Counts are added with `HINCRBYFLOAT`: credits may be fractions (a
   * cache read's price is a fraction of the input's), and their sums are as exact as the record scan's in JavaScript.
   */
  record(record: UsageRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) queueMicrotask(() => this.flush());
      this.batch.push({ record, resolve, reject });
    });
  }

  /** Sends the records given in this turn, at most {@link MAX_BATCH} per script call. */
  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    for (let at = 0; at < batch.length; at += MAX_BATCH) {
      const part = batch.slice(at, at + MAX_BATCH);
      const failed = (error: unknown) => {
        for (const entry of part) entry.reject(error);
      };
      try {
        const { keys, args } = usageBatchCall(
          this.key,
          this.maxLength,
          part.map((entry) => entry.record),
        );
        this.link.run(USAGE_SCRIPTS.record, keys, args).then(() => {
          for (const entry of part) entry.resolve();
        }, failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  /**
   * The tallies of the calls that ended from `since` to `until`, one per bucket of `bucketMs` (a multiple of 15 s) that
   * holds calls, read from the kept buckets (at most a few dozen hashes for the dashboard's windows), not from the
   * records. They count every record written since the tallies were kept (not those of an older version's stream), up
   * to the end of the bucket holding `until`; the first starts at the start of the finest bucket kept at `since` (15 s
   * within the last hour, 1 min within 6 h, 5 min within 24 h, 20 min within 7 days).
   */
  async tally(query: UsageTallyQuery): Promise<UsageTallies> {
    const { since, until, bucketMs } = query;
    if (!Number.isInteger(bucketMs) || bucketMs <= 0 || bucketMs % TALLY_BASE_MS !== 0)
      throw new RangeError(`${STORE}.tally: bucketMs must be a multiple of ${TALLY_BASE_MS}, not ${bucketMs}.`);
    const plan = planTally(this.key, since, until, bucketMs);
    const pipeline = this.client.pipeline();
    for (const piece of plan.pieces) pipeline.hgetall(piece.key);
    const replies = (await pipeline.exec()) ?? [];
    const tallies = new Map<number, UsageTally>();
    plan.pieces.forEach((piece, index) => {
      const [error, hash] = replies[index] ?? [new Error('no reply')];
      if (error) throw error;
      const fields = hash as Record<string, string>;
      if (Object.keys(fields).length === 0) return;
      let tally = tallies.get(piece.bucket);
      if (!tally) tallies.set(piece.bucket, (tally = emptyTally()));
      mergeTally(tally, tallyOfHash(fields));
    });
    const buckets = [...tallies].sort(([a], [b]) => a - b).map(([start, tally]) => ({ start, tally }));
    return { since: plan.since, until, bucketMs, buckets };
  }

  /**
   * The records that match, newest first, at most `limit`; `since` and `until` bound the entries' ids (when
   * they were added). A `keyId` query reads the window in batches until it has `limit` records, so a
   * rare key in a wide window reads much of the stream: narrow it with `since`.
   */
  async query(query: UsageQuery = {}): Promise<UsageRecord[]> {
    const { keyId } = query;
    const limit = query.limit ?? DEFAULT_USAGE_QUERY_LIMIT;
    const start = query.since === undefined ? '-' : String(Math.max(0, Math.floor(query.since)));
    let end = query.until === undefined ? '+' : String(Math.max(0, Math.floor(query.until)));
    const found: UsageRecord[] = [];
    while (found.length < limit) {
      const count = keyId === undefined ? limit - found.length : QUERY_BATCH;
      const entries = await this.client.xrevrange(this.key, end, start, 'COUNT', count);
      for (const [, fields] of entries) {
        const record = parseEntry(fields);
        if (record && (keyId === undefined || record.keyId === keyId)) found.push(record);
        if (found.length === limit) break;
      }
      if (entries.length < count) break;
      end = `(${entries[entries.length - 1]![0]}`;
    }
    return found;
  }
}

/** The record of an entry's fields (`record`, its JSON); undefined for an entry that is not one. */
function parseEntry(fields: string[]): UsageRecord | undefined {
  const index = fields.indexOf(FIELD);
  if (index === -1 || index % 2 !== 0) return undefined;
  try {
    return JSON.parse(fields[index + 1]!) as UsageRecord;
  } catch {
    return undefined;
  }
}
