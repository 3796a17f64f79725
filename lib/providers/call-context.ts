/** The context the gateway hands a provider for one attempt of a call. */
import type { Span } from '@opentelemetry/api';
import { CALL_CANCELLATION, type CallCancellation } from './cancellation';
import type { CallWarnings } from '../warnings';
import type { ProviderCallContext } from './types';

/**
 * The attempt's span (lib/tracing/), for the upstream client to record where it sends the call (`server.address`):
 * set only on a recording span's context.
 */
export const ATTEMPT_SPAN: unique symbol = Symbol('rosetta.attemptSpan');

/**
 * The context a provider gets for one call. `signal` is an own, enumerable getter, so a provider
 * that reads it, or copies the context with `{ ...context }`, gets a working `AbortSignal`; one that
 * never reads it costs none. The cheap cancellation itself rides under {@link CALL_CANCELLATION}, for the upstream
 * client. `retries` is the attempt's retry hint (undefined: the provider's own policy).
 */
export function providerCallContext(
  cancellation: CallCancellation,
  upstreamModel: string,
  requestId: string,
  upstreamHeaders?: Readonly<Record<string, string>>,
  warnings?: CallWarnings,
  retries?: number,
  span?: Span,
): ProviderCallContext {
  const context: ProviderCallContext = {
    upstreamModel,
    requestId,
    upstreamHeaders,
    warn: warnings ? (warning) => warnings.add(warning) : undefined,
    retries,
    get signal() {
      return cancellation.signal;
    },
  };
  // Assigned, not a computed key of the literal: a computed key goes through V8's runtime (docs/performance.md).
  (context as { [CALL_CANCELLATION]?: CallCancellation })[CALL_CANCELLATION] = cancellation;
  if (span?.isRecording()) (context as { [ATTEMPT_SPAN]?: Span })[ATTEMPT_SPAN] = span;
  return context;
}
