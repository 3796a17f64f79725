/**
 * The seam between the one request path and a WebSocket: one turn's answer, written by the pipeline as it writes an
 * HTTP answer (`writeHead`, `write`, `end`, `drain`, `close`, `destroy`), sent on the socket as JSON text frames.
 * A streamed answer (`text/event-stream`) becomes one frame per event, the event's `data` as it is; any other answer
 * (an error refused before the stream started: a 400, 401, 403, 429, 503 …) becomes one `error` event carrying the
 * HTTP status, the error object and the headers a client would have read (`retry-after`, the rate-limit headers),
 * the shape Codex reads as the HTTP error it stands for.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { isJsonObject } from '../../json';

/** The socket a turn writes to: text frames, the bytes not yet sent, and the end of the connection. */
export interface TurnSocket {
  sendText(text: string, sent: () => void): void;
  /** Bytes queued and not yet written to the network. */
  readonly bufferedAmount: number;
  /** Ends the connection at once: a turn that broke after it started writing (the HTTP path cuts the response). */
  cut(): void;
}

/** Queued bytes past this make the pipeline wait for `drain`, as a slow HTTP client does. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** Headers a client reads on an error answer; carried in the `error` event's `headers`. */
const ERROR_HEADERS = /^(retry-after|x-ratelimit-|x-request-id$)/;

/** One turn's answer on a socket, standing in for the `ServerResponse` of an HTTP call. */
export class SocketResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  /** No HTTP request: nothing of a body is left unread (lib/http/linger.ts). */
  readonly req = undefined;
  private streaming = false;
  private status = 200;
  private headers: Record<string, string | number> = {};
  /** Text of a streamed answer not yet cut into whole events. */
  private pending = '';
  private waiting = false;

  constructor(private readonly socket: TurnSocket) {
    super();
  }

  /** This object as the pipeline's `ServerResponse` (it uses only the members above). */
  asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }

  /** Never once the socket is gone: the pipeline would wait for a `drain` that cannot come. */
  get writableNeedDrain(): boolean {
    return !this.destroyed && this.socket.bufferedAmount > HIGH_WATER_BYTES;
  }

  writeHead(status: number, headers?: Record<string, string | number>): this {
    this.status = status;
    this.statusCode = status;
    this.headers = headers ?? {};
    this.headersSent = true;
    const type = String(this.headers['content-type'] ?? '');
    this.streaming = status === 200 && type.startsWith('text/event-stream');
    return this;
  }

  write(chunk: string | Buffer): boolean {
    if (this.destroyed || this.writableEnded) return false;
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.streaming) this.sendEvents(text);
    else this.pending += text;
    return !this.writableNeedDrain;
  }

  end(chunk?: string | Buffer): this {
    if (this.destroyed || this.writableEnded) return this;
    if (chunk !== undefined && chunk.length > 0) this.write(chunk);
    this.writableEnded = true;
    if (!this.streaming) this.sendAnswer(this.pending);
    this.pending = '';
    return this;
  }

  /** The pipeline cuts an answer that broke after it started (or `close()` outlasted its grace): the socket goes. */
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.socket.cut();
    return this;
  }

  /** The socket closed: a turn still running is cancelled (the pipeline's `close` listener), as a client leaving. */
  socketClosed(): void {
    if (!this.writableEnded) this.destroyed = true;
    this.emit('close');
  }

  /** Whole server-sent events: each `data:` payload (one line of JSON: the gateway's own encoder wrote it) a frame. */
  private sendEvents(text: string): void {
    let buffer = this.pending + text;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split('\n')) {
        if (line.startsWith('data:')) this.send(line.slice(line.charAt(5) === ' ' ? 6 : 5));
      }
    }
    this.pending = buffer;
  }

  /** A whole answer: an error becomes the `error` event; a 200 (never asked for: turns stream) its body as it is. */
  private sendAnswer(payload: string): void {
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      body = { error: { message: payload, type: 'server_error', param: null, code: null } };
    }
    if (this.status < 400) {
      this.send(JSON.stringify(body));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name in this.headers) if (ERROR_HEADERS.test(name)) headers[name] = String(this.headers[name]);
    const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : body;
    this.send(JSON.stringify({ type: 'error', status: this.status, error, headers }));
  }

  private send(text: string): void {
    this.socket.sendText(text, () => {
      if (this.waiting && !this.writableNeedDrain) {
        this.waiting = false;
        this.emit('drain');
      }
    });
    if (this.writableNeedDrain) this.waiting = true;
  }
}
