/** The OpenAI-compatible provider against a mock upstream on loopback: every inbound protocol, streaming, failures. */
import { createHook } from 'node:async_hooks';
import http from 'node:http';
import request from 'supertest';
import { MemoryKeyStore, MemoryQuotaStore, OpenAIProvider, type ModelConfig } from '../../../lib';
import { abortControllersOfChatCalls, buildApp, listen, readJson, type RunningServer } from '../../helpers/app';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';

const KEY = 'sk-gateway-caller-key-1';
const UPSTREAM_KEY = 'sk-upstream-secret-123456789';

let mock: MockOpenAI;
let server: RunningServer;
let quotaStore: MemoryQuotaStore;

const models: ModelConfig[] = [
  ...[
    'echo',
    'tools',
    'fail-400',
    'fail-401',
    'fail-404',
    'fail-429',
    'fail-500',
    'fail-503',
    'garbage',
    'cut',
    'cut-body',
    'reset',
    'flaky-500',
    'no-usage',
    'extras',
    'text-tools',
  ].map((upstream) => ({ id: `gpt-${upstream}`, provider: 'openai', upstreamModel: upstream })),
  { id: 'gpt-slow', provider: 'impatient', upstreamModel: 'slow' },
  { id: 'gpt-image', provider: 'openai', type: 'image', upstreamModel: 'gpt-image-1' },
];

beforeAll(async () => {
  mock = await startMockOpenAI();
  quotaStore = new MemoryQuotaStore({ balances: { caller: 1_000_000 } });
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({ baseUrl: mock.url, apiKey: UPSTREAM_KEY, retries: { baseDelayMs: 1 } }),
      new OpenAIProvider({ name: 'impatient', baseUrl: mock.url, apiKey: UPSTREAM_KEY, timeouts: { responseMs: 300 } }),
    ],
    models,
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const openai = (body: Record<string, unknown>) =>
  request(server.url).post('/v1/chat/completions').set('authorization', `Bearer ${KEY}`).send(body);
const user = (text: string) => [{ role: 'user', content: text }];

describe('OpenAI-compatible upstream', () => {
  it('relays a chat completion, passes unknown fields through, and settles the upstream usage', async () => {
    const before = quotaStore.getAccount('caller').spent;
    const res = await openai({
      model: 'gpt-echo',
      messages: user('hello upstream'),
      max_tokens: 50,
      logprobs: true,
      metadata: { team: 'a' },
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: hello upstream');
    expect(res.body.model).toBe('gpt-echo');
    expect(res.body.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 4,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 2 },
    });
    const sent = mock.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(sent.body).toMatchObject({
      model: 'echo',
      max_tokens: 50,
      logprobs: true,
      metadata: { team: 'a' },
      stream: false,
    });
    expect(quotaStore.getAccount('caller').spent - before).toBeCloseTo(15 - 2 + 2 * 0.1, 6);
  });

  it("passes the answer's unmodelled fields through to a chat-completions caller: logprobs, annotations, system_fingerprint, service_tier, a server's extras", async () => {
    const res = await openai({ model: 'gpt-extras', messages: user('cite it'), logprobs: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'chatcmpl-extras',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gpt-extras',
      provider: 'mock-cloud',
      service_tier: 'flex',
      system_fingerprint: 'fp_mock',
    });
    const [choice] = res.body.choices;
    expect(choice).toMatchObject({ index: 0, finish_reason: 'stop', native_finish_reason: 'STOP' });
    expect(choice.logprobs).toEqual({
      content: [{ token: 'upstream', logprob: -0.25, bytes: [...Buffer.from('upstream')], top_logprobs: [] }],
      refusal: null,
    });
    expect(choice.message).toEqual({
      role: 'assistant',
      content: 'upstream says: cite it',
      refusal: null,
      annotations: [
        {
          type: 'url_citation',
          url_citation: { url: 'https://example.com/', title: 'Example', start_index: 0, end_index: 8 },
        },
      ],
    });
    // The upstream's usage block as it sent it (its `cost` too), and no field of ours lost.
    expect(res.body.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 4,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 2 },
      cost: 0.00042,
    });
  });

  it('keeps its own values of the fields it models: the model id, reasoning as reasoning_content; no logprobs when none came', async () => {
    const plain = await openai({ model: 'gpt-extras', messages: user('no logprobs') });
    expect(plain.body.model).toBe('gpt-extras');
    expect(plain.body.choices[0].logprobs).toBeNull();
    const reasoned = await openai({
      model: 'gpt-text-tools',
      messages: user('go'),
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    const message = reasoned.body.choices[0].message;
    expect(message.reasoning_content).toBe('The user wants two facts.');
    expect(message).not.toHaveProperty('reasoning');
    expect(reasoned.body).toMatchObject({ service_tier: 'default', system_fingerprint: null });
  });

  it('passes nothing through to callers of another protocol', async () => {
    const res = await request(server.url)
      .post('/v1/messages')
      .set('x-api-key', KEY)
      .send({ model: 'gpt-extras', max_tokens: 50, messages: [{ role: 'user', content: 'cite it' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'message',
      model: 'gpt-extras',
      content: [{ type: 'text', text: 'upstream says: cite it' }],
    });
    for (const field of ['provider', 'logprobs', 'system_fingerprint', 'annotations'])
      expect(res.body).not.toHaveProperty(field);
    expect(JSON.stringify(res.body)).not.toMatch(/fp_mock|mock-cloud|url_citation|cost/);
  });

  /** A streamed chat call's chunks, parsed ([DONE] left out). */
  async function streamedChunks(body: Record<string, unknown>): Promise<Array<Record<string, any>>> {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, ...body }),
    });
    expect(res.status).toBe(200);
    return (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.slice(6))
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data));
  }

  it("streams them through as well: system_fingerprint, service_tier and a server's extras on every chunk, each delta's logprobs, but not one chunk's padding on all", async () => {
    const chunks = await streamedChunks({
      model: 'gpt-extras',
      messages: user('cite it'),
      logprobs: true,
      stream_options: { include_usage: true },
    });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({
        object: 'chat.completion.chunk',
        model: 'gpt-extras',
        system_fingerprint: 'fp_mock',
        service_tier: 'flex',
        provider: 'mock-cloud',
      });
      expect(chunk).not.toHaveProperty('obfuscation');
    }
    const words = chunks.filter((chunk) => chunk.choices[0]?.delta?.content);
    expect(words.map((chunk) => chunk.choices[0].delta.content).join('')).toBe('upstream says: cite it');
    words.forEach((chunk, position) => {
      const word = chunk.choices[0].delta.content;
      expect(chunk.choices[0].logprobs).toEqual({
        content: [{ token: word, logprob: -0.5 * (position + 1), bytes: [...Buffer.from(word)], top_logprobs: [] }],
        refusal: null,
      });
    });
    expect(chunks[0].choices[0]).toMatchObject({ delta: { role: 'assistant', content: '' }, logprobs: null });
    expect(chunks.at(-2)!.choices[0]).toMatchObject({ finish_reason: 'stop', logprobs: null });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 11 } });
  });

  it("streams no logprobs when none came, and nothing of the extras to another protocol's caller", async () => {
    const plain = await streamedChunks({ model: 'gpt-extras', messages: user('no logprobs') });
    for (const chunk of plain) expect(chunk.choices[0].logprobs).toBeNull();
    const echo = await streamedChunks({ model: 'gpt-echo', messages: user('plain') });
    for (const chunk of echo) {
      expect(chunk.system_fingerprint).toBeNull();
      expect(Object.keys(chunk).sort()).toEqual(['choices', 'created', 'id', 'model', 'object', 'system_fingerprint']);
    }
    const anthropic = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-extras',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'cite it' }],
      }),
    });
    const text = await anthropic.text();
    expect(text).toContain('message_stop');
    expect(text).not.toMatch(/fp_mock|mock-cloud|logprob|flex|obfuscation/);
  });

  it('serves an Anthropic caller from the OpenAI upstream', async () => {
    const res = await request(server.url)
      .post('/v1/messages')
      .set('x-api-key', KEY)
      .send({
        model: 'gpt-echo',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'hi from anthropic' }],
      });
    expect(res.status).toBe(200);
    expect(res.body.content[0]).toMatchObject({ type: 'text', text: 'upstream says: hi from anthropic' });
    expect(res.body.stop_reason).toBe('end_turn');
    expect(res.body.usage).toMatchObject({ input_tokens: 9, cache_read_input_tokens: 2, output_tokens: 5 });
    const sent = mock.requests.at(-1)!.body;
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi from anthropic' },
    ]);
    expect(sent.max_tokens).toBe(100);
  });

  it('serves a Gemini caller from the OpenAI upstream', async () => {
    const res = await request(server.url)
      .post('/v1beta/models/gpt-echo:generateContent')
      .set('x-goog-api-key', KEY)
      .send({
        contents: [{ role: 'user', parts: [{ text: 'hi from gemini' }] }],
        generationConfig: { maxOutputTokens: 30, temperature: 0.5 },
      });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].content.parts[0].text).toBe('upstream says: hi from gemini');
    expect(res.body.usageMetadata).toMatchObject({
      promptTokenCount: 11,
      candidatesTokenCount: 5,
      totalTokenCount: 16,
    });
    expect(mock.requests.at(-1)!.body).toMatchObject({ temperature: 0.5, max_tokens: 30 });
  });

  it('relays tool calls', async () => {
    const res = await openai({
      model: 'gpt-tools',
      messages: user('weather?'),
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    expect(res.body.choices[0].finish_reason).toBe('tool_calls');
    expect(res.body.choices[0].message.tool_calls).toHaveLength(2);
    expect(res.body.choices[0].message.tool_calls[0]).toMatchObject({
      id: 'call_a',
      function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
    });
  });

  it('streams: upstream SSE parsed and re-encoded, usage from the upstream usage chunk', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-echo',
        stream: true,
        stream_options: { include_usage: true },
        messages: user('stream this'),
      }),
    });
    const text = await res.text();
    const chunks = text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.slice(6))
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('upstream says: stream this');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 4 });
    expect(mock.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams tool-call argument fragments', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-tools', stream: true, messages: user('tools') }),
    });
    const chunks = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.slice(6))
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data));
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    const args = [0, 1].map((index) =>
      calls
        .filter((call: { index: number }) => call.index === index)
        .map((call: { function: { arguments?: string } }) => call.function.arguments ?? '')
        .join(''),
    );
    expect(args).toEqual(['{"city":"Oslo"}', '{"zone":"CET"}']);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('charges an estimate when the upstream stream carries no usage', async () => {
    const before = quotaStore.getAccount('caller').spent;
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-no-usage', stream: true, messages: user('count me') }),
    });
    await res.text();
    expect(quotaStore.getAccount('caller').spent - before).toBeGreaterThan(5);
  });
});

describe('OpenAI-compatible upstream failures, in the caller envelope', () => {
  it('400 keeps the upstream message, without the upstream key', async () => {
    const res = await openai({ model: 'gpt-fail-400', messages: user('x') });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('mock failure 400');
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_KEY);
  });

  it('401 from the upstream is a 502 about the gateway credentials', async () => {
    const res = await request(server.url)
      .post('/v1/messages')
      .set('x-api-key', KEY)
      .send({ model: 'gpt-fail-401', max_tokens: 10, messages: user('x') });
    expect(res.status).toBe(502);
    expect(res.body.error.type).toBe('api_error');
    expect(res.body.error.message).toMatch(/credentials/);
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_KEY);
  });

  it('404 → 404; 429 → 429 with Retry-After; 503 → 503', async () => {
    expect((await openai({ model: 'gpt-fail-404', messages: user('x') })).status).toBe(404);
    const limited = await openai({ model: 'gpt-fail-429', messages: user('x') });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('0');
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect((await openai({ model: 'gpt-fail-503', messages: user('x') })).status).toBe(503);
  });

  it('5xx is retried a bounded number of times, then 502', async () => {
    const count = mock.requests.length;
    const res = await openai({ model: 'gpt-fail-500', messages: user('x') });
    expect(res.status).toBe(502);
    expect(mock.requests.length - count).toBe(3);
  });

  it('a 500 that clears on retry succeeds', async () => {
    const res = await openai({ model: 'gpt-flaky-500', messages: user('flaky once') });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: flaky once');
  });

  it('a body over 64 KiB (sent to undici as a stream) reaches the upstream whole, with its length, again on a retry', async () => {
    const prompt = `${'lorem ipsum dolor sit amet, '.repeat(4000)}ünïcode ✓`;
    const count = mock.requests.length;
    const res = await openai({ model: 'gpt-flaky-500', messages: user(prompt) });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe(`upstream says: ${prompt}`);
    const attempts = mock.requests.slice(count);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.body.messages).toEqual([{ role: 'user', content: prompt }]);
      expect(Number(attempt.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(attempt.body)));
      expect(attempt.headers['transfer-encoding']).toBeUndefined();
    }
    const streamed = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-echo', stream: true, messages: user(prompt) }),
    });
    expect(streamed.status).toBe(200);
    const text = (await streamed.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe(`upstream says: ${prompt}`);
  });

  it('timeout → 504; garbage → 502; connection reset → 502', async () => {
    const slow = await request(server.url)
      .post('/v1beta/models/gpt-slow:generateContent')
      .set('x-goog-api-key', KEY)
      .send({ contents: [{ parts: [{ text: 'x' }] }] });
    expect(slow.status).toBe(504);
    expect(slow.body.error.status).toBe('DEADLINE_EXCEEDED');
    const garbage = await openai({ model: 'gpt-garbage', messages: user('x') });
    expect(garbage.status).toBe(502);
    const reset = await openai({ model: 'gpt-reset', messages: user('x') });
    expect(reset.status).toBe(502);
  });

  it('a non-streamed answer cut after its headers is a 502 and is not sent again: the upstream already has the request', async () => {
    const before = mock.requests.length;
    const res = await openai({ model: 'gpt-cut-body', messages: user('cut my answer') });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/Could not reach the upstream openai/);
    expect(mock.requests.length - before).toBe(1);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  });

  it("reads upstream answers without undici's request() machinery: no AsyncResource and no body stream per call, streamed or not", async () => {
    let made = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === 'UNDICI_REQUEST') made++;
      },
    }).enable();
    try {
      const plain = await openai({ model: 'gpt-echo', messages: user('count') });
      expect(plain.status).toBe(200);
      const streamed = await openai({ model: 'gpt-echo', stream: true, messages: user('count') });
      expect(streamed.status).toBe(200);
    } finally {
      hook.disable();
    }
    expect(made).toBe(0);
  });

  it('a stream cut mid-way becomes an in-stream error; failures release or settle the quota', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-cut', stream: true, messages: user('cut me') }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(JSON.parse(events.at(-1)!.slice(6)).error.message).toMatch(/ended before it finished/);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  });

  /**
   * Sends a chat call to the slow model, hangs up after 100 ms, and checks the upstream request was aborted and the
   * hold freed.
   */
  async function disconnectAndCheckAborted(body: Record<string, unknown>): Promise<void> {
    const abortedBefore = mock.aborted;
    await new Promise<void>((resolve) => {
      const call = http.request(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      });
      call.on('error', () => undefined);
      call.end(JSON.stringify({ model: 'gpt-slow', messages: user('x'), ...body }));
      setTimeout(() => {
        call.destroy();
        resolve();
      }, 100);
    });
    for (let waited = 0; waited < 2000 && mock.aborted === abortedBefore; waited += 25)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(mock.aborted).toBeGreaterThan(abortedBefore);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  }

  it('a caller that disconnects aborts the upstream request', async () => {
    await disconnectAndCheckAborted({});
  });

  it('a streamed caller that disconnects before the first byte aborts the upstream request', async () => {
    await disconnectAndCheckAborted({ stream: true });
  });

  it('makes no AbortController for a call through a built-in provider (the cancellation is cheaper, and made into a signal only on demand)', async () => {
    expect(await abortControllersOfChatCalls(openai, 'gpt-echo')).toBe(0);
  });

  it('relays images', async () => {
    const res = await fetch(`${server.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image', prompt: 'a fox', n: 2, size: '1024x1024' }),
    });
    const body = await readJson(res);
    expect(body.data).toHaveLength(2);
    expect(mock.requests.at(-1)!.body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a fox',
      n: 2,
      size: '1024x1024',
    });
    expect(mock.requests.at(-1)!.body).not.toHaveProperty('response_format');
  });
});

describe('routing: fallbacks and provider/model ids', () => {
  let routed: RunningServer;
  let store: MemoryQuotaStore;

  beforeAll(async () => {
    store = new MemoryQuotaStore({ balances: { caller: 1_000_000, limited: 1_000_000 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([
        { key: KEY, id: 'caller' },
        { key: 'sk-limited-key-0001', id: 'limited', allowedModels: ['openai/*'] },
      ]),
      quotaStore: store,
      providers: [new OpenAIProvider({ baseUrl: mock.url, apiKey: UPSTREAM_KEY, retries: { max: 0 } })],
      models: [
        { id: 'primary', provider: 'openai', upstreamModel: 'fail-500', fallbacks: ['backup'] },
        { id: 'picky', provider: 'openai', upstreamModel: 'fail-400', fallbacks: ['backup'] },
        { id: 'backup', provider: 'openai', upstreamModel: 'echo', aliases: ['spare'] },
      ],
      providerModelIds: true,
    });
    routed = await listen(app);
  });
  afterAll(() => routed.close());

  const call = (model: string, key = KEY, extra: Record<string, unknown> = {}) =>
    request(routed.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .send({ model, messages: user('route me'), ...extra });

  it('a 5xx falls back to the next model, before any byte reached the caller', async () => {
    const res = await call('primary');
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('backup');
    expect(res.body.choices[0].message.content).toBe('upstream says: route me');
  });

  it('streams fall back too', async () => {
    const res = await fetch(`${routed.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary', stream: true, messages: user('stream route') }),
    });
    const chunks = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.slice(6))
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('upstream says: stream route');
    expect(chunks[0].model).toBe('backup');
  });

  it('a 400 does not fall back', async () => {
    expect((await call('picky')).status).toBe(400);
  });

  it('aliases and provider/model ids resolve; allowedModels wildcards apply', async () => {
    expect((await call('spare')).status).toBe(200);
    const direct = await call('openai/echo');
    expect(direct.status).toBe(200);
    expect(mock.requests.at(-1)!.body.model).toBe('echo');
    expect((await call('openai/echo', 'sk-limited-key-0001')).status).toBe(200);
    expect((await call('backup', 'sk-limited-key-0001')).status).toBe(403);
    expect((await call('nobody/echo')).status).toBe(404);
  });
});
