/**
 * Upstream responses through undici's dispatch: read whole (non-streamed calls) or handed to a sink (streams);
 * statuses, cuts, backpressure, release and cancellation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { CallCancellation } from '../../lib/providers/cancellation';
import {
  dispatchBuffered,
  dispatchStreamed,
  ResponseBodyError,
  type BodySink,
  type StreamedBody,
} from '../../lib/upstream/dispatch';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let handler: Handler;
let server: http.Server;
let pool: Pool;
let closedEarly = 0;
let lastSocket: unknown;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    lastSocket = request.socket;
    response.on('close', () => {
      if (!response.writableFinished) closedEarly++;
    });
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (signal = new CallCancellation()) =>
  dispatchBuffered(
    pool,
    { path: '/x', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    signal,
  );

describe('dispatchBuffered', () => {
  it('joins the chunks once, a character split between two of them included, and drops a byte-order mark', async () => {
    const bytes = Buffer.from('\ufeff{"text":"café ☕"}', 'utf8');
    const split = bytes.indexOf(Buffer.from('☕', 'utf8')) + 1;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(bytes.subarray(0, split));
      setTimeout(() => response.end(bytes.subarray(split)), 10);
    };
    const response = await post();
    expect(response).toEqual({ statusCode: 200, text: '{"text":"café ☕"}', retryAfter: undefined });
    expect(JSON.parse(response.text).text).toBe('café ☕');
  });

  it('gives a non-2xx answer whole, with its Retry-After (any case of the name)', async () => {
    handler = (_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'Retry-After': '7' });
      response.end('{"error":{"message":"slow down"}}');
    };
    expect(await post()).toEqual({ statusCode: 429, text: '{"error":{"message":"slow down"}}', retryAfter: '7' });
  });

  it('an answer cut after its headers rejects with a ResponseBodyError (so it is not sent again)', async () => {
    handler = (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"partial":');
      setTimeout(() => request.socket.destroy(), 10);
    };
    await expect(post()).rejects.toBeInstanceOf(ResponseBodyError);
  });

  it("a refused connection rejects with undici's own error, not a ResponseBodyError", async () => {
    const closed = new Pool('http://127.0.0.1:1');
    try {
      const error = await dispatchBuffered(closed, { path: '/x', method: 'GET' }, new CallCancellation()).catch(
        (caught: unknown) => caught,
      );
      expect(error).not.toBeInstanceOf(ResponseBodyError);
      expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    } finally {
      await closed.close();
    }
  });

  it("cancelling mid-answer aborts the request and rejects with the cancellation's reason", async () => {
    const reason = new Error('caller went away');
    const cancellation = new CallCancellation();
    const before = closedEarly;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"slow":');
      setTimeout(() => cancellation.abort(reason), 10);
    };
    await expect(post(cancellation)).rejects.toBe(reason);
    for (let waited = 0; waited < 2000 && closedEarly === before; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closedEarly).toBe(before + 1);
  });

  it('takes an AbortSignal as well, and a call already cancelled is never sent', async () => {
    const controller = new AbortController();
    const reason = new Error('already gone');
    controller.abort(reason);
    let sent = 0;
    handler = (_request, response) => {
      sent++;
      response.end('{}');
    };
    await expect(post(controller.signal as unknown as CallCancellation)).rejects.toBe(reason);
    const live = new AbortController();
    handler = (_request, response) => {
      response.writeHead(200);
      response.write('{');
      setTimeout(() => live.abort(reason), 10);
    };
    await expect(post(live.signal as unknown as CallCancellation)).rejects.toBe(reason);
    expect(sent).toBe(0);
  });
});

/** A sink that records what reaches it; `pauseAfter` chunks in, it asks for a pause once. */
function recordingSink(pauseAfter = Infinity) {
  const seen = { chunks: [] as string[], ended: false, error: undefined as unknown };
  let settle: () => void;
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const sink: BodySink = {
    onData(chunk) {
      seen.chunks.push(chunk.toString());
      return seen.chunks.length !== pauseAfter;
    },
    onEnd() {
      seen.ended = true;
      settle();
    },
    onError(error) {
      seen.error = error;
      settle();
    },
  };
  return { seen, sink, done };
}

const stream = (sink: BodySink, signal = new CallCancellation()) =>
  dispatchStreamed(pool, { path: '/s', method: 'POST', body: '{}' }, signal, sink);
const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dispatchStreamed', () => {
  it("resolves at a 2xx answer's headers and hands the body to the sink, chunk by chunk, to its end", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
      setTimeout(() => response.end('data: 2\n\n'), 20);
    };
    const { seen, sink, done } = recordingSink();
    const body = await stream(sink);
    expect('release' in body).toBe(true);
    await done;
    expect(seen).toEqual({ chunks: ['data: 1\n\n', 'data: 2\n\n'], ended: true, error: undefined });
  });

  it('a sink that returns false pauses the body until resume()', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('one');
      setTimeout(() => response.write('two'), 10);
      setTimeout(() => response.end('three'), 20);
    };
    const { seen, sink, done } = recordingSink(1);
    const body = (await stream(sink)) as StreamedBody;
    await tick(80);
    expect(seen.chunks).toEqual(['one']);
    body.resume();
    await done;
    expect(seen.chunks.join('')).toBe('onetwothree');
    expect(seen.ended).toBe(true);
  });

  it('a non-2xx answer resolves whole, as a buffered one, and nothing reaches the sink', async () => {
    handler = (_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
      response.end('{"error":"busy"}');
    };
    const { seen, sink } = recordingSink();
    expect(await stream(sink)).toEqual({ statusCode: 503, text: '{"error":"busy"}', retryAfter: '2' });
    expect(seen.chunks).toEqual([]);
  });

  it('released as completed, the rest is read and the connection is used again; released otherwise, the request is aborted', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: [DONE]\n\n');
      setTimeout(() => response.end(': trailing comment\n\n'), 20);
    };
    // The sink pauses after the first chunk, as a stream at its terminal event stops reading.
    const completed = (await stream(recordingSink(1).sink)) as StreamedBody;
    const firstSocket = lastSocket;
    await tick(40);
    completed.release(true);
    await tick(40);
    const next = recordingSink();
    await stream(next.sink);
    await next.done;
    expect(next.seen.ended).toBe(true);
    // The second request went on the first one's connection, which had been read to its end.
    expect(lastSocket).toBe(firstSocket);

    const before = closedEarly;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    };
    const { seen, sink } = recordingSink();
    const aborted = (await stream(sink)) as StreamedBody;
    aborted.release(false);
    for (let waited = 0; waited < 2000 && closedEarly === before; waited += 20) await tick();
    expect(closedEarly).toBe(before + 1);
    expect(seen.error).toBeUndefined();
  });

  it('more than 64 KiB after a completed release: the request is aborted instead', async () => {
    const before = closedEarly;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: [DONE]\n\n');
      const filler = `: ${'x'.repeat(16 * 1024)}\n`;
      let sent = 0;
      const more = setInterval(() => {
        if (response.destroyed || sent++ > 64) return clearInterval(more);
        response.write(filler);
      }, 2);
    };
    const body = (await stream(recordingSink(1).sink)) as StreamedBody;
    body.release(true);
    for (let waited = 0; waited < 3000 && closedEarly === before; waited += 20) await tick();
    expect(closedEarly).toBe(before + 1);
  });

  it("a body that breaks off, or a cancellation after the headers, goes to the sink's onError", async () => {
    handler = (request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
      setTimeout(() => request.socket.destroy(), 10);
    };
    const broken = recordingSink();
    await stream(broken.sink);
    await broken.done;
    expect(broken.seen.error).toBeInstanceOf(Error);
    expect(broken.seen.ended).toBe(false);

    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    };
    const cancellation = new CallCancellation();
    const reason = new Error('caller left');
    const cancelled = recordingSink();
    await stream(cancelled.sink, cancellation);
    cancellation.abort(reason);
    await cancelled.done;
    expect(cancelled.seen.error).toBe(reason);
  });
});
