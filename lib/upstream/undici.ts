/**
 * The parts of undici the gateway uses — Pool, Agent, the request API and the error classes —
 * loaded from their own modules rather than from the package's entry point. The entry also loads
 * fetch, WebSocket, EventSource, the cache and mock agents and the proxy agents: about 2.9 MB of
 * heap (measured after a full GC, undici 7.30) that a gateway never uses, and that a host's
 * process would carry for its whole life. The old generation V8 sizes from it shows up again in
 * RSS (docs/performance.md).
 *
 * undici has no `exports` map, so these paths resolve, but they are its internal layout: if a
 * release moves one, the package's entry point is loaded instead (the same classes, only the
 * memory is lost), and `__tests__/upstream/undici-parts.test.ts` fails so the paths get updated.
 */
import type * as Undici from 'undici';

/** A request on a dispatcher (a Pool or an Agent), as `dispatcher.request(options)` gives it. */
export type RequestOn = (
  dispatcher: Undici.Dispatcher,
  options: Undici.Dispatcher.RequestOptions,
) => Promise<Undici.Dispatcher.ResponseData>;

/** What the gateway takes from undici. */
export interface UndiciParts {
  Pool: typeof Undici.Pool;
  Agent: typeof Undici.Agent;
  errors: typeof Undici.errors;
  request: RequestOn;
  /** `modules`: loaded from their own modules; `package`: from the package's entry point. */
  loadedFrom: 'modules' | 'package';
}

type Require = (id: string) => unknown;

/**
 * Loads the parts from undici's own modules, or from its entry point when a module is missing or
 * is not what it should be. `load` is `require` (replaceable in tests).
 */
export function loadUndiciParts(load: Require = require): UndiciParts {
  try {
    const Pool = load('undici/lib/dispatcher/pool') as typeof Undici.Pool;
    const Agent = load('undici/lib/dispatcher/agent') as typeof Undici.Agent;
    const errors = load('undici/lib/core/errors') as typeof Undici.errors;
    // undici's entry copies these API functions onto Dispatcher.prototype; called with the
    // dispatcher as `this`, they need no copying (and no change to undici's prototype).
    const requestApi = load('undici/lib/api/api-request') as (
      this: Undici.Dispatcher,
      options: Undici.Dispatcher.RequestOptions,
    ) => Promise<Undici.Dispatcher.ResponseData>;
    if (
      typeof Pool === 'function' &&
      typeof Agent === 'function' &&
      typeof requestApi === 'function' &&
      typeof errors?.UndiciError === 'function'
    ) {
      return {
        Pool,
        Agent,
        errors,
        request: (dispatcher, options) => requestApi.call(dispatcher, options),
        loadedFrom: 'modules',
      };
    }
  } catch {
    // A layout this release does not have: the entry point below.
  }
  const undici = load('undici') as typeof Undici;
  return {
    Pool: undici.Pool,
    Agent: undici.Agent,
    errors: undici.errors,
    request: (dispatcher, options) => dispatcher.request(options),
    loadedFrom: 'package',
  };
}

/** The parts every provider shares. */
export const undici: UndiciParts = loadUndiciParts();
