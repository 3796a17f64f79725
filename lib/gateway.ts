/**
 * createGateway(): validates the options, builds the gateway's request pipeline (lib/pipeline/) and
 * returns it as an Express middleware function with the gateway's handles attached.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { GatewayConfigError } from './errors';
import { GatewayMetrics, type MetricsHandler, metricsOff } from './metrics/gateway-metrics';
import { resolveOptions, type GatewayOptions } from './options';
import { RequestPipeline } from './pipeline/pipeline';
import { attachWebSocket, type WebSocketAttachment, type WebSocketOptions } from './pipeline/socket/upgrade';
import { builtinCodecs } from './protocols/registry';
import { builtinProviders } from './providers/registry';
import { type DeploymentsHandler, deploymentsHandler } from './routing/health-view';
import type { DeploymentView } from './routing/router';

/** What {@link Gateway.live} answers: the gateway's state now, which no usage record carries. */
export interface GatewayLiveState {
  /** Streamed answers being written by this process now. */
  openStreams: number;
  /** Model calls being served by this process now. */
  callsInFlight: number;
  /** Each deployment of a model routed over several (the health view's `deployments`; empty when there are none). */
  deployments: DeploymentView[];
}

/**
 * What {@link createGateway} returns: an Express middleware (`app.use(gateway)`, `app.use('/ai', gateway)`) that
 * answers the gateway's routes and passes every other request on with `next()`, with the gateway's handles attached.
 */
export type Gateway = ((request: Request, response: Response, next: NextFunction) => void) & {
  /** Resolves once every store and provider `init()` has finished; requests wait for it too. */
  readonly ready: Promise<void>;
  /**
   * Shuts the gateway down: refuses new calls (503), ends calls in flight (a stream gets its
   * protocol's error event, a call not yet answered a 503; holds are settled or released), then
   * calls `close()` on every provider (whose open upstream connections are destroyed after a short
   * grace) and store. Resolves within a few seconds however the upstreams behave; calling it again
   * returns the same promise.
   */
  close(): Promise<void>;
  /**
   * The Prometheus scrape handler: `app.get('/metrics', gateway.metrics)` answers the metrics registry's text
   * exposition (docs/operations.md, "Metrics"); with `metrics: false`, a 404 saying so.
   */
  readonly metrics: MetricsHandler;
  /**
   * The deployment health view (docs/routing.md, *Health view*): `app.get('/admin/deployments', yourAuth,
   * gateway.deployments)` answers each deployment's state, recent failures and cooldown end as JSON. Read-only; it
   * holds no key, but mount it behind your own auth.
   */
  readonly deployments: DeploymentsHandler;
  /**
   * The gateway's live state as data (what `deployments` and the open-streams gauge show): for a host's own views,
   * such as the dashboard (`rosetta-gateway/dashboard`). Holds no key.
   */
  live(): Promise<GatewayLiveState>;
  /**
   * Serves the Responses API over WebSocket on `server` (the host's HTTP server: `app.listen()`'s return value):
   * `ws(s)://host/v1/responses`, each `response.create` turn a call through the same path as `POST /v1/responses`
   * (docs/protocols.md, *Responses over WebSocket*). Express middleware never sees an upgrade, so this one line is
   * the host's: `gateway.attachWebSocket(app.listen(8080))`. `close()` closes its sockets too.
   */
  attachWebSocket(server: Server, options?: WebSocketOptions): WebSocketAttachment;
};

function looksLikeRequest(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as IncomingMessage).method === 'string' &&
    'headers' in value &&
    'socket' in value
  );
}

let warnedNotCalled = false;

/**
 * `app.use(createGateway)`: answers the request Express handed the factory with a JSON 500 naming
 * the mistake (instead of Express's HTML error page) and warns once on the process. False when
 * `response` is not a response that can still be answered (then the caller throws).
 */
function answerNotCalled(error: GatewayConfigError, response: unknown): boolean {
  const candidate = response as Partial<Response> | undefined;
  if (typeof candidate?.setHeader !== 'function' || typeof candidate.end !== 'function' || candidate.headersSent)
    return false;
  if (!warnedNotCalled) {
    warnedNotCalled = true;
    process.emitWarning(error.message, { code: error.code });
  }
  const body = JSON.stringify({
    error: { message: error.message, type: 'server_error', param: null, code: error.code },
  });
  candidate.statusCode = 500;
  candidate.setHeader('content-type', 'application/json; charset=utf-8');
  candidate.setHeader('content-length', Buffer.byteLength(body));
  candidate.end(body);
  return true;
}

/**
 * Creates a gateway: an Express middleware serving the OpenAI chat-completions, OpenAI images,
 * Anthropic messages and Gemini generateContent protocols.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createGateway } from 'rosetta-gateway';
 *
 * const app = express();
 * app.use('/ai', createGateway({ keys: [{ key: process.env.MY_KEY!, balance: 100_000 }] }));
 * app.listen(8080); // OpenAI base URL: http://localhost:8080/ai/v1
 * ```
 * @throws GatewayConfigError with a stable `code` (`ERR_GATEWAY_*`) naming the bad option.
 */
export function createGateway(options: GatewayOptions): Gateway {
  if (looksLikeRequest(options)) {
    const error = new GatewayConfigError(
      'ERR_GATEWAY_NOT_CALLED',
      'createGateway was passed to app.use() without being called: write app.use(createGateway({ … })).',
    );
    // Express calls the uncalled factory as middleware, (request, response, next), on every request.
    // biome-ignore lint/complexity/noArguments: the factory's own signature has one parameter; Express's response is its second argument
    if (!answerNotCalled(error, arguments[1])) throw error;
    return undefined as never; // Express ignores what a middleware returns
  }
  const config = resolveOptions(options, { providers: builtinProviders, codecs: builtinCodecs() });
  const pipeline = new RequestPipeline(config);
  // A plain middleware, not a Router: the host app's Router has just routed the request, and a second routing pass
  // of the gateway's own would cost more than the call's own dispatch (docs/performance.md).
  const handler = (request: Request, response: Response, next: NextFunction): void => {
    try {
      pipeline.dispatch(request, response, next);
    } catch (error) {
      next(error);
    }
  };
  const lifecycle = pipeline.lifecycle;
  const metrics =
    config.metrics &&
    new GatewayMetrics(config.metrics, config, lifecycle, () => pipeline.router.cooling(pipeline.models.all()));
  if (metrics) pipeline.usage.add(metrics);
  const attached: WebSocketAttachment[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= lifecycle.close().finally(() => {
      for (const attachment of attached) attachment.close();
      metrics?.close();
    }));
  const deployments = deploymentsHandler(pipeline.router, () => pipeline.models.all());
  return Object.assign(handler, {
    ready: lifecycle.ready,
    close,
    metrics: metrics ? metrics.handler : metricsOff,
    deployments,
    live: async (): Promise<GatewayLiveState> => ({
      openStreams: lifecycle.openStreams,
      callsInFlight: lifecycle.inFlight,
      deployments: await pipeline.router.view(pipeline.models.all()),
    }),
    attachWebSocket(server: Server, options?: WebSocketOptions): WebSocketAttachment {
      const attachment = attachWebSocket(pipeline, server, options);
      attached.push(attachment);
      return attachment;
    },
  });
}
