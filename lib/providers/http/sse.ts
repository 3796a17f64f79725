/** Server-sent events from an upstream response body (parsed with eventsource-parser), decoded into canonical parts. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { StreamPart } from '../../canonical';
import { transportError, type UpstreamResponse } from './upstream-client';

/**
 * Turns one upstream stream's events into canonical parts, synchronously: the driver
 * ({@link decodeEventStream}) feeds it every event and yields what it appends to `out`.
 */
export interface StreamEventDecoder {
  /** Appends the parts one event makes. Throws a GatewayError for an error event or a malformed one. */
  accept(event: EventSourceMessage, out: StreamPart[]): void;
  /** True once the protocol's terminal event came and `finish` was appended: the rest of the body is not read for parts. */
  readonly done: boolean;
  /** Appends the closing parts when the body ended without the terminal event, or throws (a stream cut short). */
  end(out: StreamPart[]): void;
}

/** How much of an upstream body is still read after the terminal event, so its connection can be reused. */
const TRAILING_BYTES_LIMIT = 64 * 1024;

/**
 * Finishes with an upstream body. A stream that completed (its terminal event came) has its rest —
 * usually just the end of the chunked body — read in the background, up to 64 KiB, so the
 * connection goes back to the pool instead of being torn down; any other (the caller left, the
 * decoder refused an event, the consumer stopped early) is destroyed. An ended body needs nothing.
 */
export function releaseBody(body: UpstreamResponse['body'], completed: boolean): void {
  if (body.destroyed || body.readableEnded) return;
  if (completed) {
    body.dump({ limit: TRAILING_BYTES_LIMIT }).catch(() => undefined);
    return;
  }
  // Nobody listens any more: the abort error destroy() emits must not go unhandled.
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * Opens an upstream stream and yields its canonical parts. Each read of the body is parsed whole
 * before its parts are yielded, and the decoder is synchronous, so a chunk costs one async step per
 * part. A body that breaks off throws a 502 GatewayError (a timeout 504); a body that ends before
 * the terminal event is the decoder's to judge (`end`). The body is always released.
 */
export async function* decodeEventStream(
  open: () => Promise<UpstreamResponse>,
  decoder: StreamEventDecoder,
  upstream: string,
  signal: AbortSignal,
): AsyncGenerator<StreamPart> {
  const response = await open();
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const text = new TextDecoder();
  const parts: StreamPart[] = [];
  // Not destroyed when the loop is left after the terminal event: releaseBody lets it end cleanly.
  const chunks = response.body.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>;
  let completed = false;
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        if (signal.aborted) throw error;
        throw transportError(error, upstream);
      }
      let failure: unknown;
      try {
        parser.feed(next.done ? text.decode() : text.decode(next.value, { stream: true }));
        for (let index = 0; index < events.length && !decoder.done; index++) decoder.accept(events[index]!, parts);
        if (next.done && !decoder.done) decoder.end(parts);
      } catch (error) {
        failure = error ?? new Error('stream decoder failed');
      }
      events.length = 0;
      // Set before the last parts go out: a consumer that stops at `finish` leaves the body to end cleanly.
      const last = next.done || decoder.done;
      completed = last && failure === undefined;
      // The parts before a failing event still go out, then the failure.
      for (let index = 0; index < parts.length; index++) yield parts[index]!;
      parts.length = 0;
      if (failure !== undefined) throw failure;
      if (last) return;
    }
  } finally {
    await chunks.return?.();
    releaseBody(response.body, completed && !signal.aborted);
  }
}
