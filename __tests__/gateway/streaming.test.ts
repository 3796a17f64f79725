/** Streaming through the gateway: OpenAI frames byte by byte, the SDK, errors, aborts, backpressure, quota. */
import http from 'node:http';
import OpenAI from 'openai';
import {
  GatewayError,
  LocalProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  type GenerateRoute,
  type ProtocolCodec,
  type Provider,
  type StreamPart,
} from '../../lib';
import { builtinCodecs, countTextTokens } from '../../lib/extend';
import { buildApp, EMPTY_KEY, listen, readJson, TEST_KEY, testOptions, type RunningServer } from '../helpers/app';

const auth = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };

function postStream(url: string, body: unknown, headers: Record<string, string> = auth): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** `data:` payloads of an SSE body. */
function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.length > 0)
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return event.slice('data: '.length);
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('chat-completions streaming, raw frames', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await listen(buildApp().app);
  });
  afterAll(() => server.close());

  it('answers a stream with Connection: keep-alive, or close when the client asked to close', async () => {
    const body = JSON.stringify({
      model: 'rosetta-echo',
      stream: true,
      messages: [{ role: 'user', content: 'Stream me, please.' }],
    });
    const agent = new http.Agent({ keepAlive: true });
    const ask = (connection: string) =>
      new Promise<{ header: string | undefined; text: string }>((resolve, reject) => {
        const call = http.request(
          `${server.url}/v1/chat/completions`,
          { method: 'POST', agent, headers: { ...auth, connection } },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
            });
            response.on('end', () => resolve({ header: response.headers.connection, text }));
          },
        );
        call.on('error', reject);
        call.end(body);
      });
    try {
      const kept = await ask('keep-alive');
      expect(kept.header).toBe('keep-alive');
      expect(kept.text.endsWith('data: [DONE]\n\n')).toBe(true);
      const closed = await ask('close');
      expect(closed.header).toBe('close');
      expect(closed.text.endsWith('data: [DONE]\n\n')).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('role first, content deltas, finish chunk, [DONE]; SSE headers', async () => {
    const response = await postStream(`${server.url}/v1/chat/completions`, {
      model: 'rosetta-echo',
      stream: true,
      messages: [{ role: 'user', content: 'Stream me, please.' }],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const text = await response.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const payloads = dataLines(text);
    expect(payloads.at(-1)).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-/);
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe('rosetta-echo');
      expect(chunk).not.toHaveProperty('usage');
    }
    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
    const middle = chunks.slice(1, -1);
    expect(middle.length).toBe(countTextTokens('Stream me, please.'));
    for (const chunk of middle) {
      expect(chunk.choices[0].delta.role).toBeUndefined();
      expect(chunk.choices[0].finish_reason).toBeNull();
    }
    expect(middle.map((chunk) => chunk.choices[0].delta.content).join('')).toBe('Stream me, please.');
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
  });

  it('include_usage: usage null on every chunk, then one usage chunk with empty choices before [DONE]', async () => {
    const response = await postStream(`${server.url}/v1/chat/completions`, {
      model: 'rosetta-echo',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 3,
      messages: [{ role: 'user', content: 'one two three four five six' }],
    });
    const payloads = dataLines(await response.text());
    expect(payloads.at(-1)).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ completion_tokens: 3, total_tokens: usageChunk.usage.prompt_tokens + 3 });
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
    expect(chunks.at(-2).choices[0].finish_reason).toBe('length');
  });

  it('errors before the first byte are plain HTTP errors in the envelope', async () => {
    const unauthenticated = await postStream(
      `${server.url}/v1/chat/completions`,
      { model: 'rosetta-echo', stream: true, messages: [{ role: 'user', content: 'x' }] },
      { 'content-type': 'application/json' },
    );
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('content-type')).toMatch(/application\/json/);
    const refused = await postStream(
      `${server.url}/v1/chat/completions`,
      { model: 'rosetta-echo', stream: true, messages: [{ role: 'user', content: 'x' }] },
      { authorization: `Bearer ${EMPTY_KEY}`, 'content-type': 'application/json' },
    );
    expect(refused.status).toBe(403);
    const many = await postStream(`${server.url}/v1/chat/completions`, {
      model: 'rosetta-echo',
      stream: true,
      n: 2,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(many.status).toBe(400);
    expect((await readJson(many)).error.param).toBe('n');
  });
});

describe('chat-completions streaming with the openai SDK', () => {
  let server: RunningServer;
  let client: OpenAI;
  beforeAll(async () => {
    server = await listen(buildApp().app);
    client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('async iteration of create({ stream: true })', async () => {
    const stream = await client.chat.completions.create({
      model: 'rosetta-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hello SDK stream' }],
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Hello SDK stream');
    expect(finish).toBe('stop');
    expect(usage!.completion_tokens).toBe(countTextTokens('Hello SDK stream'));
  });

  it('the stream() helper and finalChatCompletion()', async () => {
    const runner = client.chat.completions.stream({
      model: 'rosetta-echo',
      messages: [{ role: 'user', content: 'helper stream' }],
    });
    const deltas: string[] = [];
    runner.on('content', (delta) => deltas.push(delta));
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('helper stream');
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe('helper stream');
  });
});

/** A provider whose stream is under the test's control and records what happened to it. */
function scriptedProvider(script: (signal: AbortSignal) => AsyncGenerator<StreamPart>) {
  const record = { pulled: 0, finished: false, aborted: false };
  const provider: Provider = {
    specificationVersion: 'v1',
    name: 'scripted',
    async *stream(_request, context) {
      try {
        for await (const part of script(context.signal)) {
          record.pulled++;
          yield part;
        }
      } finally {
        record.finished = true;
        record.aborted = context.signal.aborted;
      }
    },
  };
  return { provider, record };
}

function scriptedApp(
  script: (signal: AbortSignal) => AsyncGenerator<StreamPart>,
  balance = 1_000_000,
  options: { chargeFailedStreams?: boolean } = {},
) {
  const { provider, record } = scriptedProvider(script);
  const quotaStore = new MemoryQuotaStore({ balances: { k: balance } });
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: TEST_KEY, id: 'k' }]),
    quotaStore,
    providers: [provider],
    models: [{ id: 'scripted', provider: 'scripted', maxOutputTokens: 100_000 }],
    ...options,
  });
  return { app, record, quotaStore };
}

const start: StreamPart = { type: 'response-start', id: 'r1', model: 'upstream-name', created: 1 };

describe('stream failures, aborts and backpressure', () => {
  it('a provider that fails before its first part: plain 502, hold released', async () => {
    // biome-ignore lint/correctness/useYield: a provider stream that fails before its first part
    const { app, quotaStore } = scriptedApp(async function* () {
      throw new GatewayError('upstream', 'upstream refused');
    });
    const server = await listen(app);
    try {
      const response = await postStream(`${server.url}/v1/chat/completions`, {
        model: 'scripted',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(response.status).toBe(502);
      expect((await readJson(response)).error.message).toBe('upstream refused');
      expect(quotaStore.getAccount('k')).toMatchObject({ spent: 0, reserved: 0 });
    } finally {
      await server.close();
    }
  });

  it.each([
    [false, 'is charged nothing'],
    [true, 'is charged what was produced (chargeFailedStreams)'],
  ])(
    'a failure mid-stream becomes an in-stream error event, then a clean end; the stream %s',
    async (chargeFailedStreams) => {
      const { app, quotaStore } = scriptedApp(
        async function* () {
          yield start;
          yield { type: 'text-start', id: 't' };
          yield { type: 'text-delta', id: 't', delta: 'partial answer' };
          throw new GatewayError('upstream', 'upstream broke');
        },
        1_000_000,
        { chargeFailedStreams },
      );
      const server = await listen(app);
      try {
        const response = await postStream(`${server.url}/v1/chat/completions`, {
          model: 'scripted',
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        });
        expect(response.status).toBe(200);
        const payloads = dataLines(await response.text());
        expect(payloads).not.toContain('[DONE]');
        const last = JSON.parse(payloads.at(-1)!);
        expect(last.error).toMatchObject({ message: 'upstream broke', type: 'server_error' });
        const account = quotaStore.getAccount('k');
        expect(account.reserved).toBe(0);
        if (chargeFailedStreams) expect(account.spent).toBeGreaterThan(countTextTokens('partial answer'));
        else expect(account).toMatchObject({ spent: 0, balance: 1_000_000 });
      } finally {
        await server.close();
      }
    },
  );

  it('an error part ends the stream: nothing the provider yields after it is sent, in any protocol', async () => {
    const script = async function* (): AsyncGenerator<StreamPart> {
      yield start;
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'before' };
      yield { type: 'error', error: new GatewayError('upstream', 'upstream broke') };
      yield { type: 'text-delta', id: 't', delta: 'after the error' };
      yield { type: 'finish', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: { unified: 'stop' } };
    };
    const { app } = scriptedApp(script);
    const server = await listen(app);
    try {
      const chat = await (
        await postStream(`${server.url}/v1/chat/completions`, {
          model: 'scripted',
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        })
      ).text();
      expect(chat).toContain('before');
      expect(chat).not.toContain('after the error');
      expect(JSON.parse(dataLines(chat).at(-1)!).error).toMatchObject({ message: 'upstream broke' });
      const gemini = await (
        await postStream(
          `${server.url}/v1beta/models/scripted:streamGenerateContent`,
          { contents: [{ role: 'user', parts: [{ text: 'x' }] }] },
          { 'x-goog-api-key': TEST_KEY, 'content-type': 'application/json' },
        )
      ).text();
      const elements = JSON.parse(gemini) as Array<{ error?: { message: string } }>;
      expect(elements[elements.length - 1]!.error).toMatchObject({ message: 'upstream broke' });
      expect(gemini).not.toContain('after the error');
    } finally {
      await server.close();
    }
  });

  it("a part the caller's encoder cannot encode becomes an error event and a clean end, not a caller left waiting", async () => {
    // A JavaScript host's provider with a bug: a delta that is not a string.
    const withDelta = (bad: unknown) =>
      scriptedApp(async function* () {
        yield start;
        yield { type: 'text-start', id: 't' };
        yield { type: 'text-delta', id: 't', delta: 'fine' };
        yield { type: 'text-delta', id: 't', delta: bad as string };
        yield { type: 'finish', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: { unified: 'stop' } };
      });
    const anthropic = withDelta(undefined);
    const server = await listen(anthropic.app);
    try {
      const response = await postStream(
        `${server.url}/v1/messages`,
        { model: 'scripted', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] },
        { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('fine');
      expect(text.trimEnd().split('\n\n').at(-1)).toMatch(/^event: error\ndata: .*"type":"api_error"/);
      expect(anthropic.quotaStore.getAccount('k').reserved).toBe(0);
    } finally {
      await server.close();
    }
    // A chat-completions caller and a number for a delta: never `"content":42`, an error event instead.
    const chat = withDelta(42);
    const chatServer = await listen(chat.app);
    try {
      const text = await (
        await postStream(`${chatServer.url}/v1/chat/completions`, {
          model: 'scripted',
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        })
      ).text();
      const events = dataLines(text).map((payload) => JSON.parse(payload));
      expect(
        events
          .map((event) => event.choices?.[0]?.delta?.content)
          .filter((content) => content !== undefined && content !== ''),
      ).toEqual(['fine']);
      expect(events.at(-1).error).toMatchObject({ type: 'server_error' });
    } finally {
      await chatServer.close();
    }
  });

  it('an encoder that cannot encode even the error part: the connection is cut, the hold settled', async () => {
    const chat = builtinCodecs().find((codec) => codec.name === 'openai-chat')!;
    const broken: ProtocolCodec = {
      ...chat,
      match(path) {
        const match = chat.match(path);
        if (match?.route.operation !== 'generate') return match;
        const route = match.route;
        const encodeStream: GenerateRoute['encodeStream'] = (request, call) => {
          const inner = route.encodeStream!(request, call);
          return {
            ...inner,
            encode: (part) =>
              part.type === 'response-start'
                ? inner.encode(part)
                : (() => {
                    throw new TypeError('broken encoder');
                  })(),
          };
        };
        return { ...match, route: { ...route, encodeStream } };
      },
    };
    const { provider } = scriptedProvider(async function* () {
      yield start;
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'never sent' };
      yield { type: 'finish', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: { unified: 'stop' } };
    });
    const quotaStore = new MemoryQuotaStore({ balances: { k: 1_000_000 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: TEST_KEY, id: 'k' }]),
      quotaStore,
      providers: [provider],
      models: [{ id: 'scripted', provider: 'scripted' }],
      codecs: [broken],
    });
    const server = await listen(app);
    try {
      // Cut before or after the headers went out (they leave with the first chunk): fetch or the body read fails.
      const outcome = await postStream(`${server.url}/v1/chat/completions`, {
        model: 'scripted',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      })
        .then((response) => response.text())
        .then(
          () => 'ended',
          () => 'cut',
        );
      expect(outcome).toBe('cut');
      await sleep(20);
      expect(quotaStore.getAccount('k').reserved).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('the openai SDK surfaces a mid-stream error as an exception', async () => {
    const { app } = scriptedApp(async function* () {
      yield start;
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'partial' };
      throw new GatewayError('upstream', 'upstream broke');
    });
    const server = await listen(app);
    try {
      const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'scripted',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      });
      await expect(
        (async () => {
          for await (const _chunk of stream) {
            /* read */
          }
        })(),
      ).rejects.toThrow(/upstream broke/);
    } finally {
      await server.close();
    }
  });

  it('a provider that can only generate is streamed by replay', async () => {
    const local = new LocalProvider();
    const generateOnly: Provider = {
      specificationVersion: 'v1',
      name: 'plain',
      generate: (request, context) => local.generate(request, context),
    };
    const { app } = buildApp(
      testOptions({ providers: [generateOnly], models: [{ id: 'plain-echo', provider: 'plain' }] }),
    );
    const server = await listen(app);
    try {
      const response = await postStream(`${server.url}/v1/chat/completions`, {
        model: 'plain-echo',
        stream: true,
        messages: [{ role: 'user', content: 'replayed' }],
      });
      const chunks = dataLines(await response.text())
        .slice(0, -1)
        .map((payload) => JSON.parse(payload));
      expect(chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('replayed');
      expect(chunks[0].model).toBe('plain-echo');
    } finally {
      await server.close();
    }
  });

  it('a client that disconnects aborts the provider call, frees everything and is charged for what was produced', async () => {
    const { app, record, quotaStore } = scriptedApp(async function* (signal) {
      yield start;
      yield { type: 'text-start', id: 't' };
      for (let index = 0; index < 10_000; index++) {
        await sleep(5);
        if (signal.aborted) throw signal.reason;
        yield { type: 'text-delta', id: 't', delta: ' word' };
      }
      yield { type: 'text-end', id: 't' };
      yield { type: 'finish', usage: { inputTokens: 1, outputTokens: 10_000 }, finishReason: { unified: 'stop' } };
    });
    const server = await listen(app);
    try {
      await new Promise<void>((resolve) => {
        const request = http.request(
          `${server.url}/v1/chat/completions`,
          { method: 'POST', headers: auth },
          (response) => {
            let seen = 0;
            response.on('data', () => {
              if (++seen === 20) {
                request.destroy();
                resolve();
              }
            });
          },
        );
        request.on('error', () => undefined);
        request.end(JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'go' }] }));
      });
      for (let waited = 0; waited < 2000 && !record.finished; waited += 20) await sleep(20);
      expect(record.finished).toBe(true);
      expect(record.aborted).toBe(true);
      expect(record.pulled).toBeLessThan(200);
      const account = quotaStore.getAccount('k');
      expect(account.reserved).toBe(0);
      expect(account.spent).toBeGreaterThan(0);
      expect(account.spent).toBeLessThan(1000);
    } finally {
      await server.close();
    }
  });

  it('a slow reader makes the gateway wait for drain instead of buffering without bound', async () => {
    const delta = 'x'.repeat(64 * 1024);
    const { app, record } = scriptedApp(async function* () {
      yield start;
      yield { type: 'text-start', id: 't' };
      for (let index = 0; index < 100_000; index++) yield { type: 'text-delta', id: 't', delta };
    });
    const server = await listen(app);
    const heapBefore = process.memoryUsage().heapUsed;
    try {
      let request!: http.ClientRequest;
      await new Promise<void>((resolve) => {
        request = http.request(`${server.url}/v1/chat/completions`, { method: 'POST', headers: auth }, (response) => {
          response.pause();
          resolve();
        });
        request.on('error', () => undefined);
        request.end(JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'go' }] }));
      });
      // Wait until the gateway stops pulling: the socket buffers are full and it waits for drain. Filling them takes
      // however long the machine takes (800 ms were not always enough on a busy one); a gateway that did not wait for
      // drain would keep pulling, past the bound below, towards all 100,000 parts.
      let pulledWhilePaused = -1;
      for (let waited = 0; record.pulled !== pulledWhilePaused && waited < 20_000; waited += 400) {
        pulledWhilePaused = record.pulled;
        await sleep(400);
      }
      expect(record.pulled).toBe(pulledWhilePaused);
      // 100,000 parts of 64 KiB would be 6.4 GB; the socket buffers hold at most a few MB of it.
      expect(pulledWhilePaused).toBeLessThan(400);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(128 * 1024 * 1024);
      request.destroy();
      for (let waited = 0; waited < 2000 && !record.finished; waited += 20) await sleep(20);
      expect(record.finished).toBe(true);
    } finally {
      await server.close();
    }
  });
});
