/** An admitted call's rate-limit slot: settled once with the tokens the call used, however it ended. */
import { isPromiseLike } from '../promise';
import type { Usage } from '../canonical';
import { logRequest } from '../log';
import type { MaybePromise, RateLimitLease, RateLimitStore } from '../stores/types';

/**
 * An admitted call's lease, returned once: {@link settle} with the tokens the call used (answered, or a stream
 * however it ended), or {@link release} when it failed (its estimated tokens given back). A failing store is logged.
 */
export class RateSlot {
  private finished = false;

  constructor(
    private readonly store: RateLimitStore,
    private readonly lease: RateLimitLease,
    /** The protocol's rate-limit headers for the answer (undefined: the protocol has none). */
    readonly headers: Record<string, string> | undefined,
    private readonly requestId: string,
  ) {}

  /** Settles the lease: synchronous when the store is, a promise (that never rejects) when it answers with one. */
  settle(usedTokens: number): MaybePromise<void> {
    if (this.finished) return;
    this.finished = true;
    let settled: MaybePromise<void>;
    try {
      settled = this.store.settle(this.lease, usedTokens);
    } catch (error) {
      logRequest('%s rate-limit settle failed: %O', this.requestId, error);
      return;
    }
    if (isPromiseLike(settled))
      return Promise.resolve(settled).then(undefined, (error: unknown) => {
        logRequest('%s rate-limit settle failed: %O', this.requestId, error);
      });
  }

  release(): MaybePromise<void> {
    return this.settle(0);
  }
}

/** The tokens a call used, as tokens-per-minute limits count them: every input token (cached ones too) and output. */
export function usedTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}
