/**
 * Lingering close: an answer sent while the client is still sending a body the gateway will not read (a 413, a
 * refusal before the body is read) reaches a client that writes its whole body before it reads; the connection closes
 * once the rest is dropped, within bounds. And a key with nothing to spend is refused before a large body is read.
 */
import net from 'node:net';
import express from 'express';
import { createGateway, type GatewayOptions, type ReservationInfo, type ReserveResult } from '../../lib';
import { LINGER_LIMIT_MULTIPLE } from '../../lib/http/linger';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';
import { EMPTY_KEY, listen, serveGateway, TEST_KEY, testOptions, type Json, type RunningGateway } from '../helpers/app';

const MiB = 1024 * 1024;
const openaiAuth = { authorization: `Bearer ${TEST_KEY}` };
const anthropicAuth = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' };
const geminiAuth = { 'x-goog-api-key': TEST_KEY };

/** What a raw client saw: the status line's code and the JSON body, or the socket error. */
interface RawOutcome {
  status?: number;
  headers?: string;
  body?: Json;
  error?: string;
}

/**
 * Sends `body` with a raw socket that reads nothing until the whole request is written (declared with a
 * Content-Length, or as one chunk of a chunked body), then reads the answer until the server closes.
 */
function postThenRead(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): Promise<RawOutcome> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.pause();
    let head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    head += chunked ? 'transfer-encoding: chunked\r\n\r\n' : `content-length: ${body.length}\r\n\r\n`;
    let error: string | undefined;
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error ??= failure.code ?? failure.message;
    });
    socket.write(head);
    if (chunked) socket.write(`${body.length.toString(16)}\r\n`);
    socket.write(body);
    socket.write(chunked ? '\r\n0\r\n\r\n' : '', () => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        if (split === -1) return resolve({ error: error ?? 'no answer' });
        const status = Number(text.slice(9, 12));
        resolve({
          status,
          headers: text.slice(0, split).toLowerCase(),
          body: JSON.parse(text.slice(split + 4)) as Json,
        });
      });
      socket.resume();
    });
  });
}

/** A JSON object body of `size` bytes (padded with spaces). */
function paddedBody(prefix: object, size: number): Buffer {
  const body = Buffer.alloc(size, 0x20);
  const text = JSON.stringify(prefix);
  body.write(text.slice(0, -1), 0);
  body[size - 1] = 0x7d;
  return body;
}

describe('a 40 MB body from a client that writes it all before reading (limit 32 MiB)', () => {
  let server: RunningGateway;
  beforeAll(async () => {
    server = await serveGateway(testOptions());
  });
  afterAll(() => server.close());

  const SIZE = 40 * 1000 * 1000;
  const routes: Array<[string, string, Record<string, string>, object, (body: Json) => void]> = [
    [
      'chat completions',
      '/v1/chat/completions',
      openaiAuth,
      { model: 'rosetta-echo', messages: [] },
      (body) => expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' }),
    ],
    [
      'messages',
      '/v1/messages',
      anthropicAuth,
      { model: 'rosetta-echo', max_tokens: 5, messages: [] },
      (body) => expect(body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } }),
    ],
    [
      'generateContent',
      '/v1beta/models/rosetta-echo:generateContent',
      geminiAuth,
      { contents: [] },
      (body) =>
        expect(body.error).toMatchObject({ code: 413, message: expect.stringMatching(/larger than the limit/) }),
    ],
    [
      'images',
      '/v1/images/generations',
      openaiAuth,
      { model: 'rosetta-image', prompt: 'a square' },
      (body) => expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' }),
    ],
  ];
  for (const [name, path, headers, prefix, expectEnvelope] of routes) {
    for (const chunked of [false, true]) {
      it(`${name}, ${chunked ? 'chunked' : 'with a Content-Length'}: the client reads the 413 in its envelope`, async () => {
        const outcome = await postThenRead(server.url, path, headers, paddedBody(prefix, SIZE), chunked);
        expect(outcome.error).toBeUndefined();
        expect(outcome.status).toBe(413);
        expect(outcome.headers).toContain('connection: close');
        expectEnvelope(outcome.body!);
      });
    }
  }
});

/** A gateway whose app notes each request's socket, so a test can read how much the server took off it. */
async function serveWatchingSockets(options: Partial<GatewayOptions> = {}) {
  const sockets: net.Socket[] = [];
  const app = express();
  app.use((request, _response, next) => {
    sockets.push(request.socket);
    next();
  });
  const gateway = createGateway(testOptions(options));
  app.use(gateway);
  const running = await listen(app);
  return {
    url: running.url,
    sockets,
    close: async () => {
      await running.close();
      await gateway.close();
    },
  };
}

describe('the linger is bounded', () => {
  const LIMIT = 100_000;
  let server: Awaited<ReturnType<typeof serveWatchingSockets>>;
  beforeAll(async () => {
    server = await serveWatchingSockets({ maxBodyBytes: LIMIT });
  });
  afterAll(() => server.close());

  it(`drops at most ${LINGER_LIMIT_MULTIPLE} × the limit of what the client still sends, then closes`, async () => {
    const body = paddedBody({ model: 'rosetta-echo', messages: [] }, 64 * MiB);
    await postThenRead(server.url, '/v1/chat/completions', openaiAuth, body, false);
    const socket = server.sockets.at(-1)!;
    expect(socket.destroyed).toBe(true);
    expect(socket.bytesRead).toBeLessThan(LINGER_LIMIT_MULTIPLE * LIMIT + 4 * MiB);
  });

  it('closes a connection whose client goes silent in the middle of its body', async () => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${TEST_KEY}\r\ncontent-length: ${10 * MiB}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(LIMIT * 2, 0x20));
    // Nothing more is sent and the socket is never ended: without an idle bound it would stay open for minutes.
    await new Promise((resolve) => socket.on('close', resolve));
    expect(Buffer.concat(answer).toString('utf8')).toMatch(/^HTTP\/1\.1 413 /);
  }, 15_000);
});

/** A quota store that records the info of every reservation. */
class InfoRecordingStore extends RecordingQuotaStore {
  readonly infos: ReservationInfo[] = [];
  override reserve(keyId: string, amount: number, options: { minimum: number; info: ReservationInfo }): ReserveResult {
    this.infos.push(options.info);
    return super.reserve(keyId, amount, options);
  }
}

describe('a key with nothing to spend and a large body', () => {
  let server: RunningGateway;
  let store: InfoRecordingStore;
  beforeAll(async () => {
    store = new InfoRecordingStore({ balances: { rich: 10_000_000, poor: 50, empty: 0 }, defaultBalance: 0 });
    server = await serveGateway(testOptions({ quotaStore: store }));
  });
  afterAll(() => server.close());

  const SIZE = 29.7 * 1000 * 1000;
  /** Sends `size` bytes with a Content-Length, writing while the server reads, until the answer comes. */
  async function post(path: string, headers: Record<string, string>, size: number) {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: paddedBody({ model: 'rosetta-echo', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, size),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  it('four concurrent 29.7 MB messages and count_tokens calls are refused before their bodies are read', async () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const emptyAuth = { 'x-api-key': EMPTY_KEY, 'anthropic-version': '2023-06-01' };
      const outcomes = await Promise.all([
        post('/v1/messages', emptyAuth, SIZE),
        post('/v1/messages', emptyAuth, SIZE),
        post('/v1/messages/count_tokens', emptyAuth, SIZE),
        post('/v1/messages/count_tokens', emptyAuth, SIZE),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe(403);
        expect(outcome.body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
      }
      // No body as large as one of these was parsed.
      const parsedSizes = parse.mock.calls.map(([text]) => (typeof text === 'string' ? text.length : 0));
      expect(Math.max(0, ...parsedSizes)).toBeLessThan(MiB);
    } finally {
      parse.mockRestore();
    }
  });

  it('a key with a balance is served; only a body over 1 MiB costs it the balance probe', async () => {
    store.infos.length = 0;
    expect((await post('/v1/messages', anthropicAuth, 2_000)).status).toBe(200);
    expect(store.infos.map((info) => info.operation)).toEqual(['generate']);
    store.infos.length = 0;
    expect((await post('/v1/messages', anthropicAuth, 2 * MiB)).status).toBe(200);
    expect(store.infos.map((info) => info.operation)).toEqual(['balance', 'generate']);
  });
});
