/** A provider's call context as the gateway makes it, and the signal a provider passes upstream from one. */
import type { CallWarnings } from '../warnings';
import type { CallCancellation, CallSignal } from './cancellation';
import type { ProviderCallContext } from './types';

/**
 * The context a provider gets for one call. `signal` is an own, enumerable getter, so a provider
 * that reads it, or copies the context with `{ ...context }`, gets a working `AbortSignal`; one that
 * never reads it costs none. `cancellation` is the cheap signal itself, for {@link callSignal}. `retries` is the
 * attempt's retry hint (undefined: the provider's own policy).
 */
export function providerCallContext(
  cancellation: CallCancellation,
  upstreamModel: string,
  requestId: string,
  upstreamHeaders?: Readonly<Record<string, string>>,
  warnings?: CallWarnings,
  retries?: number,
): ProviderCallContext {
  return {
    upstreamModel,
    requestId,
    upstreamHeaders,
    cancellation,
    warn: warnings ? (warning) => warnings.add(warning) : undefined,
    retries,
    get signal() {
      return cancellation.signal;
    },
  };
}

/**
 * The signal to pass upstream for a call: the context's `cancellation` (the gateway's cheap one),
 * else its `AbortSignal` (a context made by hand).
 */
export function callSignal(context: ProviderCallContext): CallSignal {
  return context.cancellation ?? context.signal;
}
