/**
 * The cancellation of one call: aborted when the caller disconnects. Cheaper than an
 * `AbortController` per call, which Node 20 builds with a hidden class of its own (it swaps the
 * signal's prototype), so that every listener added or removed on it, and every `aborted` read, is a
 * slow lookup: ~2.5% of a non-streamed call. The built-in providers hand this object to undici
 * directly (undici takes any object with `aborted`, `reason`, `once` and `removeListener` as a
 * signal); a real `AbortSignal` is made only when something asks for one
 * (a provider reading `ProviderCallContext.signal`, a retry's backoff sleep).
 */

type AbortListener = () => void;

/** The gateway's cancellation of one call (see the file header); a {@link CallSignal}. */
export class CallCancellation {
  aborted = false;
  reason: unknown = undefined;
  private controller: AbortController | undefined = undefined;
  private listeners: AbortListener[] | undefined = undefined;

  /** An `AbortSignal` that follows this cancellation, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts the call (once): the `AbortSignal`, if one was made, and every listener. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /**
   * The part of the `EventEmitter` interface undici uses on a signal (`'abort'` only, called once): `once` and
   * `removeListener`.
   */
  once(_event: 'abort', listener: AbortListener): this {
    if (this.aborted) return this;
    this.listeners ??= [];
    this.listeners.push(listener);
    return this;
  }

  /** undici checks that a signal has `on` before it takes it. */
  on(event: 'abort', listener: AbortListener): this {
    return this.once(event, listener);
  }

  removeListener(_event: 'abort', listener: AbortListener): this {
    const listeners = this.listeners;
    const index = listeners ? listeners.indexOf(listener) : -1;
    if (index !== -1) listeners!.splice(index, 1);
    return this;
  }
}

/**
 * A call's cancellation signal, as a provider may pass it upstream: either an `AbortSignal`, or
 * the gateway's {@link CallCancellation} (`aborted`, `reason`, `once('abort')`, `removeListener('abort')`,
 * which undici takes as a signal). Code that needs a real `AbortSignal` gets one with
 * {@link abortSignalOf}. Part of the provider contract (`specificationVersion` 'v1').
 */
export type CallSignal = AbortSignal | CallCancellation;

/** A real `AbortSignal` for a call signal (made on first use for a {@link CallCancellation}). */
export function abortSignalOf(signal: CallSignal): AbortSignal {
  return signal instanceof CallCancellation ? signal.signal : signal;
}

/**
 * Where the gateway puts a call's {@link CallCancellation} on the context it hands a provider: a symbol, so the
 * context's public shape has `signal` only, and the upstream client (./call-upstream.ts) sends the cheap cancellation
 * upstream instead of making an `AbortSignal` for every call.
 */
export const CALL_CANCELLATION: unique symbol = Symbol('rosetta.callCancellation');
