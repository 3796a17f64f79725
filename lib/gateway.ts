/**
 * createGateway() and the one request path, top to bottom:
 * route → read body → authenticate → decode → resolve model → reserve quota → provider → settle quota → encode.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import createDebug from 'debug';
import type { GenerateRequest, ProviderStreamPart } from './canonical';
import { GatewayConfigError, GatewayError, toGatewayError } from './errors';
import { HopGuard } from './hops';
import { drainBody, readJsonBody, type BodyLimits } from './http/read-body';
import { CoalescingWriter, sendJson } from './http/send';
import { ModelTable, type ResolvedModel } from './models';
import { resolveOptions, type GatewayOptions, type ResolvedOptions } from './options';
import { builtinCodecs } from './protocols/registry';
import type { CallResult, DecodedCall, EncodeContext, HttpRequestView, ProtocolCodec, RouteMatch, StreamEncoder } from './protocols/types';
import { builtinProviders } from './providers/registry';
import { CallCancellation, providerCallContext } from './providers/cancellation';
import { affordableOutputTokens, chargeForImage, chargeForUsage, estimateGenerate, estimateImage, type CostEstimate } from './quota';
import type { Principal, Reservation, ReservationInfo, Settlement } from './stores/types';
import { countRequestTokens, estimateRequestTokens } from './tokenizer';
import { DEFAULT_MAX_IMAGE_TOKENS, inputTokenBound, measureInput, type InputSize } from './token-bound';
import { collectStream } from './stream/collect';
import { StreamMeter } from './stream/meter';
import { replayResponse } from './stream/replay';

const logRequest = createDebug('rosetta:request');
const logAuth = createDebug('rosetta:auth');
const logQuota = createDebug('rosetta:quota');
const logProvider = createDebug('rosetta:provider');

/** The Router that {@link createGateway} returns, with lifecycle handles. */
export type Gateway = Router & {
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
};

/** A text call with its hold: the request as the provider gets it (output cap set), and its model's own input count if its provider has one. */
interface HeldCall {
  reservation: Reservation;
  request: GenerateRequest;
  countedInput: number | undefined;
}

/** How long `close()` waits for calls it aborted to finish (settle their holds) before it cuts their connections. */
const CLOSE_GRACE_MS = 1_000;

/** Failures a fallback model may cure: the upstream's fault, not the request's. */
const FALLBACK_KINDS: ReadonlySet<string> = new Set(['upstream', 'upstream_timeout', 'overloaded']);

/**
 * Headers of every streamed response (a codec may override them). No `connection` header: Node
 * sends `keep-alive` itself, or `close` when the client asked to close; naming it here would
 * override the client's `Connection: close`.
 */
const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** The model of a fallback chain whose prices (output first, then input) are highest: holds are sized for it. */
function priciest(chain: readonly ResolvedModel[]): ResolvedModel {
  return chain.reduce((best, model) =>
    model.pricing.output > best.pricing.output || (model.pricing.output === best.pricing.output && model.pricing.input > best.pricing.input) ? model : best,
  );
}

/** Resolves when a response can take more data, or is gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** A model list route found for a GET path: the codec that answers and the model id, if one was asked for. */
interface ModelListMatch {
  codec: ProtocolCodec;
  modelId?: string;
}

/** Random bytes for request ids, drawn 16 at a time (one `randomBytes` call per 256 ids). */
const ID_BYTES = 16;
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** `req_` and 32 random hex digits. */
function newRequestId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 256);
    idOffset = 0;
  }
  const id = idPool.toString('hex', idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return `req_${id}`;
}

function looksLikeRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as IncomingMessage).method === 'string' && 'headers' in value && 'socket' in value;
}

let warnedNotCalled = false;

/**
 * `app.use(createGateway)`: answers the request Express handed the factory with a JSON 500 naming
 * the mistake (instead of Express's HTML error page) and warns once on the process. False when
 * `response` is not a response that can still be answered (then the caller throws).
 */
function answerNotCalled(error: GatewayConfigError, response: unknown): boolean {
  const candidate = response as Partial<Response> | undefined;
  if (typeof candidate?.setHeader !== 'function' || typeof candidate.end !== 'function' || candidate.headersSent) return false;
  if (!warnedNotCalled) {
    warnedNotCalled = true;
    process.emitWarning(error.message, { code: error.code });
  }
  const body = JSON.stringify({ error: { message: error.message, type: 'server_error', param: null, code: error.code } });
  candidate.statusCode = 500;
  candidate.setHeader('content-type', 'application/json; charset=utf-8');
  candidate.setHeader('content-length', Buffer.byteLength(body));
  candidate.end(body);
  return true;
}

function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
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

/** The view codecs read. Its `query` is parsed on first read: only Gemini's key and stream format, and model-list paging, look at it. */
function requestView(request: Request, path: string, body: unknown): HttpRequestView {
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

/** Runs calls for one gateway; holds no state shared with any other gateway. */
class RequestPipeline {
  private readonly models: ModelTable;
  private readonly bodyLimits: BodyLimits;
  private initialized = false;
  private pendingInit: Promise<void> | undefined;
  readonly ready: Promise<void>;
  private readonly hops: HopGuard;
  /** Calls being served, with their responses: what `close()` ends. */
  private readonly calls = new Map<CallCancellation, ServerResponse>();
  /** Set by `close()`: the reason its aborted calls carry. */
  private shutdownReason: GatewayError | undefined;
  private closed: Promise<void> | undefined;
  /** Called when the last call in flight ends, while `close()` waits for it. */
  private onIdle: (() => void) | undefined;

  constructor(private readonly config: ResolvedOptions) {
    this.hops = new HopGuard(config.maxHops);
    this.models = new ModelTable(config.models, config.providers, {
      maxOutputTokens: config.defaultMaxOutputTokens,
      created: Math.floor(Date.now() / 1000),
      providerModelIds: config.providerModelIds,
    });
    this.bodyLimits = { maxBytes: config.maxBodyBytes, maxDepth: config.maxJsonDepth };
    this.ready = this.init();
    this.ready.catch(() => undefined);
  }

  private async init(): Promise<void> {
    await this.config.keyStore.init?.();
    await this.config.quotaStore.init?.();
    for (const provider of this.config.providers.values()) await provider.init?.();
    this.initialized = true;
  }

  /** Waits for init; after a failed init, each request tries it again (one attempt at a time), so a store that comes back is used. */
  private async waitReady(): Promise<void> {
    const attempt = this.pendingInit ?? this.ready;
    try {
      await attempt;
    } catch (error) {
      if (this.pendingInit === attempt || this.pendingInit === undefined) {
        this.pendingInit = this.init();
        this.pendingInit.catch(() => undefined);
      }
      try {
        await this.pendingInit;
      } catch {
        throw new GatewayError('unavailable', 'The gateway could not initialize its stores or providers.', { cause: error, retryAfter: 1 });
      }
    }
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    const reason = new GatewayError('unavailable', 'The gateway is shutting down; try again later.', { code: 'shutting_down', retryAfter: 1 });
    this.shutdownReason = reason;
    for (const cancellation of this.calls.keys()) cancellation.abort(reason);
    await this.whenIdle(CLOSE_GRACE_MS);
    // Calls still going (a slow client, a slow store): their connections are cut, and their holds get one more grace to settle.
    for (const response of this.calls.values()) response.destroy();
    await this.whenIdle(CLOSE_GRACE_MS);
    for (const provider of this.config.providers.values()) await provider.close?.();
    await this.config.quotaStore.close?.();
    await this.config.keyStore.close?.();
  }

  /** Resolves when no call is in flight, or after `ms`. */
  private whenIdle(ms: number): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onIdle = done;
    });
  }

  /** Route: a codec's POST route, a model-list GET route, or not ours (next()). */
  dispatch(request: Request, response: Response, next: NextFunction): void {
    const path = normalizePath(pathOf(request));
    for (const codec of this.config.codecs) {
      const match = codec.match(path);
      if (!match) continue;
      if (request.method !== 'POST') {
        void this.refuseMethod(codec, request, response, 'POST');
        return;
      }
      void this.handleCall(codec, match, request, response, path);
      return;
    }
    const list = this.matchModelList(path, request);
    if (list) {
      if (request.method !== 'GET' && request.method !== 'HEAD') void this.refuseMethod(list.codec, request, response, 'GET');
      else void this.handleModelList(list, request, response, path);
      return;
    }
    next();
  }

  /** The one request path of a model call. */
  private async handleCall(codec: ProtocolCodec, match: RouteMatch, request: Request, response: Response, path: string): Promise<void> {
    const requestId = newRequestId();
    const context: EncodeContext = { requestId };
    const started = performance.now();
    const cancellation = new CallCancellation();
    // The caller leaving before the call is over cancels the upstream call. A flag of our own is
    // cheaper than asking the response whether it finished (docs/performance.md, "Why the gateway's
    // extra work costs so much").
    let answered = false;
    response.on('close', () => {
      if (!answered) cancellation.abort(new GatewayError('invalid_request', 'The client closed the connection.'));
    });
    let reservation: Reservation | undefined;
    try {
      if (this.shutdownReason) throw this.shutdownReason;
      // Before the body is read: a request loop costs one refused call per hop, nothing more.
      const upstreamHeaders = this.hops.upstreamHeaders(request.headers);
      this.calls.set(cancellation, response);
      if (!this.initialized) await this.waitReady();
      const body = await readJsonBody(request, this.bodyLimits);
      const view = requestView(request, path, body);
      context.request = view;
      const principal = await this.authenticate(codec, view);
      const call = codec.decode(match, view);
      context.call = call;
      let result: CallResult;
      if (call.operation === 'generate') {
        const model = this.models.resolve(call.request.model, principal, 'text');
        if (call.request.stream) this.checkStreamable(codec, call.request);
        const held = await this.reserveGenerate(call.request, model, principal, requestId);
        reservation = held.reservation;
        if (call.request.stream) {
          await this.stream(codec, context, held, model, cancellation, response, upstreamHeaders);
          if (logRequest.enabled) logRequest('%s %s %s stream %sms', requestId, codec.name, call.request.model, (performance.now() - started).toFixed(1));
          return;
        }
        const served = await this.generate(held.request, model, cancellation, requestId, upstreamHeaders);
        result = { operation: 'generate', response: { ...served.value, model: served.model.id } };
        await this.settle(reservation, chargeForUsage(result.response.usage, served.model), 'completed', requestId);
      } else if (call.operation === 'count-tokens') {
        const model = this.models.resolve(call.request.model, principal, 'text');
        await this.requireBalance(principal, model, requestId);
        result = { operation: 'count-tokens', inputTokens: await this.countInput(call.request, model, requestId) };
      } else {
        const model = this.models.resolve(call.request.model, principal, 'image');
        reservation = await this.reserve(principal, estimateImage(call.request, model), model, 'image', requestId);
        const provider = model.provider;
        logProvider('%s → %s/%s image n=%d %dx%d', requestId, provider.name, model.upstreamModel, call.request.n, call.request.width, call.request.height);
        const images = await provider.generateImage!({ ...call.request, model: model.id }, providerCallContext(cancellation, model.upstreamModel, requestId, upstreamHeaders));
        result = { operation: 'image', response: images };
        await this.settle(reservation, chargeForImage(images, model), 'completed', requestId);
      }
      reservation = undefined;
      sendJson(response, codec.encodeResponse(result, context), { 'x-request-id': requestId });
      if (logRequest.enabled) logRequest('%s %s %s 200 %sms', requestId, codec.name, call.request.model, (performance.now() - started).toFixed(1));
    } catch (thrown) {
      if (reservation) await this.release(reservation);
      this.fail(codec, context, response, cancellation.aborted && cancellation.reason === this.shutdownReason ? cancellation.reason : thrown, started);
    } finally {
      answered = true;
      if (this.calls.delete(cancellation) && this.calls.size === 0) this.onIdle?.();
    }
  }

  /**
   * The streaming tail of the request path. The provider's first part is read before any byte is
   * sent, so a failure up to then is an ordinary HTTP error (the caller's catch releases the hold).
   * After that the reservation is this method's, settled however the stream ends: a finished or
   * cancelled stream is charged what was produced; one the upstream broke, only with
   * `chargeFailedStreams` (docs/stores.md, "Failed streams").
   */
  private async stream(
    codec: ProtocolCodec,
    context: EncodeContext,
    held: HeldCall,
    requested: ResolvedModel,
    signal: CallCancellation,
    response: ServerResponse,
    upstreamHeaders: Readonly<Record<string, string>>,
  ): Promise<void> {
    const { model, value: { iterator, first } } = await this.withFallbacks(requested, signal, async (candidate) => {
      const request = { ...held.request, model: candidate.id };
      const providerContext = providerCallContext(signal, candidate.upstreamModel, context.requestId, upstreamHeaders);
      const provider = candidate.provider;
      logProvider('%s → %s/%s stream max_output=%d', context.requestId, provider.name, candidate.upstreamModel, request.maxOutputTokens);
      const parts = provider.stream ? provider.stream(request, providerContext) : replayResponse(provider.generate!(request, providerContext));
      const opened = parts[Symbol.asyncIterator]();
      try {
        const next = await opened.next();
        if (next.done) throw new GatewayError('upstream', 'The upstream stream ended before it started.');
        if (next.value.type === 'error') throw next.value.error;
        return { iterator: opened, first: next.value };
      } catch (error) {
        await opened.return?.()?.catch(() => undefined);
        throw error;
      }
    });

    const meter = new StreamMeter(held.request, held.countedInput ?? estimateRequestTokens(held.request));
    const writer = new CoalescingWriter(response);
    let ended: 'completed' | 'failed' | undefined;
    try {
      const encoder = codec.encodeStream!(context);
      response.writeHead(200, Object.assign({ 'x-request-id': context.requestId }, SSE_HEADERS, encoder.headers));
      // Each part: meter it (which completes its usage figures), encode it, queue its text (one
      // socket write per tick), then the next one. A failure or an early end after the first part
      // becomes an `error` part: the response has started. So does a part that cannot be metered
      // or encoded (a provider's malformed part); if the error part cannot be encoded either,
      // `fail` cuts the connection rather than leave the caller waiting.
      let part: ProviderStreamPart = first.type === 'response-start' ? { ...first, model: model.id } : first;
      for (;;) {
        let text: string;
        try {
          text = encoder.encode(meter.observe(part));
        } catch (error) {
          if (part.type === 'error') throw error;
          logRequest('%s a %s part could not be metered or encoded: %O', context.requestId, part.type, error);
          part = { type: 'error', error: toGatewayError(error) };
          continue;
        }
        if (text.length > 0 && !writer.write(text)) await drained(response);
        if (part.type === 'finish') ended = 'completed';
        else if (part.type === 'error' && !signal.aborted) ended = 'failed';
        if (part.type === 'finish' || part.type === 'error' || signal.aborted) break;
        let next: IteratorResult<ProviderStreamPart>;
        try {
          next = await iterator.next();
        } catch (error) {
          if (signal.aborted) break;
          part = { type: 'error', error: toGatewayError(error) };
          continue;
        }
        if (next.done) {
          if (signal.aborted) break;
          part = { type: 'error', error: new GatewayError('upstream', 'The upstream stream ended before it finished.') };
          continue;
        }
        part = next.value;
      }
      const shutdown = this.shutdownReason;
      if (shutdown && signal.reason === shutdown && part.type !== 'finish' && part.type !== 'error') this.writeShutdownEvent(encoder, meter, writer, shutdown);
      writer.end();
    } finally {
      await iterator.return?.()?.catch(() => undefined);
      const settlement = this.streamSettlement(ended, signal.aborted);
      const charge = settlement === 'failed-free' ? 0 : chargeForUsage(meter.usage(), model);
      await this.settleQuietly(held.reservation, charge, settlement, context.requestId);
    }
  }

  /**
   * How a stream's hold is settled: finished, or cancelled by the caller (who pays for what was
   * produced), or failed for any other reason — an upstream error part, an early end, a part that
   * could not be encoded, a write that threw — charged only with `chargeFailedStreams`.
   */
  private streamSettlement(ended: 'completed' | 'failed' | undefined, aborted: boolean): Settlement {
    if (ended === 'completed') return 'completed';
    if (ended === undefined && aborted) return 'cancelled';
    return this.config.chargeFailedStreams ? 'failed-charged' : 'failed-free';
  }

  /** Ends a stream cut by `close()` with the protocol's error event (nothing, if it cannot be encoded). */
  private writeShutdownEvent(encoder: StreamEncoder, meter: StreamMeter, writer: CoalescingWriter, reason: GatewayError): void {
    try {
      writer.write(encoder.encode(meter.observe({ type: 'error', error: reason })));
    } catch (error) {
      logRequest('the shutdown error event could not be encoded: %O', error);
    }
  }

  /** Refuses streaming requests this codec or call shape cannot stream. */
  private checkStreamable(codec: ProtocolCodec, request: GenerateRequest): void {
    if (!codec.encodeStream) throw new GatewayError('invalid_request', `The ${codec.name} protocol does not stream here; send the request without streaming.`, { param: 'stream' });
    if ((request.choiceCount ?? 1) > 1) throw new GatewayError('invalid_request', 'Streaming more than one choice is not supported; set n (candidateCount) to 1.', { param: 'n' });
  }

  /** Answers a list or a single model in the claiming codec's shape. */
  private async handleModelList(list: ModelListMatch, request: Request, response: Response, path: string): Promise<void> {
    const requestId = newRequestId();
    const context: EncodeContext = { requestId };
    const started = performance.now();
    try {
      if (!this.initialized) await this.waitReady();
      await drainBody(request, response);
      const view = requestView(request, path, undefined);
      const principal = await this.authenticate(list.codec, view);
      const routes = list.codec.modelList!;
      let encoded;
      if (list.modelId === undefined) {
        encoded = routes.encodeList(this.models.listFor(principal), view);
      } else {
        const model = this.models.findFor(list.modelId, principal);
        if (!model) throw new GatewayError('not_found', `The model '${list.modelId}' does not exist or you do not have access to it.`, { code: 'model_not_found' });
        encoded = routes.encodeModel(model, view);
      }
      sendJson(response, encoded, { 'x-request-id': requestId });
      if (logRequest.enabled) logRequest('%s %s models 200 %sms', requestId, list.codec.name, (performance.now() - started).toFixed(1));
    } catch (thrown) {
      this.fail(list.codec, context, response, thrown, started);
    }
  }

  private async refuseMethod(codec: ProtocolCodec, request: Request, response: Response, allowed: string): Promise<void> {
    await drainBody(request, response);
    const error = new GatewayError('method_not_allowed', `${request.method} is not allowed on ${request.path}; use ${allowed}.`, { headers: { allow: allowed } });
    this.fail(codec, { requestId: newRequestId() }, response, error, performance.now());
  }

  private fail(codec: ProtocolCodec, context: EncodeContext, response: ServerResponse, thrown: unknown, started: number): void {
    const error = toGatewayError(thrown);
    if (error.kind === 'internal') logRequest('%s internal error: %O', context.requestId, error.cause ?? error);
    if (response.headersSent) {
      // A stream that broke beyond an error part: end the connection, never leave the caller waiting.
      if (!response.writableEnded) response.destroy();
      return;
    }
    const headers: Record<string, string> = { 'x-request-id': context.requestId, ...error.headers };
    if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfter));
    sendJson(response, codec.encodeError(error, context), headers);
    if (logRequest.enabled) logRequest('%s %s %d %s %sms', context.requestId, codec.name, error.status, error.kind, (performance.now() - started).toFixed(1));
  }

  private matchModelList(path: string, request: Request): ModelListMatch | undefined {
    let fallback: ModelListMatch | undefined;
    let claimed: ModelListMatch | undefined;
    let view: HttpRequestView | undefined;
    for (const codec of this.config.codecs) {
      const routes = codec.modelList;
      if (!routes) continue;
      for (const base of routes.paths) {
        let modelId: string | undefined;
        if (path === base) modelId = undefined;
        else if (path.startsWith(`${base}/`)) modelId = decodePathSegment(path.slice(base.length + 1));
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

  private async authenticate(codec: ProtocolCodec, view: HttpRequestView): Promise<Principal> {
    const key = codec.extractKey(view);
    if (!key) {
      throw new GatewayError('authentication', `No API key was sent${codec.credentialHint ? `: send it as ${codec.credentialHint}` : ''}.`, { code: 'missing_api_key' });
    }
    let principal: Principal | undefined;
    try {
      principal = await this.config.keyStore.authenticate(key);
    } catch (error) {
      throw new GatewayError('unavailable', 'The key store is unavailable; try again later.', { cause: error, retryAfter: 1 });
    }
    if (!principal) throw new GatewayError('authentication', 'Invalid API key.', { code: 'invalid_api_key' });
    logAuth('authenticated %s', principal.id);
    return principal;
  }

  /** Input tokens of a request: the provider's own count where it has one, else the gateway's tokenizer. */
  private async countInput(request: GenerateRequest, model: ResolvedModel, requestId: string): Promise<number> {
    const provider = model.provider;
    return provider.countTokens ? provider.countTokens({ ...request, model: model.id }, { upstreamModel: model.upstreamModel, requestId }) : countRequestTokens(request);
  }

  /**
   * The input tokens a text call's hold is sized on: the most any model of its fallback chain can
   * count (docs/stores.md, "Overspend bound") — a provider's own `countTokens` where it has one,
   * else one token per UTF-8 byte plus each image at the provider's `maxImageTokens`. `counted` is
   * the requested model's own count, when its provider has `countTokens`.
   */
  private async boundInput(request: GenerateRequest, model: ResolvedModel, requestId: string): Promise<{ bound: number; counted: number | undefined }> {
    let size: InputSize | undefined;
    let bound = 0;
    let counted: number | undefined;
    for (const candidate of model.chain) {
      const provider = candidate.provider;
      let tokens: number;
      if (provider.countTokens) {
        tokens = await provider.countTokens({ ...request, model: candidate.id }, { upstreamModel: candidate.upstreamModel, requestId });
        if (candidate === model) counted = tokens;
      } else {
        size ??= measureInput(request);
        tokens = inputTokenBound(size, provider.maxImageTokens?.(candidate.upstreamModel) ?? DEFAULT_MAX_IMAGE_TOKENS);
      }
      bound = Math.max(bound, tokens);
    }
    return { bound, counted };
  }

  /** Reserves a text call at its upper bound; a partial hold lowers the call's output cap to what it pays for. */
  private async reserveGenerate(request: GenerateRequest, model: ResolvedModel, principal: Principal, requestId: string): Promise<HeldCall> {
    const { bound, counted } = await this.boundInput(request, model, requestId);
    const basis = priciest(model.chain);
    const estimate = estimateGenerate(request, basis, bound);
    const reservation = await this.reserve(principal, estimate, model, 'generate', requestId);
    const maxOutputTokens = request.maxOutputTokens ?? model.maxOutputTokens;
    if (reservation.amount >= estimate.amount) return { reservation, countedInput: counted, request: { ...request, model: model.id, maxOutputTokens } };
    const affordable = affordableOutputTokens(request, basis, bound, reservation.amount) ?? maxOutputTokens;
    logQuota('%s partial hold %d of %d: output capped at %d tokens', requestId, reservation.amount, estimate.amount, affordable);
    return { reservation, countedInput: counted, request: { ...request, model: model.id, maxOutputTokens: Math.min(maxOutputTokens, affordable) } };
  }

  /**
   * Refuses (403 `insufficient_quota`) a key with nothing to spend before work is done for it that
   * no hold pays for (counting tokens): a hold of one credit, minimum 0, released at once.
   */
  private async requireBalance(principal: Principal, model: ResolvedModel, requestId: string): Promise<void> {
    await this.release(await this.reserve(principal, { amount: 1, minimum: 0 }, model, 'count-tokens', requestId));
  }

  private async reserve(principal: Principal, estimate: CostEstimate, model: ResolvedModel, operation: ReservationInfo['operation'], requestId: string): Promise<Reservation> {
    let outcome;
    try {
      outcome = await this.config.quotaStore.reserve(principal.id, estimate.amount, { minimum: estimate.minimum, info: { model: model.id, operation, requestId } });
    } catch (error) {
      throw new GatewayError('unavailable', 'The quota store is unavailable; try again later.', { cause: error, retryAfter: 1 });
    }
    if (!outcome.ok) {
      const needs = estimate.minimum > 0 ? `; the request needs at least ${estimate.minimum}` : '';
      const available = outcome.available === undefined ? '' : ` This key has ${outcome.available} credits available${needs}.`;
      throw new GatewayError('insufficient_quota', outcome.message ?? `Insufficient balance for this request.${available}`, { code: 'insufficient_quota' });
    }
    logQuota('%s reserved %d for %s', requestId, outcome.reservation.amount, principal.id);
    return outcome.reservation;
  }

  /**
   * Charges a call. A charge beyond the hold (an upstream that reported more than the bound) is an
   * overrun: charged in full, never clamped, logged, and told to the store with the settlement.
   */
  private async settle(reservation: Reservation, charge: number, settlement: Settlement, requestId: string): Promise<void> {
    const overrun = Math.max(0, charge - reservation.amount);
    try {
      await this.config.quotaStore.settle(reservation, charge, { settlement, overrun });
    } catch (error) {
      throw new GatewayError('unavailable', 'The quota store is unavailable; try again later.', { cause: error, retryAfter: 1 });
    }
    if (overrun > 0) logQuota('%s overrun: charged %d, %d beyond the %d held (%s)', requestId, charge, overrun, reservation.amount, settlement);
    else logQuota('%s settled %s: charged %d of %d held (%s)', requestId, reservation.id, charge, reservation.amount, settlement);
  }

  /** Settles after a stream: the response is already out, so a failing store is logged, not thrown. */
  private async settleQuietly(reservation: Reservation, charge: number, settlement: Settlement, requestId: string): Promise<void> {
    try {
      await this.settle(reservation, charge, settlement, requestId);
    } catch (error) {
      logQuota('%s settle of %s (charge %d, %s) failed: %O', requestId, reservation.id, charge, settlement, error);
    }
  }

  private async release(reservation: Reservation): Promise<void> {
    try {
      await this.config.quotaStore.release(reservation);
      logQuota('released %s', reservation.id);
    } catch (error) {
      logQuota('release of %s failed: %O', reservation.id, error);
    }
  }

  /** A non-streamed text call, with fallbacks. */
  private generate(request: GenerateRequest, requested: ResolvedModel, signal: CallCancellation, requestId: string, upstreamHeaders: Readonly<Record<string, string>>) {
    return this.withFallbacks(requested, signal, async (candidate) => {
      const provider = candidate.provider;
      const context = providerCallContext(signal, candidate.upstreamModel, requestId, upstreamHeaders);
      const call = { ...request, model: candidate.id };
      logProvider('%s → %s/%s max_output=%d', requestId, provider.name, candidate.upstreamModel, call.maxOutputTokens);
      return provider.generate ? provider.generate(call, context) : collectStream(provider.stream!(call, context), call);
    });
  }

  /**
   * Runs `attempt` on a model, then on each of its fallbacks while the failure is one a fallback may
   * cure (5xx, timeout, connection failure) and the caller is still there. Nothing has been sent to
   * the caller while this runs.
   */
  private async withFallbacks<T>(requested: ResolvedModel, signal: CallCancellation, attempt: (model: ResolvedModel) => Promise<T>): Promise<{ value: T; model: ResolvedModel }> {
    const chain = requested.chain;
    for (let index = 0; index < chain.length; index++) {
      const candidate = chain[index]!;
      try {
        return { value: await attempt(candidate), model: candidate };
      } catch (error) {
        const last = index === chain.length - 1;
        if (last || signal.aborted || !(error instanceof GatewayError) || !FALLBACK_KINDS.has(error.kind)) throw error;
        logProvider('%s failed (%s %d); falling back to %s', candidate.id, error.kind, error.status, chain[index + 1]!.id);
      }
    }
    throw new GatewayError('internal', 'The model has no provider to try.');
  }
}

/**
 * Creates a gateway: an Express Router serving the OpenAI chat-completions, OpenAI images,
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
    if (!answerNotCalled(error, arguments[1])) throw error;
    return undefined as never; // Express ignores what a middleware returns
  }
  const config = resolveOptions(options, { providers: builtinProviders, codecs: builtinCodecs() });
  const pipeline = new RequestPipeline(config);
  const router = express.Router();
  router.use((request, response, next) => pipeline.dispatch(request, response, next));
  // While the gateway's own layer is the Router's only one, a request goes straight to it: a second
  // routing pass (the host app's Router has just run one) is mostly slow property lookups on a
  // request whose hidden class Express made unique (docs/performance.md). Anything a host adds to
  // the Router (gateway.use(…), gateway.get(…)) brings its own handling back.
  const handled = router as Router & { handle(request: Request, response: Response, out: NextFunction): void; stack: unknown[] };
  const routed = handled.handle;
  handled.handle = function handle(this: typeof handled, request, response, out) {
    if (this.stack.length !== 1) return routed.call(this, request, response, out);
    try {
      pipeline.dispatch(request, response, out);
    } catch (error) {
      out(error);
    }
  };
  return Object.assign(router, { ready: pipeline.ready, close: () => pipeline.close() });
}
