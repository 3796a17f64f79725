/** The request path's debug loggers (`DEBUG=rosetta:*`), one instance per namespace. */
import createDebug from 'debug';

export const logRequest = createDebug('rosetta:request');
export const logAuth = createDebug('rosetta:auth');
export const logQuota = createDebug('rosetta:quota');
export const logProvider = createDebug('rosetta:provider');

/**
 * Where the gateway says what its operator must act on (an upstream that rejected the gateway's key): the
 * `observability.logger` option, default `console`. Never given a key.
 */
export interface Logger {
  warn(message: string): void;
}
