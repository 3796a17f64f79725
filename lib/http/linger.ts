/**
 * Lingering close, as nginx does it: an answer sent while the client is still sending a body the gateway will not
 * read (a 413, or a refusal before the body was read) goes out at once with `connection: close`, and the
 * connection is closed only once the rest of the body has been read and dropped, within bounds. Closed at once,
 * the unread bytes make the kernel reset the connection, and a client still writing never reads the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Longest a connection lingers after its answer. */
export const LINGER_MS = 30_000;
/** Longest silence from the client while lingering. */
export const LINGER_IDLE_MS = 5_000;
/** Bytes a lingering connection drops at most, as a multiple of the body limit; past them it closes. */
export const LINGER_LIMIT_MULTIPLE = 4;

/** Requests whose bodies the gateway stopped reading, and how many more bytes of each may be dropped. */
const unread = new WeakMap<IncomingMessage, number>();

/**
 * Marks `request` as one whose body the gateway stopped reading: its answer closes the connection after dropping at
 * most `maxBytes` more of it.
 */
export function stopReading(request: IncomingMessage, maxBytes: number): void {
  if (!request.readableEnded) unread.set(request, maxBytes);
}

/** Whether `response`'s request has a body left unread: its answer must carry `connection: close`. */
export function leavesBodyUnread(response: ServerResponse): boolean {
  const request = response.req;
  return request !== undefined && unread.has(request) && !request.readableEnded;
}

/**
 * Ends `response` with `payload`. When the request's body was left unread, the payload is written, the rest of the
 * body is read and dropped, and the response ends when the body does, or after {@link LINGER_MS}, a silence of
 * {@link LINGER_IDLE_MS} or the byte budget, whichever comes first.
 */
export function endResponse(response: ServerResponse, payload: string): void {
  const request = response.req;
  const budget = request === undefined ? undefined : unread.get(request);
  if (budget === undefined || request.readableEnded || request.destroyed) {
    response.end(payload);
    return;
  }
  unread.delete(request);
  response.write(payload);
  linger(request, response, budget);
}

function linger(request: IncomingMessage, response: ServerResponse, budget: number): void {
  let dropped = 0;
  const finish = () => {
    clearTimeout(whole);
    clearTimeout(idle);
    request.off('data', onData);
    request.off('end', finish);
    request.off('error', finish);
    request.off('close', finish);
    // Stop taking bytes off the connection now. Left flowing, the request asks the socket for more after every chunk,
    // and one turn of the event loop reads up to 2 MiB off a busy socket, all of it past the budget. What is left
    // unread makes the close a reset, as the bound intends.
    if (!request.readableEnded) {
      request.pause();
      request.socket?.pause();
    }
    if (!response.writableEnded) response.end();
  };
  const whole = setTimeout(finish, LINGER_MS);
  const idle = setTimeout(finish, LINGER_IDLE_MS);
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > budget) return finish();
    idle.refresh();
  };
  request.on('data', onData);
  request.on('end', finish);
  request.on('error', finish);
  request.on('close', finish);
  request.resume();
  // The timers must not keep a process alive on their own.
  whole.unref();
  idle.unref();
}
