/** Writes encoded JSON responses with Node's own API (no Express response helpers on the hot path). */
import type { ServerResponse } from 'node:http';
import { JsonText } from '../canonical/vectors';
import type { EncodedResponse } from '../protocols/types';
import { endResponse } from './linger';

/**
 * Sends an encoded response as JSON, unless the response has already started or the client is gone.
 * Status and headers go out in one `writeHead` call: behind Express, every property a call touches on
 * `response` is a slow lookup (Express gives each response a hidden class of its own), so one call
 * with all the headers costs less than a `setHeader` per header. Headers a host middleware set
 * earlier are kept; a header named again here replaces theirs. `unreadBody` (an error answer while the client is still
 * sending a body the gateway will not read: `leavesBodyUnread`, ./linger.ts) closes the connection after a bounded lingering
 * read (./linger.ts); the answers of calls whose body was read never pay for that check.
 */
export function sendJson(
  response: ServerResponse,
  encoded: EncodedResponse,
  extraHeaders?: Record<string, string>,
  unreadBody = false,
): void {
  if (response.headersSent || response.destroyed) return;
  // A body the codec wrote as JSON text itself (embeddings: the upstream's vectors spliced in) goes as it is.
  const payload = encoded.body instanceof JsonText ? encoded.body.text : JSON.stringify(encoded.body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  };
  if (extraHeaders) for (const name in extraHeaders) headers[name.toLowerCase()] = extraHeaders[name]!;
  if (encoded.headers) for (const name in encoded.headers) headers[name.toLowerCase()] = encoded.headers[name]!;
  if (!unreadBody) {
    response.writeHead(encoded.status, headers);
    response.end(payload);
    return;
  }
  // An answer to a body left unread closes the connection, lingering until the client has sent the rest (./linger.ts).
  headers.connection = 'close';
  response.writeHead(encoded.status, headers);
  endResponse(response, payload);
}

/** Queued text of this length is written at once, without waiting for the end of the tick. */
const FLUSH_AT_LENGTH = 16 * 1024;

/**
 * Writes a streamed response body, coalescing everything written in one tick into one chunk: the
 * parts decoded from one upstream read are encoded one by one but leave in a single socket write.
 * The first chunk goes out with the headers (they are not flushed on their own).
 */
export class CoalescingWriter {
  private pending = '';
  private scheduled = false;
  private readonly flush = () => {
    this.scheduled = false;
    const text = this.pending;
    this.pending = '';
    if (text.length > 0 && !this.response.destroyed) this.response.write(text);
  };

  constructor(private readonly response: ServerResponse) {}

  /** Queues text for this tick's write; false when the client is not keeping up (wait for `drain`). */
  write(text: string): boolean {
    this.pending = this.pending.length === 0 ? text : this.pending + text;
    // A provider whose parts never wait for I/O would otherwise queue its whole stream in one tick.
    if (this.pending.length >= FLUSH_AT_LENGTH) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flush);
    }
    return !this.response.writableNeedDrain;
  }

  /** Ends the response with whatever is still queued. */
  end(): void {
    const text = this.pending;
    this.pending = '';
    if (!this.response.destroyed) this.response.end(text);
  }
}
