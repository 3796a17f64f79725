/**
 * One gateway's lifecycle: the stores' and providers' `init()` (which every request waits for), the
 * calls in flight, and `close()`, which ends them and closes everything it initialized.
 */
import type { ServerResponse } from 'node:http';
import { GatewayError } from '../errors';
import type { ResolvedOptions } from '../options';
import type { CallCancellation } from '../providers/cancellation';
import { logUsage, type UsageDelivery } from '../usage/sink';

/** How long `close()` waits for calls it aborted to finish (settle their holds) before it cuts their connections. */
const CLOSE_GRACE_MS = 1_000;
/** How long `close()` waits for the usage records still pending for the sink before it closes the sink. */
const USAGE_FLUSH_MS = 1_000;

export class Lifecycle {
  /** True once `init()` has succeeded: a request then skips {@link waitReady}. */
  initialized = false;
  /** Resolves once every store and provider `init()` has finished. */
  readonly ready: Promise<void>;
  /** Set by `close()`: the reason its aborted calls carry, and the error new calls get. */
  shutdownReason: GatewayError | undefined;
  /** Streamed answers being written (lib/pipeline/stream-response.ts counts them; the metrics read it). */
  openStreams = 0;
  private pendingInit: Promise<void> | undefined;
  /** Calls being served, with their responses: what `close()` ends. */
  private readonly calls = new Map<CallCancellation, ServerResponse>();
  private closed: Promise<void> | undefined;
  /** Called when the last call in flight ends, while `close()` waits for it. */
  private onIdle: (() => void) | undefined;

  constructor(
    private readonly config: ResolvedOptions,
    /** The usage sink's delivery, when a sink is configured. */
    private readonly usage?: UsageDelivery,
  ) {
    this.ready = this.init();
    this.ready.catch(() => undefined);
  }

  private async init(): Promise<void> {
    await this.config.keyStore.init?.();
    await this.config.quotaStore.init?.();
    await this.config.rateLimitStore.init?.();
    await this.config.routing.store.init?.();
    await this.config.responseStore?.init?.();
    await this.config.threadStore?.init?.();
    await this.usage?.sink.init?.();
    for (const provider of this.config.providers.values()) await provider.init();
    this.initialized = true;
  }

  /**
   * Waits for init; after a failed init, each request tries it again (one attempt at a time), so a store that comes
   * back is used.
   */
  async waitReady(): Promise<void> {
    const attempt = this.pendingInit ?? this.ready;
    try {
      await attempt;
    } catch (error) {
      if (this.pendingInit === attempt || this.pendingInit === undefined) {
        this.pendingInit = this.init();
        this.pendingInit.catch(() => undefined);
      }
      try {
        await this.pendingInit;
      } catch {
        throw new GatewayError('unavailable', 'The gateway could not initialize its stores or providers.', {
          cause: error,
          retryAfter: 1,
        });
      }
    }
  }

  /** A call starts: `close()` will abort it and, if it outlasts the grace, cut its response. */
  enter(cancellation: CallCancellation, response: ServerResponse): void {
    this.calls.set(cancellation, response);
  }

  /** A call is over (whether or not it had {@link enter}ed). */
  leave(cancellation: CallCancellation): void {
    if (this.calls.delete(cancellation) && this.calls.size === 0) this.onIdle?.();
  }

  /** How many calls are in flight. */
  get inFlight(): number {
    return this.calls.size;
  }

  /** Whether a call's signal is one of this gateway's calls in flight (what the metrics attribute a retry by). */
  serves(signal: unknown): boolean {
    return this.calls.has(signal as CallCancellation);
  }

  /** What a failed call answers: the shutdown's 503 when `close()` aborted it, else what it threw. */
  failureOf(cancellation: CallCancellation, thrown: unknown): unknown {
    return cancellation.aborted && cancellation.reason === this.shutdownReason ? cancellation.reason : thrown;
  }

  /**
   * Shuts the gateway down (once; a second call returns the same promise): refuses new calls,
   * aborts those in flight, then closes every provider and store.
   */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    const reason = new GatewayError('unavailable', 'The gateway is shutting down; try again later.', {
      code: 'shutting_down',
      retryAfter: 1,
    });
    this.shutdownReason = reason;
    for (const cancellation of this.calls.keys()) cancellation.abort(reason);
    await this.whenIdle(CLOSE_GRACE_MS);
    // Calls still going (a slow client, a slow store): their connections are cut, and their holds get one more grace to
    // settle.
    for (const response of this.calls.values()) response.destroy();
    await this.whenIdle(CLOSE_GRACE_MS);
    if (this.usage) {
      await this.usage.flush(USAGE_FLUSH_MS);
      try {
        await this.usage.sink.close?.();
      } catch (error) {
        logUsage('the usage sink failed to close: %O', error);
      }
    }
    for (const provider of this.config.providers.values()) await provider.close();
    await this.config.responseStore?.close?.();
    await this.config.threadStore?.close?.();
    await this.config.rateLimitStore.close?.();
    await this.config.routing.store.close?.();
    await this.config.quotaStore.close?.();
    await this.config.keyStore.close?.();
  }

  /** Resolves when no call is in flight, or after `ms`. */
  private whenIdle(ms: number): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
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
}
