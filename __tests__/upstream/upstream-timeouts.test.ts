/**
 * Upstream timeouts: a streamed call waits `streamResponseMs` for the upstream's headers, a non-streamed call
 * `responseMs`; a stream never waits longer than `responseMs` unless the host set `streamResponseMs` itself.
 */
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UpstreamTimeouts } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-timeouts-caller-0123456789';
let upstream: MockServer;
let server: RunningGateway;

beforeAll(async () => {
  // Never answers a streamed call; answers a non-streamed one after 400 ms.
  upstream = await startMockServer((body, _request, response) => {
    if (body.stream === true) return;
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-t',
          object: 'chat.completion',
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'late but fine' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 3 },
        }),
      );
    }, 400);
  });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new OpenAIProvider({
        baseUrl: `${upstream.origin}/v1`,
        retries: { max: 0 },
        timeouts: { streamResponseMs: 150, responseMs: 30_000 },
      }),
    ],
    models: [{ id: 'm', provider: 'openai', upstreamModel: 'm' }],
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

const chat = (stream: boolean) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });

it('a streamed call whose upstream sends no headers within streamResponseMs is a 504 in the caller envelope', async () => {
  const response = await chat(true);
  expect(response.status).toBe(504);
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/did not answer in time/);
});

it('a non-streamed call waits responseMs: a long generation is not cut by the streamed limit', async () => {
  const response = await chat(false);
  expect(response.status).toBe(200);
  expect(
    ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
  ).toBe('late but fine');
});

describe('a host that sets only responseMs', () => {
  // Never answers a streamed call (any protocol); answers nothing else either.
  let silent: MockServer;
  let gateway: RunningGateway;
  const timeouts: UpstreamTimeouts = { responseMs: 300 };
  beforeAll(async () => {
    silent = await startMockServer(() => undefined);
    const common = { apiKey: 'sk-upstream-silent-0000', retries: { max: 0 }, timeouts };
    gateway = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [
        new OpenAIProvider({ name: 'openai', baseUrl: `${silent.origin}/v1`, ...common }),
        new AnthropicProvider({ name: 'anthropic', baseUrl: silent.origin, ...common }),
        new GeminiProvider({ name: 'gemini', baseUrl: `${silent.origin}/v1beta`, ...common }),
      ],
      models: [
        { id: 'via-openai', provider: 'openai', upstreamModel: 'm' },
        { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'm' },
        { id: 'via-gemini', provider: 'gemini', upstreamModel: 'm' },
      ],
    });
  });
  afterAll(async () => {
    await gateway.close();
    await silent.close();
  });

  const callers: Array<[string, (model: string) => Promise<Response>, (body: any) => string]> = [
    [
      'chat completions',
      (model) =>
        fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        }),
      (body) => body.error.message,
    ],
    [
      'messages',
      (model) =>
        fetch(`${gateway.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        }),
      (body) => body.error.message,
    ],
    [
      'streamGenerateContent',
      (model) =>
        fetch(`${gateway.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': KEY },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        }),
      (body) => body.error.message,
    ],
  ];
  for (const [caller, send, messageOf] of callers) {
    for (const model of ['via-openai', 'via-anthropic', 'via-gemini']) {
      // With the old 120 s default this waits past the test's own timeout.
      it(`${caller} → ${model.slice(4)}: a stream to an upstream that never answers is a 504 within responseMs`, async () => {
        const response = await send(model);
        expect(response.status).toBe(504);
        expect(messageOf(await response.json())).toMatch(/did not answer in time/);
      }, 10_000);
    }
  }
});

describe('a host that sets streamResponseMs itself', () => {
  it('is waited for even when it is longer than responseMs', async () => {
    // Answers a stream's headers after 400 ms: past responseMs, within streamResponseMs.
    const slow = await startMockServer((body, _request, response) => {
      if (body.stream !== true) return;
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.end(
          `${chunk({ role: 'assistant', content: 'slow start' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
        );
      }, 400);
    });
    const patient = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [
        new OpenAIProvider({
          baseUrl: `${slow.origin}/v1`,
          retries: { max: 0 },
          timeouts: { responseMs: 100, streamResponseMs: 5_000 },
        }),
      ],
      models: [{ id: 'm', provider: 'openai', upstreamModel: 'm' }],
    });
    try {
      const response = await fetch(`${patient.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('slow start');
    } finally {
      await patient.close();
      await slow.close();
    }
  });
});
