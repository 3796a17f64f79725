/**
 * An upstream answer or stream event that lacks what its protocol requires: an upstream fault (502
 * `upstream_malformed`), logged.
 */
import createDebug from 'debug';
import { GatewayError } from '../errors';
import { isJsonObject } from '../json';

const log = createDebug('rosetta:upstream');

/**
 * The error for a malformed upstream answer, logged as an upstream fault. `what` completes "The
 * upstream <name> sent …", e.g. "a stream chunk without choices".
 */
export function malformedUpstream(upstream: string, what: string): GatewayError {
  log('%s: malformed answer: %s', upstream, what);
  return new GatewayError('upstream', `The upstream ${upstream} sent ${what}.`, { code: 'upstream_malformed' });
}

/**
 * An upstream stream event's data parsed as the JSON object every built-in protocol sends: 502
 * `upstream_malformed` when it is not valid JSON, or not an object.
 */
export function parseEventObject(data: string, upstream: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new GatewayError('upstream', `The upstream ${upstream} sent a stream event that is not valid JSON.`, {
      cause: error,
      code: 'upstream_malformed',
    });
  }
  if (!isJsonObject(value)) throw malformedUpstream(upstream, 'a stream event that is not a JSON object');
  return value;
}
