/**
 * Every caller protocol → an OpenAI provider model served through the Responses API: the request reaches `/responses`,
 * the answer comes back in the caller's shape, usage is charged, upstream errors are mapped.
 */
import { MemoryKeyStore, OpenAIProvider } from '../../../lib';
import { buildApp, listen, type Json, type RunningServer } from '../../helpers/app';
import { startMockOpenAIResponses, type MockOpenAIResponses } from '../../helpers/mock-openai-responses';
import { RecordingQuotaStore } from '../../helpers/recording-quota-store';

const KEY = 'sk-responses-upstream-caller';
let mock: MockOpenAIResponses;
let server: RunningServer;
const quota = new RecordingQuotaStore({ balances: { caller: 10_000_000 } });

beforeAll(async () => {
  mock = await startMockOpenAIResponses();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new OpenAIProvider({
        baseUrl: mock.url,
        apiKey: 'sk-upstream-secret-123456789',
        responsesModels: (id) => id !== 'chat-only',
      }),
    ],
    models: ['echo', 'length', 'fail-401', 'fail-429', 'fail-500', 'failed', 'error-event', 'garbage', 'cut'].map(
      (id) => ({ id: `r-${id}`, provider: 'openai', upstreamModel: id, pricing: { input: 1, output: 1 } }),
    ),
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

type Protocol = 'chat' | 'anthropic' | 'gemini' | 'responses';
const PROTOCOLS: Protocol[] = ['chat', 'anthropic', 'gemini', 'responses'];

/** One call in the caller's protocol, asking "hello there". */
function call(protocol: Protocol, model: string, stream: boolean): Promise<Response> {
  const json = { 'content-type': 'application/json' };
  switch (protocol) {
    case 'chat':
      return fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${KEY}` },
        body: JSON.stringify({
          model,
          stream,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'hello there' },
          ],
        }),
      });
    case 'anthropic':
      return fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { ...json, 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model,
          stream,
          max_tokens: 100,
          system: 'Be brief.',
          messages: [{ role: 'user', content: 'hello there' }],
        }),
      });
    case 'gemini':
      return fetch(
        `${server.url}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        {
          method: 'POST',
          headers: { ...json, 'x-goog-api-key': KEY },
          body: JSON.stringify({
            systemInstruction: { parts: [{ text: 'Be brief.' }] },
            contents: [{ role: 'user', parts: [{ text: 'hello there' }] }],
          }),
        },
      );
    case 'responses':
      return fetch(`${server.url}/v1/responses`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model, stream, instructions: 'Be brief.', input: 'hello there' }),
      });
  }
}

/** The answer's text, from a whole body or a stream, in the caller's protocol. */
function answerText(protocol: Protocol, stream: boolean, raw: string): string {
  if (!stream) {
    const body = JSON.parse(raw) as Json;
    if (protocol === 'chat') return body.choices[0].message.content;
    if (protocol === 'anthropic') return body.content.map((block: Json) => block.text ?? '').join('');
    if (protocol === 'gemini') return body.candidates[0].content.parts.map((part: Json) => part.text ?? '').join('');
    return body.output
      .flatMap((item: Json) => (item.type === 'message' ? item.content.map((part: Json) => part.text) : []))
      .join('');
  }
  const events = raw
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Json);
  if (protocol === 'chat') return events.map((event) => event.choices?.[0]?.delta?.content ?? '').join('');
  if (protocol === 'anthropic')
    return events.map((event) => (event.type === 'content_block_delta' ? (event.delta.text ?? '') : '')).join('');
  if (protocol === 'gemini')
    return events
      .map((event) => (event.candidates?.[0]?.content?.parts ?? []).map((part: Json) => part.text ?? '').join(''))
      .join('');
  return events.map((event) => (event.type === 'response.output_text.delta' ? event.delta : '')).join('');
}

/** The error's message in the caller's envelope. */
function errorMessage(protocol: Protocol, body: Json): string {
  return protocol === 'gemini'
    ? body.error.message
    : protocol === 'anthropic'
      ? body.error.message
      : body.error.message;
}

describe.each(PROTOCOLS)('a %s caller → a Responses upstream', (protocol) => {
  it.each([false, true])(
    'answers (stream: %s) from /responses, the system prompt as instructions; usage charged',
    async (stream) => {
      const before = mock.requests.length;
      const settles = quota.settles.length;
      const res = await call(protocol, 'r-echo', stream);
      const raw = await res.text();
      expect(res.status).toBe(200);
      expect(answerText(protocol, stream, raw)).toBe('upstream says: hello there');
      expect(mock.requests.length).toBe(before + 1);
      const sent = mock.requests.at(-1)!;
      expect(sent.url).toBe('/v1/responses');
      expect(sent.headers.authorization).toBe('Bearer sk-upstream-secret-123456789');
      expect(sent.body).toMatchObject({
        model: 'echo',
        stream,
        instructions: 'Be brief.',
        store: false,
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] }],
      });
      expect(typeof sent.body.max_output_tokens).toBe('number');
      // 11 input tokens and one per word of "upstream says: hello there".
      expect(quota.settles.length).toBe(settles + 1);
      // 2 of the 11 input tokens read from the cache, at 0.1× (docs/operations.md, "Billing").
      expect(quota.settles.at(-1)!.actual).toBeCloseTo(11 - 2 + 2 * 0.1 + 4, 6);
    },
  );

  it.each([false, true])("a cut by the output cap is the caller's length finish (stream: %s)", async (stream) => {
    const res = await call(protocol, 'r-length', stream);
    const raw = await res.text();
    expect(res.status).toBe(200);
    const finish = {
      chat: '"finish_reason":"length"',
      anthropic: '"stop_reason":"max_tokens"',
      gemini: '"finishReason":"MAX_TOKENS"',
      responses: '"reason":"max_output_tokens"',
    }[protocol];
    expect(raw).toContain(finish);
  });

  it.each([
    ['fail-401', 502],
    ['fail-429', 429],
    ['fail-500', 502],
    ['failed', 429],
    ['garbage', 502],
  ])("upstream %s → %d in the caller's envelope, the upstream key never shown", async (model, status) => {
    const res = await call(protocol, `r-${model}`, false);
    expect(res.status).toBe(status);
    const body = (await res.json()) as Json;
    expect(typeof errorMessage(protocol, body)).toBe('string');
    expect(JSON.stringify(body)).not.toContain('sk-upstream-secret');
  });

  it.each([
    ['failed', 429],
    ['garbage', 502],
    ['cut', 200],
    ['error-event', 200],
  ])(
    "streamed upstream %s → %d before the first byte, or the protocol's in-stream error after it",
    async (model, status) => {
      const res = await call(protocol, `r-${model}`, true);
      const raw = await res.text();
      expect(res.status).toBe(status);
      if (status === 200) expect(raw).toMatch(/error|failed/);
      expect(raw).not.toContain('sk-upstream-secret');
    },
  );
});

describe('Responses upstream stream events', () => {
  it('a malformed event before the first byte is a 502 upstream_malformed', async () => {
    const res = await call('chat', 'r-garbage', true);
    expect(res.status).toBe(502);
    expect(((await res.json()) as Json).error.code).toBe('upstream_malformed');
  });
});

describe('responsesModels', () => {
  it('is validated at creation', () => {
    expect(() => new OpenAIProvider({ responsesModels: 'gpt-5' as never })).toThrow(
      expect.objectContaining({
        code: 'ERR_GATEWAY_INVALID_OPTION',
        message: expect.stringContaining('responsesModels'),
      }),
    );
    expect(() => new OpenAIProvider({ responsesModels: ['ok', ''] })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION' }),
    );
    expect(() => new OpenAIProvider({ responsesModels: ['gpt-5-codex'] })).not.toThrow();
  });

  it('models not named go through chat completions', async () => {
    const { startMockOpenAI } = await import('../../helpers/mock-openai');
    const chat = await startMockOpenAI();
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [new OpenAIProvider({ baseUrl: chat.url, responsesModels: ['codex-only'] })],
      models: [{ id: 'plain', provider: 'openai', upstreamModel: 'echo' }],
    });
    const running = await listen(app);
    try {
      const res = await fetch(`${running.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model: 'plain', input: 'hi' }),
      });
      expect(res.status).toBe(200);
      expect(chat.requests.at(-1)!.url).toBe('/v1/chat/completions');
    } finally {
      await running.close();
      await chat.close();
    }
  });
});
