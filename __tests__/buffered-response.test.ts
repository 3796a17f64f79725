/** Reading a whole upstream response through undici's dispatch (non-streamed calls): text, statuses, cuts and cancellation. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { CallCancellation } from '../lib/providers/cancellation';
import { dispatchBuffered, ResponseBodyError } from '../lib/providers/http/buffered-response';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let handler: Handler;
let server: http.Server;
let pool: Pool;
let closedEarly = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    response.on('close', () => { if (!response.writableFinished) closedEarly++; });
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

const post = (signal = new CallCancellation()) => dispatchBuffered(pool, { path: '/x', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, signal);

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

  it('a refused connection rejects with undici\'s own error, not a ResponseBodyError', async () => {
    const closed = new Pool('http://127.0.0.1:1');
    try {
      const error = await dispatchBuffered(closed, { path: '/x', method: 'GET' }, new CallCancellation()).catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(ResponseBodyError);
      expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    } finally {
      await closed.close();
    }
  });

  it('cancelling mid-answer aborts the request and rejects with the cancellation\'s reason', async () => {
    const reason = new Error('caller went away');
    const cancellation = new CallCancellation();
    const before = closedEarly;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"slow":');
      setTimeout(() => cancellation.abort(reason), 10);
    };
    await expect(post(cancellation)).rejects.toBe(reason);
    for (let waited = 0; waited < 2000 && closedEarly === before; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
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
