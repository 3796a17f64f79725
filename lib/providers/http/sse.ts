/** Server-sent events from an upstream response body, parsed with eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { transportError } from './upstream-client';

/**
 * Yields each event of an SSE body as it arrives. A body that breaks off mid-way throws a 502
 * GatewayError; a body that simply ends, ends the iteration (the caller decides whether the
 * protocol's terminal event was seen).
 */
export async function* readServerSentEvents(body: AsyncIterable<Buffer | string>, upstream: string, signal: AbortSignal): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => ready.push(event) });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) {
      parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      while (ready.length > 0) yield ready.shift()!;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw transportError(error, upstream);
  }
  parser.feed(decoder.decode());
  while (ready.length > 0) yield ready.shift()!;
}
