/**
 * One gateway's request pipeline: its state (options, model table, lifecycle, hop guard, request
 * ids) and the one path of a model call, top to bottom:
 * route → authenticate → read body → decode → the operation (resolve model → reserve quota →
 * provider → settle quota) → encode.
 */
import type { NextFunction, Request, Response } from 'express';
import { GatewayError, toGatewayError } from '../errors';
import { HopGuard } from '../hops';
import { drainBody, MAX_DRAIN_BYTES, mayBeLargerThan, readJsonBody, type BodyLimits } from '../http/read-body';
import { toDictionaryMode } from '../http/dictionary-mode';
import { sendJson } from '../http/send';
import { ModelTable } from '../models';
import { DeploymentRouter } from '../routing/router';
import type { ResolvedOptions } from '../options';
import { CallCancellation } from '../providers/cancellation';
import type { ProtocolCodec, RouteMatch, StoredResponseMatch } from '../protocols/types';
import { authenticate } from './authenticate';
import { Call } from './call';
import { Lifecycle } from './lifecycle';
import { logRequest } from '../log';
import { requireBalance } from './quota-hold';
import { type ChargedOperation, runOperation } from './run-operation';
import { GatewayTracer } from '../tracing/call-trace';
import { operationFor } from './operations';
import { serveModelList } from './operations/model-list';
import { serveStoredResponse } from './operations/stored-response';
import type { GatewayParts } from './parts';
import { RequestIds } from './request-id';
import { fail, refuseMethod } from './respond';
import { dispatch, requestView, type ModelListMatch, type RouteHandlers } from './routing';
import { emitUsage } from './usage';
import { UsageDelivery, UsageObservers } from '../usage/sink';

/** Runs calls for one gateway; holds no state shared with any other gateway. */
export class RequestPipeline implements GatewayParts, RouteHandlers {
  readonly models: ModelTable;
  readonly lifecycle: Lifecycle;
  /** Who gets each call's usage record: the `usageSink`'s delivery, when one is configured, and any observer added. */
  readonly usage = new UsageObservers();
  /** Routes the calls of models with several deployments (docs/routing.md). */
  readonly router: DeploymentRouter;
  private readonly hops: HopGuard;
  private readonly bodyLimits: BodyLimits;
  private readonly ids = new RequestIds();
  /** The gateway's OpenTelemetry tracer (a no-op until the host registers an SDK). */
  readonly tracer: GatewayTracer;

  constructor(readonly config: ResolvedOptions) {
    this.hops = new HopGuard(config.maxHops);
    this.router = new DeploymentRouter(config.routing, config.rateLimitStore);
    this.models = new ModelTable(
      config.models,
      config.providers,
      {
        maxOutputTokens: config.defaultMaxOutputTokens,
        created: Math.floor(Date.now() / 1000),
        providerModelIds: config.providerModelIds,
      },
      this.router,
    );
    this.tracer = new GatewayTracer(config.traces.captureContent);
    this.bodyLimits = { maxBytes: config.maxBodyBytes, maxDepth: config.maxJsonDepth };
    const delivery = config.usageSink && new UsageDelivery(config.usageSink);
    if (delivery) this.usage.add(delivery);
    this.lifecycle = new Lifecycle(config, delivery);
  }

  /** Route: a codec's POST route, a stored-response route, a model-list GET route, a 405, or not ours (`next()`). */
  dispatch(request: Request, response: Response, next: NextFunction): void {
    dispatch(this.config.codecs, this, request, response, next);
  }

  /**
   * The one request path of a model call; its usage record is emitted once, when it is over. `given` is a body
   * already read: a socket transport's message (lib/pipeline/socket/), whose turn is this same path, answered on the
   * `response` that stands in for the socket.
   */
  async handleCall(
    codec: ProtocolCodec,
    match: RouteMatch,
    request: Request,
    response: Response,
    path: string,
    given?: { body: unknown },
  ): Promise<void> {
    // Every property added to req and res from here on is a hash insert, not a new hidden class (./http/dictionary-mode.ts).
    toDictionaryMode(request);
    toDictionaryMode(response);
    const requestId = this.ids.next();
    const view = requestView(request, path, undefined);
    const cancellation = new CallCancellation();
    const call = new Call(requestId, view, cancellation, response, codec.name, match.route.operation);
    call.rateLimitHeaders = codec.rateLimitHeaders;
    call.trace = this.tracer.startCall(request.headers, match.route.operation, codec.name);
    const started = performance.now();
    // The caller leaving before the call is over cancels the upstream call. A flag of our own is
    // cheaper than asking the response whether it finished (docs/performance.md, "Why the gateway's
    // extra work costs so much").
    let answered = false;
    response.on('close', () => {
      if (!answered) cancellation.abort(new GatewayError('invalid_request', 'The client closed the connection.'));
    });
    const lifecycle = this.lifecycle;
    let bodyRead = given !== undefined;
    let operation: ChargedOperation<unknown> | undefined;
    try {
      if (lifecycle.shutdownReason) throw lifecycle.shutdownReason;
      // Before the body is read: a request loop costs one refused call per hop, nothing more.
      call.upstreamHeaders = this.hops.upstreamHeaders(request.headers);
      lifecycle.enter(cancellation, response);
      if (!lifecycle.initialized) await lifecycle.waitReady();
      // The key before the body: a caller without a valid key costs no body read or JSON parse.
      call.principal = await authenticate(this.config.keyStore, codec, view);
      // A key with nothing to spend is refused before a large body is read and parsed for it: one store call, made
      // only where the body could cost more than that call.
      if (!given && mayBeLargerThan(request, MAX_DRAIN_BYTES)) {
        await requireBalance(this.config.quotaStore, call.principal, { model: '', operation: 'balance', requestId });
      }
      bodyRead = true;
      view.body = given ? given.body : await readJsonBody(request, this.bodyLimits);
      // The operation: decode → resolve model → admit and hold → provider → settle → encode.
      operation = operationFor(this, match.route, match.params, call);
      const encoded = await runOperation(this, call, operation);
      if (encoded !== undefined) {
        // A caller that left while its answer was made (and charged) never gets it.
        if (response.destroyed) call.cancelled = true;
        call.firstByte = Date.now();
        sendJson(response, encoded, { 'x-request-id': requestId });
      }
      if (logRequest.enabled) {
        const outcome = encoded === undefined ? 'stream' : '200';
        logRequest(
          '%s %s %s %s %sms',
          requestId,
          codec.name,
          call.model,
          outcome,
          (performance.now() - started).toFixed(1),
        );
      }
    } catch (thrown) {
      // Refused before its body was read (a loop, a shutdown, a bad key): at most a little of it is
      // read and dropped, or the connection is closed after the answer.
      if (!bodyRead) await drainBody(request, response, this.bodyLimits.maxBytes);
      const failure = toGatewayError(lifecycle.failureOf(cancellation, thrown));
      call.failure = failure;
      call.cancelled = cancellation.aborted && failure !== lifecycle.shutdownReason;
      if (!response.headersSent && !response.destroyed) call.firstByte = Date.now();
      fail(codec, call, response, failure, started);
    } finally {
      answered = true;
      call.deployment?.end(call.usage);
      // Settled (or released) and answered: the one place a call's usage record is made.
      emitUsage(this.usage, call, this.tracer.captureContent ? () => operation?.content?.() : undefined);
      lifecycle.leave(cancellation);
    }
  }

  /** A stored answer read or deleted. */
  handleStoredResponse(
    codec: ProtocolCodec,
    match: StoredResponseMatch,
    request: Request,
    response: Response,
    path: string,
  ): Promise<void> {
    return serveStoredResponse(this, codec, match, request, response, path, this.ids.next());
  }

  /** A model list or one model. */
  handleModelList(list: ModelListMatch, request: Request, response: Response, path: string): Promise<void> {
    return serveModelList(this, list, request, response, path, this.ids.next());
  }

  /** A 405 in the codec's envelope. */
  refuseMethod(codec: ProtocolCodec, request: Request, response: Response, allowed: string): Promise<void> {
    return refuseMethod(codec, request, response, allowed, this.ids.next(), this.bodyLimits.maxBytes);
  }
}
