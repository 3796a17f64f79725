/** The in-memory usage log: a ring of the last N usage records, queried by key and time window. */
import { positiveInteger } from '../config-check';
import type { UsageRecord } from '../usage/record';
import type { UsageSink } from '../usage/sink';
import { PackedRing } from './packed-usage-ring';

/** A query of a usage log: records newest first, each filter optional. */
export interface UsageQuery {
  /** Only this key's records. */
  keyId?: string;
  /** Only records that ended at or after this time (epoch ms). */
  since?: number;
  /** Only records that ended at or before this time (epoch ms). */
  until?: number;
  /** The most records returned. Default 100. */
  limit?: number;
}

/** Options of {@link MemoryUsageLog}. */
export interface MemoryUsageLogOptions {
  /** The most records kept; past it the oldest is overwritten. Default 10,000. */
  capacity?: number;
}

/** The default {@link UsageQuery.limit}. */
export const DEFAULT_USAGE_QUERY_LIMIT = 100;
const DEFAULT_CAPACITY = 10_000;

/**
 * A usage sink that keeps the last `capacity` records in this process's memory (a restart loses
 * them; gateways behind a load balancer each keep their own: use `RedisUsageStream` from
 * `rosetta-gateway/redis` there). `query` answers newest first, by key and by when the call ended,
 * each record a copy of the one recorded (changing it changes nothing kept).
 *
 * @example
 * ```ts
 * const usage = new MemoryUsageLog();
 * app.use(createGateway({ keys, usageSink: usage }));
 * usage.query({ keyId: 'alice', since: Date.now() - 3_600_000 });
 * ```
 */
export class MemoryUsageLog implements UsageSink {
  /** The most records kept. */
  readonly capacity: number;
  private readonly ring: PackedRing;
  /** The records kept. */
  private kept = 0;
  /** Where the next record goes (once the ring is full, the oldest). */
  private next = 0;

  constructor(options: MemoryUsageLogOptions = {}) {
    const capacity = positiveInteger('MemoryUsageLog', 'capacity', options.capacity, DEFAULT_CAPACITY);
    this.capacity = capacity;
    this.ring = new PackedRing(capacity);
  }

  /** Keeps a record, overwriting the oldest once `capacity` are kept. */
  record(record: UsageRecord): void {
    this.ring.write(this.next, record);
    this.next = (this.next + 1) % this.capacity;
    if (this.kept < this.capacity) this.kept++;
  }

  /** The records kept. */
  get size(): number {
    return this.kept;
  }

  /** The records that match, newest first (in the order they were recorded), at most `limit`. */
  query(query: UsageQuery = {}): UsageRecord[] {
    const { keyId, since, until } = query;
    const limit = query.limit ?? DEFAULT_USAGE_QUERY_LIMIT;
    const { ring, capacity } = this;
    const found: UsageRecord[] = [];
    // The newest record is just before `next` (the ring's oldest, once it is full).
    for (let back = 1; back <= this.kept && found.length < limit; back++) {
      const slot = (this.next - back + capacity) % capacity;
      const ended = ring.ended(slot);
      if (keyId !== undefined && ring.keyId(slot) !== keyId) continue;
      if (until !== undefined && ended > until) continue;
      if (since !== undefined && ended < since) continue;
      found.push(ring.read(slot));
    }
    return found;
  }
}
