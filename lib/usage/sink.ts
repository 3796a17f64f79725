/**
 * Where usage records go: the host's sink (option `usageSink`), fed off the response path, and the
 * observers every finished record is handed to (the sink's delivery is one; the metrics are another).
 */
import { isPromiseLike } from '../promise';
import createDebug from 'debug';
import type { MaybePromise } from '../stores/types';
import type { UsageRecord } from './record';

export const logUsage = createDebug('rosetta:usage');

/**
 * A host's usage sink: gets every call's {@link UsageRecord} once the call has settled and its
 * response has ended. `record` may be async; a sink that throws, rejects or is slow is logged on
 * `rosetta:usage` and never affects the caller or the charge. `init()` runs before the first call
 * is served, `close()` when the gateway closes (after the records pending for it were delivered, or
 * a short grace passed).
 */
export interface UsageSink {
  record(record: UsageRecord): MaybePromise<void>;
  init?(): MaybePromise<void>;
  close?(): MaybePromise<void>;
}

/** The `usageSink` option: a {@link UsageSink}, or just its `record` function. */
export type UsageSinkOption = UsageSink | ((record: UsageRecord) => MaybePromise<void>);

/** Something that gets each finished record, synchronously, on the response path: it must be cheap and not throw. */
export interface UsageObserver {
  observe(record: UsageRecord): void;
}

/** The most records waiting for a sink (queued or in its hands, unsettled) before new ones are dropped. */
export const MAX_PENDING_USAGE_RECORDS = 10_000;

/**
 * Hands records to a sink off the response path: queued, then given to the sink on the next
 * `setImmediate`, never awaited by the call. At most `maxPending` records wait (queued, or given to a
 * sink whose promise has not settled); beyond that a record is dropped, counted in {@link dropped}
 * and logged.
 */
export class UsageDelivery implements UsageObserver {
  /** Records dropped because `maxPending` records were already waiting for the sink. */
  dropped = 0;
  private queue: UsageRecord[] = [];
  private scheduled = false;
  private inFlight = 0;
  /** Called when nothing is pending any more, while {@link flush} waits. */
  private onIdle: (() => void) | undefined;

  constructor(
    readonly sink: UsageSink,
    private readonly maxPending = MAX_PENDING_USAGE_RECORDS,
  ) {}

  /** Queues a record for the sink (or drops it when too many are pending). */
  observe(record: UsageRecord): void {
    if (this.queue.length + this.inFlight >= this.maxPending) {
      this.dropped++;
      logUsage(
        '%s dropped: %d records already wait for the usage sink (%d dropped so far)',
        record.requestId,
        this.maxPending,
        this.dropped,
      );
      return;
    }
    this.queue.push(record);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.deliver);
    }
  }

  /** The records queued or in the sink's hands. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  /** Resolves once nothing is pending, or after `ms` (what `close()` gives a sink before closing it). */
  flush(ms: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onIdle = done;
    });
  }

  private readonly deliver = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    for (const record of batch) this.send(record);
    this.checkIdle();
  };

  private send(record: UsageRecord): void {
    let result: MaybePromise<void>;
    try {
      result = this.sink.record(record);
    } catch (error) {
      logUsage('%s the usage sink threw: %O', record.requestId, error);
      return;
    }
    if (!isPromiseLike(result)) return;
    this.inFlight++;
    const settled = () => {
      this.inFlight--;
      this.checkIdle();
    };
    result.then(settled, (error: unknown) => {
      logUsage('%s the usage sink rejected: %O', record.requestId, error);
      settled();
    });
  }

  private checkIdle(): void {
    if (this.pending === 0) this.onIdle?.();
  }
}

/**
 * The observers of one gateway's finished records, in the order they were added; each is called
 * synchronously, and one that throws is logged and skipped.
 */
export class UsageObservers {
  private readonly list: UsageObserver[] = [];

  /** Whether any observer listens: without one no record is built. */
  get active(): boolean {
    return this.list.length > 0;
  }

  add(observer: UsageObserver): void {
    this.list.push(observer);
  }

  /** Hands a finished record to every observer. */
  emit(record: UsageRecord): void {
    for (const observer of this.list) {
      try {
        observer.observe(record);
      } catch (error) {
        logUsage('%s a usage observer threw: %O', record.requestId, error);
      }
    }
  }
}

/** The `usageSink` option as the one shape the gateway calls (a function becomes a sink with only `record`). */
export function toUsageSink(option: UsageSinkOption): UsageSink {
  return typeof option === 'function' ? { record: option } : option;
}
