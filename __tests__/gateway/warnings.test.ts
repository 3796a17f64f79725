/**
 * Call warnings end to end: a setting or tool the upstream cannot take is named in `x-rosetta-warnings`, streamed and
 * not; nothing dropped, no header; never the caller's text.
 */
import {
  AnthropicProvider,
  GeminiProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type Provider,
} from '../../lib';
import { buildApp, listen, type RunningServer } from '../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic';
import { startMockGemini, type MockGemini } from '../helpers/mock-gemini';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-warnings-caller-0123456789';
const GEMINI_KEY = 'gemini-upstream-key-0123456789';
const SECRET_TEXT = 'my secret plan is 42';
const json = { 'content-type': 'application/json' };

/** A provider outside the package that reports a warning through its context, as docs/providers.md says. */
const reporting: Provider = {
  specificationVersion: 'v1',
  name: 'reporting',
  generate(request, context) {
    context.warn?.({ type: 'unsupported-setting', setting: 'logit_bias', details: 'this upstream has none' });
    context.warn?.({ type: 'other', message: `an upstream note about ${SECRET_TEXT}` });
    return {
      id: 'r1',
      model: request.model,
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop' } }],
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let geminiMock: MockGemini;
let server: RunningServer;

beforeAll(async () => {
  [openaiMock, anthropicMock, geminiMock] = await Promise.all([
    startMockOpenAI(),
    startMockAnthropic(),
    startMockGemini({ apiKey: GEMINI_KEY }),
  ]);
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } }),
    providers: [
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-openai-upstream-0123456789', retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } }),
      new GeminiProvider({ baseUrl: geminiMock.url, apiKey: GEMINI_KEY, retries: { max: 0 } }),
      reporting,
    ],
    models: [
      { id: 'oa-echo', provider: 'openai', upstreamModel: 'echo' },
      { id: 'an-echo', provider: 'anthropic', upstreamModel: 'echo' },
      { id: 'g-echo', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' },
      { id: 'reporting', provider: 'reporting', upstreamModel: 'any' },
    ],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await Promise.all([openaiMock.close(), anthropicMock.close(), geminiMock.close()]);
});

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

function chat(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
}

function messages(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { ...json, 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
}

function responses(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
}

/** The answer's warnings header, after checking the call succeeded (its body read to the end). */
async function warningsOf(pending: Promise<Response>): Promise<string | null> {
  const response = await pending;
  const body = await response.text();
  expect({ status: response.status, body: response.status === 200 ? 'ok' : body }).toEqual({ status: 200, body: 'ok' });
  return response.headers.get('x-rosetta-warnings');
}

describe.each([false, true])('stream: %s', (stream) => {
  it('a chat caller’s seed sent to an Anthropic upstream is named (Anthropic has no seed)', async () => {
    const header = await warningsOf(
      chat({ model: 'an-echo', stream, seed: 7, messages: [{ role: 'user', content: 'hello' }] }),
    );
    expect(header).toBe('unsupported-setting=seed');
    expect(anthropicMock.requests.at(-1)!.body).not.toHaveProperty('seed');
  });

  it('a chat caller’s parallel_tool_calls sent to a Gemini upstream is named', async () => {
    const body = {
      model: 'g-echo',
      stream,
      parallel_tool_calls: false,
      tools: [WEATHER_TOOL],
      messages: [{ role: 'user', content: 'hello' }],
    };
    expect(await warningsOf(chat(body))).toBe('unsupported-setting=parallel_tool_calls');
  });

  it('an Anthropic caller’s top_k sent to an OpenAI chat upstream is named', async () => {
    const header = await warningsOf(
      messages({ model: 'oa-echo', stream, max_tokens: 50, top_k: 5, messages: [{ role: 'user', content: 'hello' }] }),
    );
    expect(header).toBe('unsupported-setting=top_k');
  });

  it('a Responses caller’s built-in tool sent to a chat upstream is named, beside its dropped tool item', async () => {
    const input = [
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: SECRET_TEXT } },
      { role: 'user', content: 'hello' },
    ];
    const header = await warningsOf(responses({ model: 'oa-echo', stream, input, tools: [{ type: 'web_search' }] }));
    expect(header).toBe('unsupported-tool=web_search_call; unsupported-tool=web_search');
    expect(openaiMock.requests.at(-1)!.body).not.toHaveProperty('tools');
  });

  it('a call with nothing dropped has no warnings header', async () => {
    expect(
      await warningsOf(chat({ model: 'oa-echo', stream, seed: 7, messages: [{ role: 'user', content: 'hello' }] })),
    ).toBeNull();
    expect(
      await warningsOf(
        messages({
          model: 'an-echo',
          stream,
          max_tokens: 50,
          top_k: 5,
          messages: [{ role: 'user', content: 'hello' }],
        }),
      ),
    ).toBeNull();
  });

  it('the header names settings only, never the caller’s text or a warning’s message', async () => {
    const header = await warningsOf(
      chat({
        model: 'an-echo',
        stream,
        seed: 7,
        user: SECRET_TEXT,
        messages: [{ role: 'user', content: SECRET_TEXT }],
      }),
    );
    expect(header).toBe('unsupported-setting=seed');
    const reported = await warningsOf(
      chat({ model: 'reporting', stream, messages: [{ role: 'user', content: SECRET_TEXT }] }),
    );
    expect(reported).toBe('unsupported-setting=logit_bias; other');
    expect(reported).not.toMatch(/secret|42|upstream has none/);
  });
});

it('several drops are all named, each once', async () => {
  const body = {
    model: 'g-echo',
    parallel_tool_calls: true,
    user: 'u-1',
    tools: [{ ...WEATHER_TOOL, function: { ...WEATHER_TOOL.function, strict: true } }],
    messages: [{ role: 'user', content: 'hello' }],
  };
  expect(await warningsOf(chat(body))).toBe(
    'unsupported-setting=strict; unsupported-setting=parallel_tool_calls; unsupported-setting=user',
  );
});
