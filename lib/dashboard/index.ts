/**
 * rosetta-gateway/dashboard: a page over the usage log and the gateway's live state, as a middleware the host mounts
 * behind its own auth (docs/operations.md, *Dashboard*):
 *
 * ```js
 * app.use('/admin', createDashboard({ usage, gateway, auth: requireAdmin }));
 * ```
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { booleanOption, configError, knownOptions, positiveInteger } from '../config-check';
import { DashboardApi } from './api';
import { DashboardAssets } from './assets';
import type { Dashboard, DashboardOptions } from './types';

export type { Dashboard, DashboardMiddleware, DashboardOptions, DashboardUsageLog } from './types';
export type { DashboardSummary, Percentiles, SpendRow } from './summary';

const OWNER = 'createDashboard';
const OPTION_NAMES = ['usage', 'gateway', 'auth', 'allowUnauthenticated', 'logger', 'maxRecords'] as const;
const DEFAULT_MAX_RECORDS = 200_000;

/**
 * The dashboard: `GET /` (the page), `/assets/*` (its script, styles and the uPlot charting library, served from the
 * package: no CDN), `/api/summary?window=`, `/api/calls?key=&model=&outcome=&window=&limit=`, `/api/live`. Every other
 * path is passed on with `next()`. It shows key ids (never a key: records hold none).
 *
 * @throws GatewayConfigError for a bad option.
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  knownOptions(OWNER, options, OPTION_NAMES);
  const { usage, gateway, auth, logger = console } = options;
  if (typeof usage?.query !== 'function')
    configError(OWNER, 'usage', 'must be a usage log with a query() method (MemoryUsageLog, RedisUsageStream).');
  if (gateway !== undefined && typeof gateway?.live !== 'function')
    configError(OWNER, 'gateway', 'must be the gateway createGateway() returned.');
  if (auth !== undefined && auth !== 'host' && typeof auth !== 'function')
    configError(OWNER, 'auth', "must be a middleware (request, response, next) or 'host'.");
  if (typeof logger?.warn !== 'function')
    configError(OWNER, 'logger', 'must be an object with a warn(message) method.');
  const open = booleanOption(OWNER, 'allowUnauthenticated', options.allowUnauthenticated, false);
  if (open && auth !== undefined) configError(OWNER, 'allowUnauthenticated', "cannot be true with 'auth': choose one.");
  const maxRecords = positiveInteger(OWNER, 'maxRecords', options.maxRecords, DEFAULT_MAX_RECORDS);
  const unguarded = auth === undefined && !open;
  if (unguarded) logger.warn(UNGUARDED_WARNING);
  const assets = new DashboardAssets(unguarded ? UNGUARDED_BANNER : undefined);
  const api = new DashboardApi(usage, gateway, maxRecords);
  let checkedHostAuth = auth !== 'host';

  const serve = (request: IncomingMessage, response: ServerResponse, url: Target, next: (error?: unknown) => void) => {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      response.end('The dashboard is read-only.\n');
      return;
    }
    if (!checkedHostAuth) {
      checkedHostAuth = true;
      if (!request.headers.authorization && !request.headers.cookie) logger.warn(HOST_AUTH_WARNING);
    }
    const { path } = url;
    if (path.startsWith('/api/')) api.answer(path.slice('/api/'.length), url.params, response).catch(next);
    else assets.answer(request, path, response);
  };

  return (request, response, next) => {
    const url = targetOf(request.url ?? '/');
    const { path } = url;
    // Only its own paths: every other request under the mount goes on to the host's routes, untouched.
    if (path !== '/' && !path.startsWith('/assets/') && !path.startsWith('/api/')) {
      next();
      return;
    }
    if (typeof auth !== 'function') {
      serve(request, response, url, next);
      return;
    }
    const passed: unknown = auth(request, response, (error?: unknown) => {
      if (error === undefined) serve(request, response, url, next);
      else next(error);
    });
    // An async middleware's rejection is the host's error, as Express 5 would make it.
    if (passed instanceof Promise) passed.catch(next);
  };
}

/** A request's path (below the mount) and query. */
interface Target {
  path: string;
  params: URLSearchParams;
}

/** The path and query of a request's URL, read as they are (a path of `//x` is not a host, as `new URL` would read it). */
function targetOf(url: string): Target {
  const at = url.indexOf('?');
  return at === -1
    ? { path: url, params: new URLSearchParams() }
    : { path: url.slice(0, at), params: new URLSearchParams(url.slice(at + 1)) };
}

const UNGUARDED_WARNING =
  'rosetta-gateway dashboard: created with neither `auth` nor `allowUnauthenticated: true`. Anyone who reaches its ' +
  "mount path sees every key id's calls and spend. Pass `auth: yourAuthMiddleware` (or `auth: 'host'` if your own " +
  'middleware guards the mount), or `allowUnauthenticated: true` to serve it openly.';

const HOST_AUTH_WARNING =
  "rosetta-gateway dashboard: `auth: 'host'`, but its first request carried neither an Authorization header nor a " +
  'cookie. Check that your auth middleware is mounted in front of the dashboard.';

const UNGUARDED_BANNER =
  'This dashboard has no auth configured: anyone who reaches this address sees it. Pass `auth` to createDashboard.';
