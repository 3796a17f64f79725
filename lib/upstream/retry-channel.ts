/**
 * The diagnostics channel on which the upstream client announces each retry: what the gateway's metrics count
 * (lib/metrics/). Publishing costs nothing while no one subscribes.
 */
import { channel } from 'node:diagnostics_channel';
import type { ErrorKind } from '../errors';
import type { CallSignal } from '../providers/cancellation';

/** One retry of an upstream request. */
export interface UpstreamRetryMessage {
  /** The client's name: its provider's. */
  upstream: string;
  /** The call's signal: which gateway's call it is. */
  signal: CallSignal;
  /** The failure that is retried. */
  kind: ErrorKind;
}

/** Where {@link UpstreamRetryMessage}s are published. */
export const upstreamRetries = channel('rosetta-gateway:upstream-retry');

/** Publishes a retry (nothing is done while no one subscribes). */
export function announceRetry(message: UpstreamRetryMessage): void {
  if (upstreamRetries.hasSubscribers) upstreamRetries.publish(message);
}
