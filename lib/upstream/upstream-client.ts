/** The HTTP client every upstream provider uses: one undici Pool per origin, timeouts, bounded retries. */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher, Pool } from 'undici';
import createDebug from 'debug';
import { GatewayError } from '../errors';
import { abortSignalOf } from '../providers/cancellation';
import { CallUpstream, type UpstreamCallContext, type UpstreamRequest } from './call-upstream';

export type { UpstreamRequest } from './call-upstream';
import { undici } from './undici';
import { upstreamStatusError } from './upstream-errors';
import { announceRetry } from './retry-channel';
import { headerSecrets, SecretRedactor } from './redact';
import { assertConfined } from './upstream-path';
import {
  dispatchBuffered,
  dispatchStreamed,
  ResponseBodyError,
  type BodySink,
  type BufferedResponse,
  type StreamedBody,
} from './dispatch';

const log = createDebug('rosetta:upstream');

/** Timeouts of an upstream client, in milliseconds (docs/providers.md, "Timeouts"). */
export interface UpstreamTimeouts {
  /** To open a connection. Default 10,000. */
  connectMs?: number;
  /**
   * A non-streamed call, from sending the request to the response headers: the upstream sends them
   * when the whole answer is done, so this bounds the longest generation. Default 600,000 (10 min,
   * the OpenAI and Anthropic SDKs' own default).
   */
  responseMs?: number;
  /**
   * A streamed call, from sending the request to the response headers (an upstream sends them when it accepts the
   * call). Default 120,000, or `responseMs` when the host set that lower and left this unset: a stream never waits
   * for its headers longer than the host allowed a whole answer.
   */
  streamResponseMs?: number;
  /**
   * Longest silence between two chunks of a response body (a reasoning model may stream nothing while it thinks).
   * Default 300,000.
   */
  idleMs?: number;
}

/** Default of {@link UpstreamTimeouts.streamResponseMs} when the host sets neither it nor a lower `responseMs`. */
const STREAM_RESPONSE_MS = 120_000;

/** A stream's wait for headers: the host's own `streamResponseMs`, else the smaller of its default and `responseMs`. */
function streamResponseTimeout(timeouts: UpstreamTimeouts | undefined): number {
  if (timeouts?.streamResponseMs !== undefined) return timeouts.streamResponseMs;
  return timeouts?.responseMs !== undefined ? Math.min(STREAM_RESPONSE_MS, timeouts.responseMs) : STREAM_RESPONSE_MS;
}

/** Retry policy: only connection failures, 429 and 5xx, and only before the response is handed on. */
export interface UpstreamRetries {
  /** Retries after the first attempt. Default 2. */
  max?: number;
  /** First backoff delay; doubles each retry, with jitter. Default 250. */
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller. Default 10,000. */
  maxDelayMs?: number;
}

/** Options of {@link UpstreamClient}. */
export interface UpstreamClientOptions {
  /** The upstream's base URL, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /**
   * Headers sent with every request (credentials go here; they are never logged). The values of
   * credential headers (`authorization`, `x-api-key`, `x-goog-api-key`, any name with key, token,
   * secret or password in it) are redacted from everything the upstream sends back.
   */
  headers?: Record<string, string>;
  /** More secrets to redact from what the upstream sends back (e.g. the provider's `apiKey`). Default none. */
  secrets?: readonly string[];
  /**
   * How long {@link UpstreamClient.close} waits for open requests before it destroys their
   * connections. Default 2,000 ms.
   */
  closeGraceMs?: number;
  timeouts?: UpstreamTimeouts;
  retries?: UpstreamRetries;
  /** Most connections open to the origin at once (a streamed call holds one for its whole length). Default 1024. */
  connections?: number;
  /** A name for logs and error messages, e.g. `openai`. */
  name: string;
}

/**
 * Request bodies from this size on are handed to undici as a stream, which it lets go of once
 * written. undici keeps any other body (a string, and the Buffer it makes of it; or a Buffer) until
 * the response has ended, so each open stream would keep its prompt there for its whole length.
 * Smaller bodies stay Buffers: a stream body costs ~8 µs more CPU per call (measured on loopback,
 * 68 → 77 µs per request with a 0.3 KB body), about 3% of a non-streamed call through the gateway.
 */
const STREAMED_BODY_BYTES = 64 * 1024;

/** A stream of one Buffer that holds no reference to it once read. */
function oneShotStream(bytes: Buffer): Readable {
  let pending: Buffer | undefined = bytes;
  return new Readable({
    read() {
      const chunk = pending;
      pending = undefined;
      this.push(chunk ?? null);
    },
  });
}

/** A non-2xx answer, read whole: what the retry loop decides on. */
class StatusFailure {
  constructor(
    readonly statusCode: number,
    readonly text: string,
    readonly retryAfter: string | undefined,
  ) {}
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function errorCode(error: unknown): string | undefined {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } };
  const code = withCode?.code ?? withCode?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Turns a transport failure into a GatewayError: timeouts → 504, the rest → 502. */
export function transportError(error: unknown, upstream: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (
    error instanceof undici.errors.HeadersTimeoutError ||
    error instanceof undici.errors.BodyTimeoutError ||
    error instanceof undici.errors.ConnectTimeoutError
  ) {
    return new GatewayError('upstream_timeout', `The upstream ${upstream} did not answer in time.`, { cause: error });
  }
  return new GatewayError('upstream', `Could not reach the upstream ${upstream}.`, {
    cause: error,
    code: 'upstream_connection_failed',
  });
}

/**
 * An HTTP client for one upstream. Requests go through a keep-alive undici Pool (one per
 * origin), sent with undici's `dispatch` (./dispatch.ts). `requestJson` and `stream` retry connection
 * failures, 429 and 5xx with backoff (honouring Retry-After) and go on only with 2xx responses —
 * other statuses are thrown as GatewayErrors built from the upstream's own error body, never
 * echoing the credentials.
 */
export class UpstreamClient {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly origin: string;
  private readonly headers: Record<string, string>;
  private readonly timeouts: Required<UpstreamTimeouts>;
  private readonly retries: Required<UpstreamRetries>;
  private readonly closeGraceMs: number;
  readonly name: string;
  /** The upstream's host and port, as an attempt's span records them (`server.address`, `server.port`). */
  readonly server: { readonly address: string; readonly port: number };
  /** Redacts this upstream's secrets (and anything key-like) from what it sends back. */
  readonly redactor: SecretRedactor;

  constructor(options: UpstreamClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.server = {
      address: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    };
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.name = options.name;
    this.headers = { 'content-type': 'application/json', ...options.headers };
    this.timeouts = {
      connectMs: 10_000,
      responseMs: 600_000,
      idleMs: 300_000,
      ...options.timeouts,
      streamResponseMs: streamResponseTimeout(options.timeouts),
    };
    this.retries = { max: 2, baseDelayMs: 250, maxDelayMs: 10_000, ...options.retries };
    this.closeGraceMs = options.closeGraceMs ?? 2_000;
    this.redactor = new SecretRedactor([...headerSecrets(this.headers), ...(options.secrets ?? [])]);
    this.pool = new undici.Pool(this.origin, {
      connections: options.connections ?? 1024,
      connect: { timeout: this.timeouts.connectMs },
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeouts.responseMs,
      bodyTimeout: this.timeouts.idleMs,
    });
  }

  /** This client bound to one call: its requests carry the call's cancellation, ids, hop headers and retry hint. */
  forCall(context: UpstreamCallContext): CallUpstream {
    return new CallUpstream(this, context);
  }

  /**
   * Sends a request whose 2xx body goes to `sink` as it arrives (a streamed completion), retrying
   * where that is safe: only until a 2xx answer's headers are in. Resolves with the body's control
   * then; see {@link dispatchStreamed}. A failure is thrown with this upstream's secrets redacted.
   */
  stream(request: UpstreamRequest, sink: BodySink): Promise<StreamedBody> {
    return this.withRetries(request, async (options) => {
      options.headersTimeout = this.timeouts.streamResponseMs;
      const response = await dispatchStreamed(this.pool, options, request.signal, sink);
      if (!('release' in response)) return new StatusFailure(response.statusCode, response.text, response.retryAfter);
      return response;
    });
  }

  /**
   * Sends a request and parses its JSON response body (malformed JSON → 502; `parse` in place of `JSON.parse` reads
   * the text its own way, a GatewayError it throws passes as it is), retrying where that
   * is safe. The body is read whole, through undici's `dispatch` (./dispatch.ts). A failure is
   * thrown with this upstream's secrets redacted.
   */
  async requestJson<T>(request: UpstreamRequest, parse: (text: string) => T = JSON.parse): Promise<T> {
    const text = await this.withRetries(request, async (options) => {
      let response: BufferedResponse;
      try {
        response = await dispatchBuffered(this.pool, options, request.signal);
      } catch (error) {
        // Cut after the headers: the upstream has the request, so it is not sent again.
        if (error instanceof ResponseBodyError) throw transportError(error.cause, this.name);
        throw error;
      }
      if (response.statusCode >= 200 && response.statusCode < 300) return response.text;
      return new StatusFailure(response.statusCode, response.text, response.retryAfter);
    });
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('upstream', `The upstream ${this.name} sent a response that is not valid JSON.`, {
        cause: error,
        code: 'upstream_malformed',
      });
    }
  }

  /**
   * The retry loop both kinds of request share. `attempt` sends the request once and returns its
   * result, or a {@link StatusFailure} for a non-2xx answer; connection failures, 429 and 5xx are
   * retried with backoff (honouring Retry-After), the rest are thrown as GatewayErrors, redacted.
   * A path that could lead outside the base path is refused before anything is sent.
   */
  private async withRetries<R>(
    request: UpstreamRequest,
    attempt: (options: Dispatcher.DispatchOptions) => Promise<R | StatusFailure>,
  ): Promise<R> {
    try {
      return await this.attempts(request, attempt);
    } catch (error) {
      throw this.redactor.error(error);
    }
  }

  private async attempts<R>(
    request: UpstreamRequest,
    attempt: (options: Dispatcher.DispatchOptions) => Promise<R | StatusFailure>,
  ): Promise<R> {
    assertConfined(request.path, this.name);
    const path = `${this.basePath}${request.path}${request.query ? `?${new URLSearchParams(request.query)}` : ''}`;
    const bytes = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const streamed = bytes !== undefined && bytes.length >= STREAMED_BODY_BYTES;
    // Object.assign, not spreads: merging a second object by spread (or by a loop of assignments)
    // goes through the V8 runtime for each of its properties, ~8x slower here (docs/performance.md).
    const headers: Record<string, string> = Object.assign({}, this.headers, request.headers);
    if (streamed) headers['content-length'] = String(bytes.length);
    const method = request.method ?? 'POST';
    const retries = request.retries === undefined ? this.retries.max : Math.min(request.retries, this.retries.max);
    for (let n = 0; ; n++) {
      let retryAfter: number | undefined;
      let failure: GatewayError;
      try {
        const result = await attempt({
          path,
          method,
          headers,
          body: streamed ? oneShotStream(bytes) : bytes,
        });
        if (!(result instanceof StatusFailure)) return result;
        retryAfter = parseRetryAfter(result.retryAfter);
        failure = upstreamStatusError(result.statusCode, result.text, this.name, retryAfter, this.redactor);
        if (!(result.statusCode === 429 || result.statusCode >= 500) || failure.kind === 'loop_detected') throw failure;
      } catch (error) {
        if (request.signal.aborted || error instanceof GatewayError) throw error;
        failure = transportError(error, this.name);
        if (!CONNECTION_ERROR_CODES.has(errorCode(error) ?? '')) throw failure;
      }
      if (n >= retries) throw failure;
      const backoff = this.retries.baseDelayMs * 2 ** n * (0.5 + Math.random() / 2);
      const delay = retryAfter !== undefined ? retryAfter * 1000 : backoff;
      if (delay > this.retries.maxDelayMs) throw failure;
      log('%s: retry %d in %dms after %s (%d)', this.name, n + 1, Math.round(delay), failure.kind, failure.status);
      announceRetry({ upstream: this.name, signal: request.signal, kind: failure.kind });
      await sleep(delay, undefined, { signal: abortSignalOf(request.signal) });
    }
  }

  /**
   * Closes every connection: at once where idle, after their requests end where busy, and after
   * `closeGraceMs` by force (a stream the upstream never ends must not hold a shutdown).
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.closeGraceMs);
    });
    const closed = this.pool.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    );
    try {
      if ((await Promise.race([closed, graceOver])) === 'timeout') await this.pool.destroy();
    } finally {
      clearTimeout(timer);
    }
  }
}
