/**
 * A server-sent-events parser (the WHATWG event-stream format) that reads a response body's Buffers
 * directly. It stands in for eventsource-parser behind a TextDecoder and gives the same events at
 * the same reads, at a fraction of the memory: per stream one small object, per read one decoded
 * string (the complete lines only) and the `data` values sliced from it.
 */

/** One event, as the stream decoders read it. */
export interface SseEvent {
  /** The `event` field; undefined when the event has none (or an empty one). */
  event?: string;
  /** The `data` lines, joined with "\n". An event without a `data` line is not dispatched. */
  data: string;
  /** This event's own `id` field (not carried over from earlier events); undefined when it has none. */
  id?: string;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COLON = 0x3a;
const LOWER_D = 0x64;
const LOWER_E = 0x65;
const LOWER_I = 0x69;

/** The index just after the last line-terminator byte (LF or CR) in `bytes[0, limit)`, or 0 when there is none. */
function lastBreak(bytes: Buffer, limit: number): number {
  if (limit === 0) return 0;
  const last = bytes[limit - 1];
  if (last === LF || last === CR) return limit;
  return Math.max(bytes.lastIndexOf(LF, limit - 1), bytes.lastIndexOf(CR, limit - 1)) + 1;
}

/**
 * Whether the bytes from `start` to the end (at least one) are the start of a UTF-8 character and
 * no more: what a streaming TextDecoder holds back for the next read.
 */
function partialCharacter(bytes: Buffer, start: number): boolean {
  const length = bytes.length - start;
  const lead = bytes[start]!;
  const continuations =
    lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
  if (length > continuations) return false;
  if (length >= 2) {
    const second = bytes[start + 1]!;
    if (
      second < (lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80) ||
      second > (lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf)
    )
      return false;
  }
  if (length === 3) {
    const third = bytes[start + 2]!;
    if (third < 0x80 || third > 0xbf) return false;
  }
  return true;
}

/**
 * Where the value of field `name` begins in the line `text[start, end)`, or -1 when the line is
 * another field. A line that is just the name is the field with an empty value (`end`); otherwise
 * a colon must follow the name, and one space after it is skipped.
 */
function fieldValue(text: string, start: number, end: number, name: string): number {
  if (!text.startsWith(name, start)) return -1;
  const colon = start + name.length;
  if (colon === end) return end;
  if (text.charCodeAt(colon) !== COLON) return -1;
  return text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1; // text[end] is the line break, never a space
}

/**
 * Parses an event stream fed a read at a time (`push`) and calls `onEvent` for each complete event,
 * synchronously, in order.
 *
 * - Only complete lines are decoded: a read is cut after its last line terminator (bytes 0x0A and
 *   0x0D never occur inside a multi-byte UTF-8 sequence), decoded to one string, and the bytes
 *   after the cut wait (copied, so the read is not retained) for the next read that holds a
 *   terminator.
 * - Lines end with CRLF, LF or CR. A CR that is the last byte so far (or followed only by the start
 *   of a character) waits for the next read, which may begin with its LF (one line break, not two).
 * - A UTF-8 byte-order mark at the start of the stream is skipped. Invalid UTF-8 becomes U+FFFD.
 * - Fields: `data` (lines joined with "\n"), `event`, `id` (one containing NUL is ignored); `retry`,
 *   comments (lines starting with ':') and unknown fields are ignored. A line without a colon is
 *   the field with an empty value; one space after the colon is not part of the value.
 * - A blank line dispatches the event if it has a `data` line (an empty one counts), then clears
 *   `data`, `event` and `id`.
 * - Nothing is dispatched when the stream ends: a last event not followed by a blank line is
 *   dropped, so there is no `end()`.
 *
 * This is eventsource-parser 3's behaviour (as the gateway used it, behind a streaming TextDecoder),
 * event for event and read for read, except for one of its quirks: it also drops the three
 * characters "ï»¿" (a BOM read as Latin-1) from the start of the first text it is fed.
 *
 * The event object passed to `onEvent` is the parser's own and is reused: it is valid only during
 * the call (copy what must outlive it). If `onEvent` throws, the rest of that read is dropped.
 */
export class SseParser {
  /** Bytes after the last line break decoded so far: the start of a line not yet complete. */
  private readonly pending: Buffer[] = [];
  private pendingLength = 0;
  /** Bytes of the stream were decoded (the BOM check is behind us). */
  private started = false;
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined = undefined;
  private id: string | undefined = undefined;
  private readonly event: SseEvent = { id: undefined, event: undefined, data: '' };

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  /** Parses one read of the body, calling `onEvent` for every event it completes. */
  push(chunk: Buffer): void {
    let end = lastBreak(chunk, chunk.length);
    const pending = this.pending;
    if (end === 0) {
      // No line ends in this read: it all waits, as it is (as with eventsource-parser, a CR waiting
      // from an earlier read is not looked at again either).
      if (chunk.length > 0) {
        pending.push(chunk);
        this.pendingLength += chunk.length;
      }
      return;
    }
    let bytes = chunk;
    if (pending.length > 0) {
      end += this.pendingLength;
      pending.push(chunk);
      bytes = Buffer.concat(pending, this.pendingLength + chunk.length);
      pending.length = 0;
      this.pendingLength = 0;
    }
    // A CR at the very end may be the first half of a CRLF: its line waits for the next read. So it
    // does when only the start of a character follows it (eventsource-parser never saw those bytes).
    if (bytes[end - 1] === CR && (end === bytes.length || partialCharacter(bytes, end)))
      end = lastBreak(bytes, end - 1);
    if (end < bytes.length) {
      const rest = Buffer.from(bytes.subarray(end));
      pending.push(rest);
      this.pendingLength = rest.length;
    }
    if (end === 0) return;
    let start = 0;
    if (!this.started) {
      this.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    this.lines(bytes.toString('utf8', start, end));
  }

  /** Parses `text`, whole lines each ending with CR, LF or CRLF. */
  private lines(text: string): void {
    const length = text.length;
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    let start = 0;
    while (start < length) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end === -1) return; // not reached: the text ends with a line break
      this.line(text, start, end);
      start = end + 1;
      if (end === cr && text.charCodeAt(start) === LF) start++;
    }
  }

  /** One line, `text[start, end)`. */
  private line(text: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    const first = text.charCodeAt(start);
    if (first === LOWER_D) {
      const value = fieldValue(text, start, end, 'data');
      if (value === -1) return;
      const line = text.slice(value, end);
      this.data = this.dataLines++ === 0 ? line : `${this.data}\n${line}`;
    } else if (first === LOWER_E) {
      const value = fieldValue(text, start, end, 'event');
      if (value !== -1) this.eventType = value === end ? undefined : text.slice(value, end);
    } else if (first === LOWER_I) {
      const value = fieldValue(text, start, end, 'id');
      if (value === -1) return;
      const id = text.slice(value, end);
      if (!id.includes('\0')) this.id = id;
    }
    // Anything else is a comment, `retry` (eventsource-parser reports it to an onRetry the gateway never set) or an
    // unknown field.
  }

  private dispatch(): void {
    const dataLines = this.dataLines;
    const event = this.event;
    if (dataLines > 0) {
      event.id = this.id;
      event.event = this.eventType;
      event.data = this.data;
    }
    this.id = undefined;
    this.eventType = undefined;
    this.data = '';
    this.dataLines = 0;
    if (dataLines === 0) return;
    try {
      this.onEvent(event);
    } finally {
      // The values are slices of the read's text: do not keep it alive while the stream idles.
      event.id = undefined;
      event.event = undefined;
      event.data = '';
    }
  }
}
