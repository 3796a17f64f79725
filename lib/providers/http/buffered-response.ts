/**
 * One upstream request whose whole response body is read into memory: a non-streamed completion.
 *
 * It goes to undici's `dispatch` with a handler of its own instead of through `request()`, which
 * makes an `AsyncResource` and a `Readable` for the body of every response and then reads that
 * stream back into a string (`body.text()`). Here the chunks are kept as undici hands them over and
 * joined once at the end. Only the status code, the body and a `Retry-After` (of a non-2xx answer)
 * are kept; the other headers are never parsed.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { CallSignal } from '../cancellation';

/** A whole response: its status, its body as text, and a non-2xx answer's `Retry-After`. */
export interface BufferedResponse {
  statusCode: number;
  text: string;
  /** The `Retry-After` header of a non-2xx answer (not read on a 2xx one). */
  retryAfter: string | undefined;
}

/**
 * An error after the response's headers had arrived (the body was cut, or timed out): the
 * upstream has taken the request, so it must not be sent again.
 */
export class ResponseBodyError extends Error {
  constructor(override readonly cause: unknown) {
    super('The upstream response body could not be read.');
  }
}

const RETRY_AFTER = 'retry-after';

/** The `Retry-After` value in undici's raw headers (name and value alternating, as Buffers or strings). */
function retryAfterOf(rawHeaders: (Buffer | string)[] | null | undefined): string | undefined {
  if (!rawHeaders) return undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === RETRY_AFTER.length && name.toString().toLowerCase() === RETRY_AFTER) return rawHeaders[i + 1].toString();
  }
  return undefined;
}

/** undici's handler interface as its core calls it (the interface `request()` itself uses). */
class BufferingHandler {
  private chunks: Buffer[] = [];
  private statusCode = 0;
  private retryAfter: string | undefined = undefined;
  private abort: ((reason?: unknown) => void) | undefined = undefined;
  private settled = false;
  private headersReceived = false;
  private readonly onAbort: () => void;

  constructor(
    private readonly signal: CallSignal,
    private readonly body: unknown,
    private readonly resolve: (response: BufferedResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.onAbort = () => this.abort?.(this.signal.reason);
    listen(signal, this.onAbort);
  }

  onConnect(abort: (reason?: unknown) => void): void {
    if (this.signal.aborted) abort(this.signal.reason);
    else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: (Buffer | string)[] | null): boolean {
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    this.headersReceived = true;
    if (statusCode >= 300) this.retryAfter = retryAfterOf(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.finish();
    const chunks = this.chunks;
    this.chunks = [];
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    let text = bytes.toString('utf8');
    // A byte-order mark is not part of the JSON text (body.text() drops it too).
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    this.resolve({ statusCode: this.statusCode, text, retryAfter: this.retryAfter });
  }

  onError(error: unknown): void {
    if (this.settled) return;
    this.finish();
    this.chunks = [];
    const body = this.body as Readable | undefined;
    if (body && typeof body.destroy === 'function' && !body.destroyed) {
      body.on('error', noop);
      body.destroy();
    }
    this.reject(this.headersReceived && !this.signal.aborted ? new ResponseBodyError(error) : error);
  }

  private finish(): void {
    this.settled = true;
    this.abort = undefined;
    unlisten(this.signal, this.onAbort);
  }
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
 * Sends one request on `dispatcher` and resolves with the whole response, whatever its status.
 * Rejects with undici's error when the request fails before the response's headers, with a
 * {@link ResponseBodyError} when it fails after them, and with the signal's reason when the call is
 * cancelled (the request is aborted).
 */
export function dispatchBuffered(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: CallSignal): Promise<BufferedResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const handler = new BufferingHandler(signal, options.body, resolve, reject);
    dispatcher.dispatch(options, handler as unknown as Dispatcher.DispatchHandler);
  });
}
