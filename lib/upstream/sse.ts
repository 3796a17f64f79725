/**
 * Server-sent events from an upstream response body (parsed from its Buffers by {@link SseParser}), decoded into
 * canonical parts.
 */
import type { ProviderStreamPart } from '../canonical';
import type { CallSignal } from '../providers/cancellation';
import { SseParser, type SseEvent } from './sse-parser';
import type { BodySink, StreamedBody } from './dispatch';
import { transportError } from './upstream-client';
import { KEY_LIKE_REDACTOR } from './upstream-errors';
import type { SecretRedactor } from './redact';

/**
 * Turns one upstream stream's events into canonical parts, synchronously: the driver
 * ({@link decodeEventStream}) feeds it every event and yields what it appends to `out`.
 */
export interface StreamEventDecoder {
  /**
   * Appends the parts one event makes. Throws a GatewayError for an error event or a malformed one.
   * `event` is the parser's and is reused: it is valid only during the call.
   */
  accept(event: SseEvent, out: ProviderStreamPart[]): void;
  /**
   * True once the protocol's terminal event came and `finish` was appended: the rest of the body is not read for parts.
   */
  readonly done: boolean;
  /** Appends the closing parts when the body ended without the terminal event, or throws (a stream cut short). */
  end(out: ProviderStreamPart[]): void;
}

/**
 * Opens an upstream stream and gives its canonical parts, in order (see {@link UpstreamEventStream}).
 * The request is sent on the first `next()`, so a failure to encode or send it surfaces there.
 * `open(sink)` sends it with its body going to `sink` (an {@link UpstreamClient}'s `stream`).
 * Every failure the stream ends with (an error event, a malformed one) passes through `redactor`
 * (the client's, so its secrets are removed; default: only what looks like a key).
 */
export function decodeEventStream(
  open: (sink: BodySink) => Promise<StreamedBody>,
  decoder: StreamEventDecoder,
  upstream: string,
  signal: CallSignal,
  redactor: SecretRedactor = KEY_LIKE_REDACTOR,
): AsyncIterableIterator<ProviderStreamPart> {
  return new UpstreamEventStream(open, decoder, upstream, signal, redactor);
}

/**
 * An upstream body's events as canonical parts, driven by the body's chunks as undici hands them
 * over (the stream is the body's {@link BodySink}) rather than by async generators: each chunk is
 * parsed whole and its events are decoded at once, and the parts wait in a queue for `next()`, so
 * a chunk costs one promise per part. The body is paused while the consumer lags a whole chunk
 * behind (a slow caller holds back the upstream).
 *
 * A body that breaks off gives a 502 GatewayError (a timeout 504) after the parts before it; a
 * body that ends before the terminal event is the decoder's to judge (`end`); a decoder that throws
 * has its parts before the failing event delivered first. Once the terminal event came, the rest of
 * the body is read in the background (`release(true)`) so the connection is reused; otherwise the
 * request is aborted when the consumer stops.
 */
class UpstreamEventStream implements AsyncIterableIterator<ProviderStreamPart>, BodySink {
  private body: StreamedBody | undefined;
  private opening: Promise<void> | undefined;
  private readonly queue: ProviderStreamPart[] = [];
  private head = 0;
  private failure: unknown;
  /** No part will be added to the queue any more. */
  private ended = false;
  /** The terminal event came and nothing failed. */
  private completed = false;
  private released = false;
  /** The sink asked undici to pause the body. */
  private paused = false;
  private waiter:
    | { resolve: (result: IteratorResult<ProviderStreamPart>) => void; reject: (error: unknown) => void }
    | undefined;
  /** Hands each event to the decoder as the parser completes it; those after the terminal event are skipped. */
  private readonly onEvent = (event: SseEvent) => {
    if (!this.decoder.done) this.decoder.accept(event, this.queue);
  };
  private readonly parser = new SseParser(this.onEvent);

  constructor(
    private readonly open: (sink: BodySink) => Promise<StreamedBody>,
    private readonly decoder: StreamEventDecoder,
    private readonly upstream: string,
    private readonly signal: CallSignal,
    private readonly redactor: SecretRedactor,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ProviderStreamPart>> {
    if (this.body === undefined && !this.ended) {
      this.opening ??= this.start();
      return this.opening.then(() => this.next());
    }
    if (this.head < this.queue.length) {
      const value = this.queue[this.head++]!;
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
        if (this.paused && !this.ended) {
          this.paused = false;
          this.body?.resume();
        }
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return this.settle();
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<ProviderStreamPart>> {
    this.ended = true;
    this.queue.length = 0;
    this.head = 0;
    this.failure = undefined;
    this.release();
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  private async start(): Promise<void> {
    let body: StreamedBody;
    try {
      body = await this.open(this);
    } catch (error) {
      this.stop(error);
      return;
    }
    this.body = body;
    // Stopped meanwhile (the consumer left, or the body already ended or failed): let go of it now.
    if (this.ended) this.releaseBody();
  }

  /** The end of the queue: the failure, or done. The body is released either way. */
  private settle(): Promise<IteratorResult<ProviderStreamPart>> {
    this.release();
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  /** {@link BodySink}: a chunk of the body. Returns false (pause) while the consumer lags a whole chunk behind. */
  onData(chunk: Buffer): boolean {
    // Stopped: after the terminal event the rest is dropped; after a failure the body waits, paused, to be aborted.
    if (this.ended) return this.completed;
    const lagging = this.head < this.queue.length;
    this.decode(chunk);
    if (lagging && !this.ended) {
      this.paused = true;
      return false;
    }
    return true;
  }

  /** {@link BodySink}: the body ended. */
  onEnd(): void {
    if (!this.ended) this.decode(undefined);
  }

  /** {@link BodySink}: the body broke off, or the call was cancelled. */
  onError(error: unknown): void {
    if (!this.ended)
      this.stop(this.signal.aborted ? (this.signal.reason ?? error) : transportError(error, this.upstream));
  }

  /**
   * Feeds a chunk of the body (none: the body ended) to the parser, and so its events to the
   * decoder; hands the first new part to a waiting consumer.
   */
  private decode(chunk: Buffer | undefined): void {
    const decoder = this.decoder;
    try {
      if (chunk) this.parser.push(chunk);
      if (decoder.done) {
        this.completed = true;
        this.stop(undefined);
      } else if (!chunk) {
        decoder.end(this.queue);
        this.completed = decoder.done;
        this.stop(undefined);
      }
    } catch (error) {
      this.stop(error ?? new Error('stream decoder failed'));
    }
    this.wake();
  }

  /** No more parts: `failure` comes after the queued parts. */
  private stop(failure: unknown): void {
    this.ended = true;
    this.failure = failure === undefined ? undefined : this.redactor.error(failure);
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    if (this.head < this.queue.length) {
      this.waiter = undefined;
      const value = this.queue[this.head++]!;
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
      }
      waiter.resolve({ value, done: false });
    } else if (this.ended) {
      this.waiter = undefined;
      this.settle().then(waiter.resolve, waiter.reject);
    }
  }

  /** The consumer is done with the stream (or it ended): let go of the body. */
  private release(): void {
    if (this.released) return;
    this.released = true;
    this.ended = true;
    this.releaseBody();
  }

  /** Completed: the rest is read in the background, so the connection is reused; otherwise the request is aborted. */
  private releaseBody(): void {
    this.body?.release(this.completed && !this.signal.aborted);
  }
}
