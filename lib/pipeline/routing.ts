/**
 * Routing: which codec answers a request, and as what — a model call (POST), a stored response
 * (GET / DELETE), a model list (GET), a 405 in the codec's envelope, or not the gateway's
 * (`next()`). Paths are relative to where the gateway is mounted.
 */
import type { NextFunction, Request, Response } from 'express';
import { percentDecode } from '../percent-decode';
import type { HttpRequestView, ProtocolCodec, RouteMatch, StoredResponseMatch } from '../protocols/types';

/** A model list route found for a GET path: the codec that answers and the model id, if one was asked for. */
export interface ModelListMatch {
  codec: ProtocolCodec;
  modelId?: string;
}

/** What {@link dispatch} hands a routed request to. */
export interface RouteHandlers {
  /** A codec's POST route: a model call. */
  handleCall(
    codec: ProtocolCodec,
    match: RouteMatch,
    request: Request,
    response: Response,
    path: string,
  ): Promise<void>;
  /** A stored-response route (`GET` / `DELETE`). */
  handleStoredResponse(
    codec: ProtocolCodec,
    match: StoredResponseMatch,
    request: Request,
    response: Response,
    path: string,
  ): Promise<void>;
  /** A model-list GET route. */
  handleModelList(list: ModelListMatch, request: Request, response: Response, path: string): Promise<void>;
  /** A route of the gateway's asked with the wrong method: a 405 naming the `allowed` one. */
  refuseMethod(codec: ProtocolCodec, request: Request, response: Response, allowed: string): Promise<void>;
}

/**
 * Routes a request: each codec's `match(path)` in registry order (a match on a non-POST method is
 * a 405), then the stored-response routes (`GET` / `DELETE`, else a 405), then the model-list
 * routes, else `next()`.
 */
export function dispatch(
  codecs: readonly ProtocolCodec[],
  handlers: RouteHandlers,
  request: Request,
  response: Response,
  next: NextFunction,
): void {
  const path = normalizePath(pathOf(request));
  for (const codec of codecs) {
    const match = codec.match(path);
    if (!match) continue;
    if (request.method !== 'POST') void handlers.refuseMethod(codec, request, response, 'POST');
    else void handlers.handleCall(codec, match, request, response, path);
    return;
  }
  for (const codec of codecs) {
    const stored = codec.storedResponses?.match(path);
    if (!stored) continue;
    const method = request.method;
    const allowed = stored.resource === 'response' ? 'GET, DELETE' : 'GET';
    if (method === 'GET' || method === 'HEAD' || (method === 'DELETE' && stored.resource === 'response'))
      void handlers.handleStoredResponse(codec, stored, request, response, path);
    else void handlers.refuseMethod(codec, request, response, allowed);
    return;
  }
  const list = matchModelList(codecs, path, request);
  if (list) {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      void handlers.refuseMethod(list.codec, request, response, 'GET');
    else void handlers.handleModelList(list, request, response, path);
    return;
  }
  next();
}

/**
 * The model-list route of a path: among the codecs listing on it, the first whose `claims` is true,
 * else the one without `claims`.
 */
export function matchModelList(
  codecs: readonly ProtocolCodec[],
  path: string,
  request: Request,
): ModelListMatch | undefined {
  let fallback: ModelListMatch | undefined;
  let claimed: ModelListMatch | undefined;
  let view: HttpRequestView | undefined;
  for (const codec of codecs) {
    const routes = codec.modelList;
    if (!routes) continue;
    for (const base of routes.paths) {
      let modelId: string | undefined;
      if (path === base) modelId = undefined;
      else if (path.startsWith(`${base}/`)) modelId = percentDecode(path.slice(base.length + 1));
      else continue;
      if (!routes.claims) {
        fallback ??= { codec, modelId };
        continue;
      }
      view ??= requestView(request, path, undefined);
      if (!claimed && routes.claims(view)) claimed = { codec, modelId };
    }
  }
  return claimed ?? fallback;
}

/**
 * The view codecs read. Its `query` is parsed on first read: only Gemini's key and stream format, and model-list
 * paging, look at it.
 */
export function requestView(request: Request, path: string, body: unknown): HttpRequestView {
  const url = request.url;
  let query: URLSearchParams | undefined;
  return {
    method: request.method,
    path,
    headers: request.headers,
    get query() {
      if (query === undefined) {
        const queryStart = url.indexOf('?');
        query = new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
      }
      return query;
    },
    set query(value: URLSearchParams) {
      query = value;
    },
    body,
  };
}

function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The path of a request as routed (below the gateway's mount point, without the query). Read from
 * `request.url` rather than Express's `request.path` getter, which parses the URL again; an
 * absolute-form target (`POST http://host/v1/…`, sent to proxies) goes through Express's parser.
 */
function pathOf(request: Request): string {
  const url = request.url;
  if (url.charCodeAt(0) !== 0x2f /* '/' */) return request.path;
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
