/** The request path's debug loggers (`DEBUG=rosetta:*`), one instance per namespace. */
import createDebug from 'debug';

export const logRequest = createDebug('rosetta:request');
export const logAuth = createDebug('rosetta:auth');
export const logQuota = createDebug('rosetta:quota');
export const logProvider = createDebug('rosetta:provider');
