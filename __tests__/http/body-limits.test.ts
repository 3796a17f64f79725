/** Request bodies at the edges: JSON nested past the depth limit, and bodies over the size limit, in every protocol. */
import http from 'node:http';
import express from 'express';
import { createGateway, type GatewayOptions } from '../../lib';
import { exceedsJsonDepth, exceedsValueDepth } from '../../lib/http/json-depth';
import { listen, readJson, serveGateway, TEST_KEY, testOptions, type Json, type RunningGateway } from '../helpers/app';

/** `levels` nested arrays: `[[[…]]]`. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** `levels` nested objects: `{"a":{"a":…{}}}`. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

/** A body's JSON text with `"@DEEP@"` replaced by `deep` (raw JSON). */
const withDeep = (body: Json, deep: string) => JSON.stringify(body).replace('"@DEEP@"', deep);
const DEEP = '@DEEP@';

const openaiAuth = { authorization: `Bearer ${TEST_KEY}` };
const anthropicAuth = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' };
const geminiAuth = { 'x-goog-api-key': TEST_KEY };
const chatMessages = [{ role: 'user', content: 'hi' }];
const geminiContents = [{ role: 'user', parts: [{ text: 'hi' }] }];

/**
 * Each inbound route and the places a deep value can hide in its body; `expectError` checks the protocol's envelope.
 */
const ROUTES: Array<{
  name: string;
  path: string;
  headers: Record<string, string>;
  places: Record<string, Json>;
  expectError(body: Json): void;
}> = [
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    headers: openaiAuth,
    places: {
      'tool parameters': {
        model: 'rosetta-echo',
        messages: chatMessages,
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { x: DEEP } } } }],
      },
      'response_format schema': {
        model: 'rosetta-echo',
        messages: chatMessages,
        response_format: {
          type: 'json_schema',
          json_schema: { name: 's', schema: { type: 'object', properties: { x: DEEP } } },
        },
      },
      metadata: { model: 'rosetta-echo', messages: chatMessages, metadata: { x: DEEP } },
      'an unknown field': { model: 'rosetta-echo', messages: chatMessages, made_up: DEEP },
    },
    expectError: (body) => expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'json_too_deep' }),
  },
  {
    name: 'messages',
    path: '/v1/messages',
    headers: anthropicAuth,
    places: {
      'tool input_schema': {
        model: 'rosetta-echo',
        max_tokens: 16,
        messages: chatMessages,
        tools: [{ name: 'f', input_schema: { type: 'object', properties: { x: DEEP } } }],
      },
      metadata: { model: 'rosetta-echo', max_tokens: 16, messages: chatMessages, metadata: { x: DEEP } },
      'an unknown field': { model: 'rosetta-echo', max_tokens: 16, messages: chatMessages, made_up: DEEP },
    },
    expectError: (body) => expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } }),
  },
  {
    name: 'count_tokens',
    path: '/v1/messages/count_tokens',
    headers: anthropicAuth,
    places: {
      'tool input_schema': {
        model: 'rosetta-echo',
        messages: chatMessages,
        tools: [{ name: 'f', input_schema: { type: 'object', properties: { x: DEEP } } }],
      },
      'an unknown field': { model: 'rosetta-echo', messages: chatMessages, made_up: DEEP },
    },
    expectError: (body) => expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } }),
  },
  {
    name: 'generateContent',
    path: '/v1beta/models/rosetta-echo:generateContent',
    headers: geminiAuth,
    places: {
      'function parameters': {
        contents: geminiContents,
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: { x: DEEP } } }] }],
      },
      responseSchema: {
        contents: geminiContents,
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { x: DEEP } },
        },
      },
      'an unknown field': { contents: geminiContents, madeUp: DEEP },
    },
    expectError: (body) => expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' }),
  },
  {
    name: 'countTokens',
    path: '/v1beta/models/rosetta-echo:countTokens',
    headers: geminiAuth,
    places: { 'an unknown field': { contents: geminiContents, madeUp: DEEP } },
    expectError: (body) => expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' }),
  },
  {
    name: 'images',
    path: '/v1/images/generations',
    headers: openaiAuth,
    places: {
      metadata: { model: 'rosetta-image', prompt: 'a square', metadata: { x: DEEP } },
      'an unknown field': { model: 'rosetta-image', prompt: 'a square', made_up: DEEP },
    },
    expectError: (body) => expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'json_too_deep' }),
  },
];

async function post(
  url: string,
  headers: Record<string, string>,
  text: string,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });
  return { status: response.status, body: await readJson(response) };
}

describe('JSON nested past the depth limit (default 128 levels)', () => {
  let server: RunningGateway;
  beforeAll(async () => {
    server = await serveGateway(testOptions());
  });
  afterAll(() => server.close());

  for (const route of ROUTES) {
    for (const [place, body] of Object.entries(route.places)) {
      it(`${route.name}, 100,000 levels in ${place} → 400 in the protocol's envelope; 100 levels pass`, async () => {
        const deep = await post(`${server.url}${route.path}`, route.headers, withDeep(body, nested(100_000)));
        expect(deep.status).toBe(400);
        route.expectError(deep.body);
        expect(JSON.stringify(deep.body)).toMatch(/deeper than the limit of 128/);
        const objects = await post(`${server.url}${route.path}`, route.headers, withDeep(body, nestedObjects(100_000)));
        expect(objects.status).toBe(400);
        const fine = await post(`${server.url}${route.path}`, route.headers, withDeep(body, nestedObjects(100)));
        expect(fine.status).toBe(200);
      });
    }
  }

  it('a body a host parser already read (express.json) is checked too, without recursion', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    app.use(createGateway(testOptions()));
    const running = await listen(app);
    try {
      const body = ROUTES[0]!.places['tool parameters']!;
      const deep = await post(`${running.url}/v1/chat/completions`, openaiAuth, withDeep(body, nested(100_000)));
      expect(deep.status).toBe(400);
      expect(deep.body.error.code).toBe('json_too_deep');
      expect(
        (await post(`${running.url}/v1/chat/completions`, openaiAuth, withDeep(body, nestedObjects(100)))).status,
      ).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('maxJsonDepth sets the limit, and must be a positive integer', async () => {
    for (const bad of [0, -1, 1.5, '128']) {
      expect(() => createGateway(testOptions({ maxJsonDepth: bad as number }))).toThrow(
        expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'maxJsonDepth' }),
      );
    }
    const shallow = await serveGateway(testOptions({ maxJsonDepth: 8 }));
    try {
      const body = { model: 'rosetta-echo', messages: chatMessages, metadata: { x: DEEP } };
      const over = await post(`${shallow.url}/v1/chat/completions`, openaiAuth, withDeep(body, nestedObjects(7)));
      expect(over.status).toBe(400);
      expect(over.body.error.message).toMatch(/limit of 8 levels/);
      expect(
        (await post(`${shallow.url}/v1/chat/completions`, openaiAuth, withDeep(body, nestedObjects(6)))).status,
      ).toBe(200);
    } finally {
      await shallow.close();
    }
  });
});

describe('the depth scan', () => {
  const scan = (text: string, max: number) => exceedsJsonDepth(Buffer.from(text), max);

  it('counts brackets outside strings only, escapes included', () => {
    expect(scan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(scan('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
    expect(scan(JSON.stringify({ text: '[[[[{{{{' }), 1)).toBe(false);
    expect(scan(JSON.stringify({ text: 'quote \\" then [[[[', more: '\\\\' }), 1)).toBe(false);
    expect(scan(`${JSON.stringify({ a: 'x\\' })}`, 1)).toBe(false);
    expect(scan('{"a":"\\\\"}', 1)).toBe(false);
    expect(scan('{"a":"\\\\",[[', 2)).toBe(true);
    expect(scan(JSON.stringify({ a: '\\"[[[[' }), 1)).toBe(false);
    expect(scan('{"unterminated":"[[[[', 1)).toBe(false);
    expect(scan(JSON.stringify({ '[[[': { 'é{': '🙂[' } }), 2)).toBe(false);
  });

  it('checks a parsed value iteratively', () => {
    expect(exceedsValueDepth({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(exceedsValueDepth({ a: [1, { b: [2] }] }, 3)).toBe(true);
    expect(exceedsValueDepth(JSON.parse(nested(200_000)), 128)).toBe(true);
    expect(exceedsValueDepth('text', 1)).toBe(false);
  });
});

/** What a client that keeps writing its body saw: the answer (if one came), and how much it had written by then. */
interface EndlessOutcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: Json;
  error?: string;
  written: number;
}

/**
 * Posts a JSON body of `total` bytes (padded with spaces) with a raw `http.request` that keeps
 * writing, honouring backpressure, until the answer comes; `declare` sends a Content-Length,
 * otherwise the body is chunked.
 */
function postEndlessly(
  url: string,
  headers: Record<string, string>,
  total: number,
  declare: boolean,
): Promise<EndlessOutcome> {
  return new Promise((resolve) => {
    const call = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...headers,
        ...(declare ? { 'content-length': String(total) } : {}),
      },
    });
    const prefix = Buffer.from('{"model":"rosetta-echo","max_tokens":5,"messages":[{"role":"user","content":"hi"}]');
    const filler = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    let answered = false;
    const pump = () => {
      while (!answered && written < total) {
        const left = total - written;
        const piece =
          written === 0
            ? prefix
            : left === 1
              ? Buffer.from('}')
              : filler.subarray(0, Math.min(filler.length, left - 1));
        written += piece.length;
        if (!call.write(piece)) {
          call.once('drain', pump);
          return;
        }
      }
      if (!answered) call.end();
    };
    call.on('response', (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode, headers: response.headers, body: JSON.parse(text) as Json, written });
        call.destroy();
      });
    });
    call.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ error: error.code ?? error.message, written });
    });
    pump();
  });
}

/**
 * A gateway whose app notes the socket of the last request, so a test can read how much of a body the server took off
 * it.
 */
async function serveWatchingSockets(
  options: Partial<GatewayOptions> = {},
  closeDelayMs = 0,
): Promise<{ server: RunningGateway; bytesRead: () => number }> {
  let socket: import('node:net').Socket | undefined;
  const app = express();
  app.use((request, _response, next) => {
    socket = request.socket;
    if (closeDelayMs > 0) {
      // A busy machine: the connection closes a while after the answer ends.
      const destroySoon = socket.destroySoon.bind(socket);
      socket.destroySoon = () => void setTimeout(destroySoon, closeDelayMs);
    }
    next();
  });
  const gateway = createGateway(testOptions(options));
  app.use(gateway);
  const running = await listen(app);
  const server = {
    ...running,
    gateway,
    close: async () => {
      await running.close();
      await gateway.close();
    },
  };
  return { server, bytesRead: () => socket!.bytesRead };
}

describe('a body over maxBodyBytes, sent by a client that keeps writing', () => {
  const LIMIT = 100_000;
  let server: RunningGateway;
  /** Bytes the server read off the last request's connection. */
  let bytesRead: () => number;
  beforeAll(async () => {
    ({ server, bytesRead } = await serveWatchingSockets({ maxBodyBytes: LIMIT }));
  });
  afterAll(() => server.close());

  it('a declared Content-Length of 100 MB: 413 at once, in the envelope, with connection: close, the body unread', async () => {
    const outcome = await postEndlessly(`${server.url}/v1/messages`, anthropicAuth, 100 * 1024 * 1024, true);
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(outcome.headers!.connection).toBe('close');
    expect(outcome.body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(bytesRead()).toBeLessThan(2 * 1024 * 1024);
    expect(outcome.written).toBeLessThan(16 * 1024 * 1024);
  });

  it('a client that ignores the 413 and keeps writing: the server stops reading at the linger budget', async () => {
    // Budget: 4 x maxBodyBytes. A server that only stopped listening at the budget went on reading until the
    // connection closed, up to 2 MiB per turn of the event loop; on a busy machine that was megabytes past it.
    const slow = await serveWatchingSockets({ maxBodyBytes: LIMIT }, 300);
    const net = await import('node:net');
    const { port } = new URL(slow.server.url);
    const filler = Buffer.alloc(64 * 1024, 0x20);
    const written = await new Promise<number>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let total = 0;
      const done = () => {
        socket.destroy();
        resolve(total);
      };
      const pump = () => {
        while (total < 64 * 1024 * 1024) {
          total += filler.length;
          if (!socket.write(filler)) return void socket.once('drain', pump);
        }
        done();
      };
      socket.on('connect', () => {
        socket.write(
          `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${TEST_KEY}\r\n` +
            `anthropic-version: 2023-06-01\r\ncontent-type: application/json\r\ncontent-length: ${100 * 1024 * 1024}\r\n\r\n`,
        );
        pump();
      });
      socket.on('error', done);
      socket.on('close', done);
      // Writes block once the server stops reading and the buffers fill: give it a moment, then stop.
      setTimeout(done, 1500);
    });
    await slow.server.close();
    expect(written).toBeGreaterThan(4 * LIMIT);
    expect(slow.bytesRead()).toBeLessThan(4 * LIMIT + 256 * 1024);
  });

  it('a chunked body of 100 MB: 413 in the envelope with connection: close once the limit is passed', async () => {
    const outcome = await postEndlessly(`${server.url}/v1/chat/completions`, openaiAuth, 100 * 1024 * 1024, false);
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(outcome.headers!.connection).toBe('close');
    expect(outcome.body!.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/larger than the limit of 100000 bytes/),
    });
    // Answered long before the client was done: what the server read is what the client wrote until it saw the 413.
    expect(outcome.written).toBeLessThan(16 * 1024 * 1024);
    expect(bytesRead()).toBeLessThanOrEqual(outcome.written + 1024);
  });

  it('a body within the limit is still served on a kept-alive connection', async () => {
    const outcome = await postEndlessly(`${server.url}/v1/chat/completions`, openaiAuth, 50_000, true);
    expect(outcome.status).toBe(200);
    expect(outcome.headers!.connection).not.toBe('close');
  });

  it('a 405 with a large body: answered with connection: close, without reading it all', async () => {
    const outcome = await new Promise<EndlessOutcome>((resolve) => {
      const call = http.request(`${server.url}/v1/models`, {
        method: 'POST',
        headers: { ...openaiAuth, 'content-length': String(50 * 1024 * 1024) },
      });
      call.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: JSON.parse(text) as Json,
            written: 0,
          });
          call.destroy();
        });
      });
      call.on('error', () => undefined);
      call.write(Buffer.alloc(1024, 0x20));
    });
    expect(outcome.status).toBe(405);
    expect(outcome.headers!.connection).toBe('close');
    expect(bytesRead()).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('a caller without a valid key: refused before its body is read', () => {
  let server: RunningGateway;
  let bytesRead: () => number;
  beforeAll(async () => {
    ({ server, bytesRead } = await serveWatchingSockets());
  });
  afterAll(() => server.close());

  const BODY = 20 * 1024 * 1024; // under the default maxBodyBytes (32 MiB): a keyed caller's body would be read whole
  it.each([
    [
      'an unknown key, OpenAI',
      '/v1/chat/completions',
      { authorization: 'Bearer sk-not-a-key-000000000000' },
      { error: { type: 'invalid_request_error', code: 'invalid_api_key' } },
    ],
    [
      'no key, Anthropic',
      '/v1/messages',
      { 'anthropic-version': '2023-06-01' },
      { type: 'error', error: { type: 'authentication_error' } },
    ],
    [
      'an unknown key, Gemini',
      '/v1beta/models/rosetta-echo:generateContent',
      { 'x-goog-api-key': 'not-a-key-000000000000' },
      { error: { code: 401 } },
    ],
  ])(
    '%s: 401 in the envelope before the client has sent most of a 20 MB body, with connection: close',
    async (_name, path, headers, envelope) => {
      const outcome = await postEndlessly(`${server.url}${path}`, headers, BODY, true);
      expect(outcome.error).toBeUndefined();
      expect(outcome.status).toBe(401);
      expect(outcome.body).toMatchObject(envelope);
      expect(outcome.headers!.connection).toBe('close');
      expect(outcome.written).toBeLessThan(BODY / 2);
    },
  );

  it('a small body with a bad key is drained: the 401 keeps the connection alive', async () => {
    const outcome = await postEndlessly(
      `${server.url}/v1/chat/completions`,
      { authorization: 'Bearer sk-not-a-key-000000000000' },
      2_000,
      true,
    );
    expect(outcome.status).toBe(401);
    expect(outcome.headers!.connection).not.toBe('close');
  });

  it('the same 20 MB body with a valid key is read whole (the limit is what bounds it)', async () => {
    const outcome = await postEndlessly(`${server.url}/v1/chat/completions`, openaiAuth, BODY, true);
    expect(outcome.status).toBe(200);
    expect(bytesRead()).toBeGreaterThan(BODY);
  });
});
