/** An upstream answer or stream event that lacks what its protocol requires: an upstream fault (502 `upstream_malformed`), logged. */
import createDebug from 'debug';
import { GatewayError } from '../errors';

const log = createDebug('rosetta:upstream');

/**
 * The error for a malformed upstream answer, logged as an upstream fault. `what` completes "The
 * upstream <name> sent …", e.g. "a stream chunk without choices".
 */
export function malformedUpstream(upstream: string, what: string): GatewayError {
  log('%s: malformed answer: %s', upstream, what);
  return new GatewayError('upstream', `The upstream ${upstream} sent ${what}.`, { code: 'upstream_malformed' });
}
