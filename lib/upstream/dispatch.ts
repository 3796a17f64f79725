/**
 * Upstream requests sent with undici's `dispatch` and a handler of the gateway's own, instead of
 * through `request()`, which makes an `AsyncResource` and a `Readable` for the body of every
 * response (and, for a non-streamed answer, reads that stream back with `body.text()`).
 *
 * - {@link dispatchBuffered}: the whole body, its chunks kept as undici hands them over and joined
 *   once at the end (a non-streamed completion).
 * - {@link dispatchStreamed}: a 2xx body handed to a {@link BodySink} chunk by chunk, with
 *   backpressure and a {@link StreamedBody} to resume or release it (a streamed completion).
 *
 * Both read a non-2xx answer whole, for the error it carries. Only the status, the body and a
 * non-2xx answer's `Retry-After` are kept; the other response headers are never parsed.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { CallSignal } from '../providers/cancellation';
import { undici } from './undici';

/** A whole response: its status, its body as text, and a non-2xx answer's `Retry-After`. */
export interface BufferedResponse {
  statusCode: number;
  text: string;
  /** The `Retry-After` header of a non-2xx answer (not read on a 2xx one). */
  retryAfter: string | undefined;
}

/**
 * An error after a 2xx answer's headers had arrived (the body was cut, or timed out): the
 * upstream has taken the request, so it must not be sent again.
 */
export class ResponseBodyError extends Error {
  constructor(override readonly cause: unknown) {
    super('The upstream response body could not be read.');
  }
}

/** Where a streamed 2xx body goes, as it arrives. */
export interface BodySink {
  /** One chunk of the body. Return false to pause the body until {@link StreamedBody.resume}. */
  onData(chunk: Buffer): boolean;
  /** The body ended. */
  onEnd(): void;
  /** The body broke off (or the call was cancelled: the signal's reason). */
  onError(error: unknown): void;
}

/** The control of a streamed 2xx body, once its headers have arrived. */
export interface StreamedBody {
  /** Resumes a body paused by its sink. */
  resume(): void;
  /**
   * Lets go of the body; nothing more reaches the sink. `completed` (the protocol's terminal event
   * came): the rest, usually only the end of the chunked body, is read in the background, up to
   * 64 KiB, so the connection goes back to the pool. Otherwise the request is aborted.
   */
  release(completed: boolean): void;
}

/** How much of a streamed body is still read after it was released as completed. */
const TRAILING_BYTES_LIMIT = 64 * 1024;

const RETRY_AFTER = 'retry-after';

/** The `Retry-After` value in undici's raw headers (name and value alternating, as Buffers or strings). */
function retryAfterOf(rawHeaders: (Buffer | string)[] | null | undefined): string | undefined {
  if (!rawHeaders) return undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === RETRY_AFTER.length && name.toString().toLowerCase() === RETRY_AFTER)
      return rawHeaders[i + 1].toString();
  }
  return undefined;
}

/** Chunks as one string (a byte-order mark is not part of the text: body.text() drops it too). */
function textOf(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function noop(): void {}

function listen(signal: CallSignal, listener: () => void): void {
  if ('addEventListener' in signal) signal.addEventListener('abort', listener, { once: true });
  else signal.once('abort', listener);
}

function unlisten(signal: CallSignal, listener: () => void): void {
  if ('removeEventListener' in signal) signal.removeEventListener('abort', listener);
  else signal.removeListener('abort', listener);
}

/**
 * undici's handler interface as its core calls it (the interface `request()` itself uses), for a
 * response read whole: the call's cancellation, the chunks joined once. {@link StreamingHandler}
 * hands a 2xx body to a sink instead. `R` is what else the promise may resolve with.
 */
class Handler<R = never> {
  protected statusCode = 0;
  protected retryAfter: string | undefined = undefined;
  protected chunks: Buffer[] = [];
  protected abort: ((reason?: unknown) => void) | undefined = undefined;
  /** The response's final headers arrived. */
  protected headersReceived = false;
  /** onComplete or onError has run. */
  protected finished = false;
  private readonly onAbort = () => this.abort?.(this.signal.reason);

  constructor(
    protected readonly signal: CallSignal,
    private readonly requestBody: unknown,
    protected readonly resolve: (response: BufferedResponse | R) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    listen(signal, this.onAbort);
  }

  onConnect(abort: (reason?: unknown) => void): void {
    if (this.signal.aborted) abort(this.signal.reason);
    else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: (Buffer | string)[] | null, resume: () => void): boolean {
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    this.headersReceived = true;
    if (statusCode >= 300) this.retryAfter = retryAfterOf(rawHeaders);
    return this.started(resume);
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.finished) return;
    this.finish();
    const text = textOf(this.chunks);
    this.chunks = [];
    this.resolve({ statusCode: this.statusCode, text, retryAfter: this.retryAfter });
  }

  onError(error: unknown): void {
    if (this.finished) return;
    this.finish();
    this.chunks = [];
    const body = this.requestBody as Readable | undefined;
    if (body && typeof body.destroy === 'function' && !body.destroyed) {
      body.on('error', noop);
      body.destroy();
    }
    if (this.signal.aborted || !this.headersReceived) this.reject(error);
    // A non-2xx answer whose body broke off is still that answer (without its text), as before.
    else if (this.statusCode >= 300)
      this.resolve({ statusCode: this.statusCode, text: '', retryAfter: this.retryAfter });
    else this.reject(new ResponseBodyError(error));
  }

  /** The final headers are in (status and `Retry-After` set); returns false to pause the body. */
  protected started(_resume: () => void): boolean {
    return true;
  }

  protected finish(): void {
    this.finished = true;
    this.abort = undefined;
    unlisten(this.signal, this.onAbort);
  }
}

/**
 * Dispatches `handler` unless the call is already cancelled (then the promise rejects with its reason, nothing sent).
 */
function send<T>(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: CallSignal,
  make: (resolve: (value: T) => void, reject: (error: unknown) => void) => Handler<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else dispatcher.dispatch(options, make(resolve, reject) as unknown as Dispatcher.DispatchHandler);
  });
}

/**
 * Sends one request on `dispatcher` and resolves with the whole response, whatever its status.
 * Rejects with undici's error when the request fails before the response's headers, with a
 * {@link ResponseBodyError} when a 2xx body breaks off, and with the signal's reason when the call
 * is cancelled (the request is aborted).
 */
export function dispatchBuffered(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: CallSignal,
): Promise<BufferedResponse> {
  return send<BufferedResponse>(
    dispatcher,
    options,
    signal,
    (resolve, reject) => new Handler(signal, options.body, resolve, reject),
  );
}

/** A 2xx answer's body goes to the sink; a non-2xx one is read whole. */
class StreamingHandler extends Handler<StreamedBody> implements StreamedBody {
  private streaming = false;
  private released = false;
  private trailingBytes = 0;
  private resumeBody: (() => void) | undefined = undefined;

  constructor(
    signal: CallSignal,
    requestBody: unknown,
    private readonly sink: BodySink,
    resolve: (response: StreamedBody | BufferedResponse) => void,
    reject: (error: unknown) => void,
  ) {
    super(signal, requestBody, resolve, reject);
  }

  protected override started(resume: () => void): boolean {
    if (this.statusCode >= 300) return true;
    this.streaming = true;
    this.resumeBody = resume;
    this.resolve(this);
    return true;
  }

  override onData(chunk: Buffer): boolean {
    if (!this.streaming) return super.onData(chunk);
    if (!this.released) return this.sink.onData(chunk);
    // Released as completed: the rest is read and dropped, up to a limit.
    this.trailingBytes += chunk.length;
    if (this.trailingBytes > TRAILING_BYTES_LIMIT) this.abort?.(new undici.errors.RequestAbortedError());
    return true;
  }

  override onComplete(): void {
    if (!this.streaming) {
      super.onComplete();
      return;
    }
    if (this.finished) return;
    this.finish();
    if (!this.released) this.sink.onEnd();
  }

  override onError(error: unknown): void {
    if (!this.streaming) {
      super.onError(error);
      return;
    }
    if (this.finished) return;
    this.finish();
    if (!this.released) this.sink.onError(error);
  }

  resume(): void {
    if (!this.finished) this.resumeBody?.();
  }

  release(completed: boolean): void {
    if (this.released) return;
    this.released = true;
    if (this.finished) return;
    if (completed && !this.signal.aborted) this.resumeBody?.();
    else this.abort?.(this.signal.aborted ? this.signal.reason : new undici.errors.RequestAbortedError());
  }
}

/**
 * Sends one request on `dispatcher`. A 2xx answer resolves with its {@link StreamedBody} as soon as
 * its headers arrive, and its body goes to `sink` (from the same moment: the sink must accept data
 * before the promise's continuation runs). A non-2xx answer resolves with the whole of it, as
 * {@link dispatchBuffered} does. Rejects with undici's error when the request fails before the
 * headers, and with the signal's reason when the call is cancelled before them; afterwards, a
 * failure or a cancellation goes to the sink's `onError`.
 */
export function dispatchStreamed(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: CallSignal,
  sink: BodySink,
): Promise<StreamedBody | BufferedResponse> {
  return send<StreamedBody | BufferedResponse>(
    dispatcher,
    options,
    signal,
    (resolve, reject) => new StreamingHandler(signal, options.body, sink, resolve, reject),
  );
}
