/**
 * The Gemini provider against a mock Gemini API on loopback: every inbound protocol, streaming, tools, signatures,
 * failures.
 */
import http from 'node:http';
import request from 'supertest';
import { MemoryKeyStore, MemoryQuotaStore, type GenerateRequest, type ModelConfig } from '../../../lib';
import { GeminiProvider } from '../../../lib/providers/gemini';
import { encodeGenerateContentRequest } from '../../../lib/providers/gemini/encode-request';
import { decodeGenerateContentResponse } from '../../../lib/providers/gemini/decode-response';
import {
  abortControllersOfChatCalls,
  dataEvents,
  type Json,
  serveGateway,
  type RunningGateway,
} from '../../helpers/app';
import { CANDIDATE_EXTRAS, startMockGemini, USAGE_EXTRAS, type MockGemini } from '../../helpers/mock-gemini';

const KEY = 'sk-gateway-caller-key-1';
const UPSTREAM_KEY = 'AIzaSyUpstreamSecret0123456789abcdef';

let mock: MockGemini;
let server: RunningGateway;
let quotaStore: MemoryQuotaStore;

const UPSTREAM_MODELS = [
  'echo',
  'tools',
  'tools-id',
  'thinking',
  'blocked',
  'max-tokens',
  'safety',
  'fail-400',
  'fail-401',
  'fail-403',
  'fail-404',
  'fail-429',
  'fail-500',
  'fail-503',
  'garbage',
  'cut',
  'reset',
  'flaky-500',
  'stream-error',
  'no-usage',
  'slow',
  'extras',
];
const models: ModelConfig[] = [
  ...UPSTREAM_MODELS.map((upstream) => ({ id: `gem-${upstream}`, provider: 'gemini', upstreamModel: upstream })),
  { id: 'gem-capped', provider: 'gemini', upstreamModel: 'echo', maxOutputTokens: 64 },
  { id: 'gem-impatient', provider: 'impatient', upstreamModel: 'slow' },
  { id: 'gem-wrong-key', provider: 'wrong-key', upstreamModel: 'echo' },
];

beforeAll(async () => {
  mock = await startMockGemini({ apiKey: UPSTREAM_KEY });
  quotaStore = new MemoryQuotaStore({ balances: { caller: 1_000_000 } });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new GeminiProvider({ baseUrl: mock.url, apiKey: UPSTREAM_KEY, retries: { baseDelayMs: 1 } }),
      new GeminiProvider({ name: 'impatient', baseUrl: mock.url, apiKey: UPSTREAM_KEY, timeouts: { responseMs: 300 } }),
      new GeminiProvider({ name: 'wrong-key', baseUrl: mock.url, apiKey: 'AIzaSyWrongKey0123456789abcdefghij' }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const openai = (body: Json) =>
  request(server.url).post('/v1/chat/completions').set('authorization', `Bearer ${KEY}`).send(body);
const anthropic = (body: Json) => request(server.url).post('/v1/messages').set('x-api-key', KEY).send(body);
const gemini = (model: string, body: Json) =>
  request(server.url).post(`/v1beta/models/${model}:generateContent`).set('x-goog-api-key', KEY).send(body);
const user = (text: string) => [{ role: 'user', content: text }];
const lastSent = () => mock.requests.at(-1)!;
const spent = () => quotaStore.getAccount('caller').spent;

async function post(
  path: string,
  headers: Record<string, string>,
  body: Json,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** Anthropic frames as `{event, data}`. */
function anthropicEvents(text: string): Array<{ event: string; data: Json }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as Json };
    });
}

const streamOpenAI = (body: Json) =>
  post('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, { ...body, stream: true });
const streamAnthropic = (body: Json) => post('/v1/messages', { 'x-api-key': KEY }, { ...body, stream: true });
const streamGemini = (model: string, body: Json) =>
  post(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, { 'x-goog-api-key': KEY }, body);

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

describe('Gemini upstream: each inbound protocol, not streamed', () => {
  it('serves an OpenAI caller: system prompt, text, usage with thoughts, quota settled, key in the header only', async () => {
    const before = spent();
    const res = await openai({
      model: 'gem-echo',
      messages: [{ role: 'system', content: 'Be brief.' }, ...user('hello upstream')],
      max_tokens: 50,
      temperature: 0.3,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: hello upstream');
    expect(res.body.choices[0].finish_reason).toBe('stop');
    expect(res.body.model).toBe('gem-echo');
    expect(res.body.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 9,
      total_tokens: 20,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(spent() - before).toBeCloseTo(20 - 2 + 2 * 0.1, 6);
    const sent = lastSent();
    expect(sent.url).toBe('/v1beta/models/echo:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEY);
    expect(sent.url).not.toContain('key=');
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hello upstream' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.3, topP: 0.9, maxOutputTokens: 50, stopSequences: ['END'], seed: 7 },
    });
  });

  it('makes no AbortController for a call without image URLs, streamed or not', async () => {
    expect(await abortControllersOfChatCalls(openai, 'gem-echo')).toBe(0);
  });

  it('serves an Anthropic caller: multi-turn merged into user/model turns, system instruction, usage', async () => {
    const before = spent();
    const res = await anthropic({
      model: 'gem-echo',
      max_tokens: 100,
      system: 'Be kind.',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'an answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'second ' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
          ],
        },
        { role: 'user', content: 'third' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.content[0]).toMatchObject({ type: 'text', text: 'upstream says: second third' });
    expect(res.body.stop_reason).toBe('end_turn');
    expect(res.body.usage).toMatchObject({ input_tokens: 9, cache_read_input_tokens: 2, output_tokens: 9 });
    expect(spent() - before).toBeCloseTo(20 - 2 + 2 * 0.1, 6);
    expect(lastSent().body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'first' }] },
        { role: 'model', parts: [{ text: 'an answer' }] },
        {
          role: 'user',
          parts: [{ text: 'second ' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } }, { text: 'third' }],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be kind.' }] },
      generationConfig: { maxOutputTokens: 100 },
    });
  });

  it('serves a Gemini caller by passing its own body through (safetySettings, unknown fields), the output cap set by the gateway', async () => {
    const before = spent();
    const safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi from gemini' }] }],
      systemInstruction: { parts: [{ text: 'Stay calm.' }] },
      safetySettings,
      labels: { team: 'a' },
      generationConfig: { temperature: 0.5, thinkingConfig: { thinkingBudget: 0 }, responseLogprobs: false },
    };
    const res = await gemini('gem-capped', body);
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].content.parts[0].text).toBe('upstream says: hi from gemini');
    expect(res.body.candidates[0].finishReason).toBe('STOP');
    expect(res.body.usageMetadata).toMatchObject({
      promptTokenCount: 11,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 5,
      cachedContentTokenCount: 2,
      totalTokenCount: 21,
    });
    expect(spent() - before).toBeCloseTo(21 - 2 + 2 * 0.1, 6);
    expect(lastSent().body).toEqual({ ...body, generationConfig: { ...body.generationConfig, maxOutputTokens: 64 } });
  });

  it('keeps a Gemini caller’s snake_case spelling when it sets the output cap', async () => {
    const res = await gemini('gem-echo', {
      contents: [{ parts: [{ text: 'snake' }] }],
      generation_config: { max_output_tokens: 12, top_k: 3 },
      safety_settings: [],
    });
    expect(res.status).toBe(200);
    expect(lastSent().body).toEqual({
      contents: [{ parts: [{ text: 'snake' }] }],
      generation_config: { max_output_tokens: 12, top_k: 3 },
      safety_settings: [],
    });
  });
});

describe("Gemini upstream, the answer's unmodelled fields", () => {
  it('pass through to a Gemini caller: grounding, citations, log-probabilities, safety ratings, promptFeedback, and the usage block as sent', async () => {
    const res = await gemini('gem-extras', { contents: [{ role: 'user', parts: [{ text: 'ground it' }] }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      modelVersion: 'gem-extras',
      responseId: 'resp-mock-1',
      promptFeedback: { safetyRatings: [] },
    });
    expect(res.body.candidates[0]).toMatchObject({
      content: { role: 'model', parts: [{ text: 'upstream says: ground it' }] },
      finishReason: 'STOP',
      index: 0,
      ...CANDIDATE_EXTRAS,
    });
    expect(res.body.usageMetadata).toMatchObject({ promptTokenCount: 11, ...USAGE_EXTRAS });
  });

  it('reach no caller of another protocol', async () => {
    const chat = await openai({ model: 'gem-extras', messages: user('ground it') });
    const messages = await anthropic({ model: 'gem-extras', max_tokens: 100, messages: user('ground it') });
    for (const res of [chat, messages]) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toMatch(
        /groundingMetadata|example\.com|avgLogprobs|promptTokensDetails|HARM_CATEGORY/,
      );
    }
  });
});

describe('Gemini upstream: tools and thought signatures', () => {
  it('translates OpenAI tools and tool_choice, and relays function calls as tool_calls with synthesized ids', async () => {
    const res = await openai({
      model: 'gem-tools',
      messages: user('weather?'),
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].finish_reason).toBe('tool_calls');
    const calls = res.body.choices[0].message.tool_calls;
    expect(calls.map((call: Json) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['get_weather', { city: 'Oslo' }],
      ['get_time', { zone: 'CET' }],
    ]);
    expect(calls[0].id).not.toBe(calls[1].id);
    expect(calls[0].id).toMatch(/^call_[A-Za-z0-9_-]+$/);
    const sent = lastSent().body;
    expect(sent.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            parametersJsonSchema: WEATHER_TOOL.function.parameters,
          },
        ],
      },
    ]);
    expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
  });

  it('maps the other tool choices', async () => {
    for (const [choice, mode] of [
      ['auto', 'AUTO'],
      ['none', 'NONE'],
      ['required', 'ANY'],
    ] as const) {
      await openai({ model: 'gem-echo', messages: user('x'), tools: [WEATHER_TOOL], tool_choice: choice });
      expect(lastSent().body.toolConfig).toEqual({ functionCallingConfig: { mode } });
    }
  });

  it('sends an OpenAI multi-turn tool conversation as a model turn of functionCalls and a user turn of named functionResponses', async () => {
    const res = await openai({
      model: 'gem-echo',
      tools: [WEATHER_TOOL],
      messages: [
        ...user('Weather and time?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_def', type: 'function', function: { name: 'get_time', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_abc', content: '{"temp_c":3}' },
        { role: 'tool', tool_call_id: 'call_def', content: '12:00' },
        ...user('Thanks'),
      ],
    });
    expect(res.status).toBe(200);
    expect(lastSent().body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp_c: 3 } } },
          { functionResponse: { name: 'get_time', response: { output: '12:00' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('sends an Anthropic tool error as functionResponse.response.error', async () => {
    const res = await anthropic({
      model: 'gem-echo',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'service down', is_error: true }],
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(lastSent().body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { error: 'service down' } } }] },
    ]);
  });

  it('refuses a tool result whose call is not in the history (Gemini needs the name)', async () => {
    const res = await openai({
      model: 'gem-echo',
      messages: [...user('x'), { role: 'tool', tool_call_id: 'call_missing', content: 'ok' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/call_missing/);
  });

  it('hands a Gemini caller the upstream thoughtSignature, and sends the caller’s signed functionCall back unchanged', async () => {
    const res = await gemini('gem-tools', { contents: [{ role: 'user', parts: [{ text: 'weather?' }] }] });
    expect(res.status).toBe(200);
    const parts = res.body.candidates[0].content.parts;
    expect(parts[0]).toMatchObject({
      functionCall: { name: 'get_weather', args: { city: 'Oslo' } },
      thoughtSignature: 'sig-weather',
    });
    expect(parts[1].thoughtSignature).toBeUndefined();
    expect(res.body.candidates[0].finishReason).toBe('STOP');

    const history = [
      { role: 'user', parts: [{ text: 'weather?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-weather' }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 3 } } }] },
    ];
    await gemini('gem-echo', { contents: history });
    expect(lastSent().body.contents).toEqual(history);
  });

  it('carries Gemini function-call ids and signatures through the canonical form, never another vendor’s', () => {
    const decoded = decodeGenerateContentResponse(
      {
        responseId: 'r1',
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Thinking…', thought: true, thoughtSignature: 'sig-thought' },
                {
                  functionCall: { id: 'fc-9', name: 'get_weather', args: { city: 'Oslo' } },
                  thoughtSignature: 'sig-call',
                },
                { functionCall: { name: 'get_time', args: {} } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
      'm',
      'gemini',
    );
    const content = decoded.choices[0]!.content;
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [{ type: 'reasoning', text: 'Claude thinking', signature: 'anthropic-sig' }, ...content],
        },
        {
          role: 'tool',
          content: content.flatMap((part) =>
            part.type === 'tool-call'
              ? [
                  {
                    type: 'tool-result' as const,
                    toolCallId: part.id,
                    content: [{ type: 'text' as const, text: '"ok"' }],
                  },
                ]
              : [],
          ),
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'foreign', providerMetadata: { anthropic: { thoughtSignature: 'not-ours' } } },
          ],
        },
      ],
      reasoning: { enabled: true, budgetTokens: 2048 },
    };
    const body = encodeGenerateContentRequest(request);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { text: 'Thinking…', thought: true, thoughtSignature: 'sig-thought' },
          { functionCall: { id: 'fc-9', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-call' },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc-9', name: 'get_weather', response: { output: '"ok"' } } },
          { functionResponse: { name: 'get_time', response: { output: '"ok"' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'foreign' }] },
    ]);
    expect(body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
  });

  it('maps reasoning, structured output and finish reasons', async () => {
    const thinking = await openai({
      model: 'gem-thinking',
      messages: user('think'),
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
    });
    expect(thinking.body.choices[0].message).toMatchObject({
      content: 'The answer.',
      reasoning_content: 'Let me think.',
    });
    expect(lastSent().body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      maxOutputTokens: expect.any(Number),
    });
    expect((await openai({ model: 'gem-max-tokens', messages: user('x') })).body.choices[0].finish_reason).toBe(
      'length',
    );
    expect((await anthropic({ model: 'gem-safety', max_tokens: 10, messages: user('x') })).body.stop_reason).toBe(
      'refusal',
    );
    const blocked = await openai({ model: 'gem-blocked', messages: user('bad') });
    expect(blocked.status).toBe(200);
    expect(blocked.body.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: '' } });
    expect(blocked.body.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 0 });
  });
});

describe('Gemini upstream: streaming', () => {
  it('streams to an OpenAI caller from streamGenerateContent?alt=sse, usage from the last event', async () => {
    const before = spent();
    const { status, text } = await streamOpenAI({
      model: 'gem-echo',
      stream_options: { include_usage: true },
      messages: user('stream this please'),
    });
    expect(status).toBe(200);
    const chunks = dataEvents(text);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe(
      'upstream says: stream this please',
    );
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta?.content).length).toBeGreaterThan(1);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 10,
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(spent() - before).toBeCloseTo(21 - 2 + 2 * 0.1, 6);
    const sent = lastSent();
    expect(sent.url).toBe('/v1beta/models/echo:streamGenerateContent?alt=sse');
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEY);
  });

  it('streams function calls whole to an OpenAI caller, finish tool_calls', async () => {
    const { text } = await streamOpenAI({ model: 'gem-tools', messages: user('tools'), tools: [WEATHER_TOOL] });
    const chunks = dataEvents(text);
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    const args = [0, 1].map((index) =>
      calls
        .filter((call: Json) => call.index === index)
        .map((call: Json) => call.function.arguments ?? '')
        .join(''),
    );
    expect(args.map((value) => JSON.parse(value))).toEqual([{ city: 'Oslo' }, { zone: 'CET' }]);
    expect(calls.filter((call: Json) => call.function?.name).map((call: Json) => call.function.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams to an Anthropic caller: input usage at the start, output usage at the end', async () => {
    const before = spent();
    const { status, text } = await streamAnthropic({
      model: 'gem-echo',
      max_tokens: 100,
      system: 'Be brief.',
      messages: user('anthropic stream'),
    });
    expect(status).toBe(200);
    const events = anthropicEvents(text);
    expect(events[0]!.data.message.usage).toMatchObject({ input_tokens: 9, cache_read_input_tokens: 2 });
    const deltas = events
      .filter((event) => event.data.delta?.type === 'text_delta')
      .map((event) => event.data.delta.text)
      .join('');
    expect(deltas).toBe('upstream says: anthropic stream');
    const messageDelta = events.find((event) => event.event === 'message_delta')!.data;
    expect(messageDelta.delta.stop_reason).toBe('end_turn');
    expect(messageDelta.usage.output_tokens).toBe(9);
    expect(events.at(-1)!.event).toBe('message_stop');
    expect(spent() - before).toBeCloseTo(20 - 2 + 2 * 0.1, 6);
    expect(lastSent().body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
  });

  it('streams tool_use blocks to an Anthropic caller', async () => {
    const { text } = await streamAnthropic({
      model: 'gem-tools',
      max_tokens: 100,
      messages: user('tools'),
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
    });
    const events = anthropicEvents(text);
    const starts = events
      .filter((event) => event.event === 'content_block_start')
      .map((event) => event.data.content_block);
    expect(starts.map((block: Json) => [block.type, block.name])).toEqual([
      ['tool_use', 'get_weather'],
      ['tool_use', 'get_time'],
    ]);
    expect(events.find((event) => event.event === 'message_delta')!.data.delta.stop_reason).toBe('tool_use');
  });

  it('streams to a Gemini caller, keeping the function call signature, the finish reason and the usage', async () => {
    const before = spent();
    const { status, text } = await streamGemini('gem-tools', {
      contents: [{ role: 'user', parts: [{ text: 'tools' }] }],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
    expect(status).toBe(200);
    const responses = dataEvents(text);
    const parts = responses.flatMap((response) => response.candidates[0].content.parts);
    const calls = parts.filter((part: Json) => part.functionCall);
    expect(calls.map((part: Json) => [part.functionCall.name, part.thoughtSignature])).toEqual([
      ['get_weather', 'sig-weather'],
      ['get_time', undefined],
    ]);
    const last = responses.at(-1)!;
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.usageMetadata).toMatchObject({
      promptTokenCount: 11,
      candidatesTokenCount: 3,
      thoughtsTokenCount: 5,
      cachedContentTokenCount: 2,
    });
    expect(spent() - before).toBeCloseTo(19 - 2 + 2 * 0.1, 6);
    expect(lastSent().body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    expect(lastSent().url).toBe('/v1beta/models/tools:streamGenerateContent?alt=sse');
  });

  it('streams thought parts as reasoning and keeps a text signature', async () => {
    const { text } = await streamGemini('gem-thinking', { contents: [{ parts: [{ text: 'think' }] }] });
    const parts = dataEvents(text).flatMap((response) => response.candidates[0].content.parts);
    expect(
      parts
        .filter((part: Json) => part.thought && part.text)
        .map((part: Json) => part.text)
        .join(''),
    ).toBe('Let me think.');
    expect(
      parts
        .filter((part: Json) => !part.thought)
        .map((part: Json) => part.text)
        .join(''),
    ).toBe('The answer.');
    expect(parts.some((part: Json) => part.thoughtSignature === 'sig-text')).toBe(true);
  });

  it('streams a blocked prompt as a content-filter finish', async () => {
    const { status, text } = await streamOpenAI({ model: 'gem-blocked', messages: user('bad') });
    expect(status).toBe(200);
    expect(dataEvents(text).find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe(
      'content_filter',
    );
  });

  it('charges an estimate when the upstream stream carries no usage', async () => {
    const before = spent();
    const { text } = await streamOpenAI({ model: 'gem-no-usage', messages: user('count me') });
    expect(
      dataEvents(text)
        .map((chunk) => chunk.choices[0]?.delta?.content ?? '')
        .join(''),
    ).toBe('upstream says: count me');
    expect(spent() - before).toBeGreaterThan(5);
  });
});

describe('Gemini upstream failures, in the caller envelope', () => {
  it('400 keeps the upstream message, without the upstream key', async () => {
    const res = await openai({ model: 'gem-fail-400', messages: user('x') });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('mock failure 400');
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_KEY);
  });

  it('an invalid gateway key (400 API_KEY_INVALID at Google) is a 502 about the gateway credentials, streamed or not', async () => {
    const res = await openai({ model: 'gem-wrong-key', messages: user('x') });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/credentials/);
    const streamed = await streamGemini('gem-wrong-key', { contents: [{ parts: [{ text: 'x' }] }] });
    expect(streamed.status).toBe(502);
    expect(JSON.parse(streamed.text).error.message).toMatch(/credentials/);
  });

  it('401 and 403 from the upstream are 502s about the gateway credentials', async () => {
    for (const model of ['gem-fail-401', 'gem-fail-403']) {
      const res = await anthropic({ model, max_tokens: 10, messages: user('x') });
      expect(res.status).toBe(502);
      expect(res.body.error.type).toBe('api_error');
      expect(res.body.error.message).toMatch(/credentials/);
      expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_KEY);
    }
  });

  it('404 → 404; 429 → 429 with Retry-After; 503 → 503', async () => {
    const missing = await gemini('gem-fail-404', { contents: [{ parts: [{ text: 'x' }] }] });
    expect(missing.status).toBe(404);
    expect(missing.body.error.status).toBe('NOT_FOUND');
    const limited = await openai({ model: 'gem-fail-429', messages: user('x') });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('0');
    expect((await openai({ model: 'gem-fail-503', messages: user('x') })).status).toBe(503);
  });

  it('5xx is retried a bounded number of times, then 502', async () => {
    const count = mock.requests.length;
    const res = await openai({ model: 'gem-fail-500', messages: user('x') });
    expect(res.status).toBe(502);
    expect(mock.requests.length - count).toBe(3);
  });

  it('a 500 that clears on retry succeeds', async () => {
    const res = await openai({ model: 'gem-flaky-500', messages: user('flaky once') });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: flaky once');
  });

  it('timeout → 504; malformed JSON → 502; connection reset → 502', async () => {
    const slow = await gemini('gem-impatient', { contents: [{ parts: [{ text: 'x' }] }] });
    expect(slow.status).toBe(504);
    expect(slow.body.error.status).toBe('DEADLINE_EXCEEDED');
    expect((await openai({ model: 'gem-garbage', messages: user('x') })).status).toBe(502);
    expect((await openai({ model: 'gem-reset', messages: user('x') })).status).toBe(502);
  });

  it('a stream cut mid-way becomes an in-stream error; the quota is settled, nothing left reserved', async () => {
    const { status, text } = await streamOpenAI({ model: 'gem-cut', messages: user('cut me off') });
    expect(status).toBe(200);
    const chunks = dataEvents(text);
    expect(chunks[0]!.choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-1)!.error.message).toMatch(/ended before it finished/);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  });

  it('an error event inside the stream becomes the caller’s in-stream error', async () => {
    const { status, text } = await streamGemini('gem-stream-error', {
      contents: [{ parts: [{ text: 'overload me' }] }],
    });
    expect(status).toBe(200);
    const responses = dataEvents(text);
    expect(responses[0]!.candidates[0].content.parts[0].text).toBe('upstream');
    expect(responses.at(-1)!.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(responses.at(-1)!.error.message).toMatch(/overloaded/);
  });

  it('a caller that disconnects aborts the upstream request', async () => {
    const abortedBefore = mock.aborted;
    await new Promise<void>((resolve) => {
      const call = http.request(`${server.url}/v1beta/models/gem-slow:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      });
      call.on('error', () => undefined);
      call.end(JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }));
      setTimeout(() => {
        call.destroy();
        resolve();
      }, 100);
    });
    for (let waited = 0; waited < 2000 && mock.aborted === abortedBefore; waited += 25)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(mock.aborted).toBeGreaterThan(abortedBefore);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  });
});
