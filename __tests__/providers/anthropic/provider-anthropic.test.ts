/** The Anthropic Messages provider against a mock upstream on loopback: every inbound protocol, streaming, failures. */
import http from 'node:http';
import request from 'supertest';
import {
  GatewayConfigError,
  MemoryKeyStore,
  MemoryQuotaStore,
  type GenerateRequest,
  type ModelConfig,
} from '../../../lib';
import { AnthropicProvider } from '../../../lib/providers/anthropic';
import { MessageStreamDecoder } from '../../../lib/providers/anthropic/decode-stream';
import type { GenerateResponse, ProviderStreamPart } from '../../../lib/canonical';
import { encodeMessagesResponse } from '../../../lib/protocols/anthropic-messages/encode-response';
import { collectParts } from '../../../lib/stream/collect';
import { StreamMeter } from '../../../lib/stream/meter';
import { countRequestTokens, countTextTokens } from '../../../lib/tokenizer';
import { encodeMessagesRequest } from '../../../lib/providers/anthropic/encode-request';
import { type Json, serveGateway, type RunningGateway } from '../../helpers/app';
import {
  EXTRA_USAGE,
  EXTRAS,
  MOCK_ANTHROPIC_KEY,
  startMockAnthropic,
  type MockAnthropic,
} from '../../helpers/mock-anthropic';

const KEY = 'sk-gateway-caller-key-1';

let mock: MockAnthropic;
let server: RunningGateway;
let quotaStore: MemoryQuotaStore;

const UPSTREAMS = [
  'echo',
  'thinking',
  'tools',
  'stop-seq',
  'max',
  'refusal',
  'pause',
  'late-usage',
  'fail-400',
  'fail-401',
  'fail-403',
  'fail-404',
  'fail-429',
  'fail-500',
  'fail-529',
  'garbage',
  'cut',
  'overloaded',
  'reset',
  'flaky-500',
  'extras',
];
const models: ModelConfig[] = [
  ...UPSTREAMS.map((upstream) => ({ id: `claude-${upstream}`, provider: 'anthropic', upstreamModel: upstream })),
  { id: 'claude-slow', provider: 'impatient', upstreamModel: 'slow' },
  { id: 'claude-keyless', provider: 'keyless', upstreamModel: 'echo' },
];

beforeAll(async () => {
  mock = await startMockAnthropic();
  quotaStore = new MemoryQuotaStore({ balances: { caller: 1_000_000 } });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new AnthropicProvider({ baseUrl: mock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
      new AnthropicProvider({
        name: 'impatient',
        baseUrl: mock.url,
        apiKey: MOCK_ANTHROPIC_KEY,
        timeouts: { responseMs: 300 },
      }),
      new AnthropicProvider({ name: 'keyless', baseUrl: mock.url, retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const spent = () => quotaStore.getAccount('caller').spent;
const lastSent = () => mock.requests.at(-1)!;
const openai = (body: Record<string, unknown>) =>
  request(server.url).post('/v1/chat/completions').set('authorization', `Bearer ${KEY}`).send(body);
const anthropic = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(server.url).post('/v1/messages').set('x-api-key', KEY).set(headers).send(body);
const gemini = (model: string, body: Record<string, unknown>) =>
  request(server.url).post(`/v1beta/models/${model}:generateContent`).set('x-goog-api-key', KEY).send(body);
const user = (text: string) => [{ role: 'user', content: text }];

async function postStream(
  path: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** OpenAI chunks (without [DONE]) of a raw SSE body. */
function openaiChunks(text: string): Json[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => event.replace(/^data: /, ''))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Json);
}

/** Anthropic events of a raw SSE body: the `event:` name and the parsed data. */
function anthropicEvents(text: string): Array<{ event: string; data: Json }> {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.replace(/^event: /, ''), data: JSON.parse(dataLine!.replace(/^data: /, '')) as Json };
    });
}

describe('Anthropic upstream, OpenAI callers', () => {
  it('lifts system prompts, maps sampling, sends the credentials, maps and settles the usage', async () => {
    const before = spent();
    const res = await openai({
      model: 'claude-echo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello upstream' },
        { role: 'developer', content: 'Also kind.' },
      ],
      max_tokens: 50,
      temperature: 1.5,
      top_p: 0.9,
      stop: ['END'],
      user: 'user-7',
      seed: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: hello upstream');
    expect(res.body.choices[0].finish_reason).toBe('stop');
    expect(res.body.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 4,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 4, 6);
    const sent = lastSent();
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(MOCK_ANTHROPIC_KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'echo',
      max_tokens: 50,
      stream: false,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Also kind.' },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello upstream' }] }],
      temperature: 1,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
    });
  });

  it('sends a multi-turn tool conversation as tool_use blocks and ONE user turn of tool_results, ids made Anthropic-safe', async () => {
    const res = await openai({
      model: 'claude-echo',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather and time?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call:1.a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call:1.a', content: '3C' },
        { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(res.status).toBe(200);
    const body = lastSent().body;
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'weather and time?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1_a', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1_a', content: [{ type: 'text', text: '3C' }] },
          { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: '12:00' }] },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('merges consecutive same-role turns and drops blank text, so roles alternate', async () => {
    const res = await openai({
      model: 'claude-echo',
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: ' ' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'three' },
      ],
    });
    expect(res.status).toBe(200);
    expect(lastSent().body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ]);
    expect(lastSent().body.max_tokens).toEqual(expect.any(Number));
  });

  it('relays tool calls with their arguments as JSON text', async () => {
    const res = await openai({
      model: 'claude-tools',
      messages: user('weather?'),
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].finish_reason).toBe('tool_calls');
    expect(
      res.body.choices[0].message.tool_calls.map((call: Json) => [
        call.id,
        call.function.name,
        call.function.arguments,
      ]),
    ).toEqual([
      ['toolu_01A', 'get_weather', '{"city":"Oslo"}'],
      ['toolu_01B', 'get_time', '{"zone":"CET"}'],
    ]);
  });

  it('maps stop reasons: max_tokens → length, refusal → content_filter', async () => {
    expect((await openai({ model: 'claude-max', messages: user('x') })).body.choices[0].finish_reason).toBe('length');
    expect((await openai({ model: 'claude-refusal', messages: user('x') })).body.choices[0].finish_reason).toBe(
      'content_filter',
    );
  });

  it('refuses n > 1, which Anthropic cannot answer, with a 400 naming the field', async () => {
    const count = mock.requests.length;
    const res = await openai({ model: 'claude-echo', messages: user('x'), n: 2 });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('n');
    expect(mock.requests.length).toBe(count);
  });

  it('streams text: Anthropic events re-encoded as chunks, usage from message_start and message_delta', async () => {
    const before = spent();
    const { status, text } = await postStream(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'claude-echo', stream: true, stream_options: { include_usage: true }, messages: user('stream this') },
    );
    expect(status).toBe(200);
    const chunks = openaiChunks(text);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('upstream says: stream this');
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 4, 6);
    expect(lastSent().body).toMatchObject({ stream: true, model: 'echo' });
    expect(lastSent().headers.accept).toBe('text/event-stream');
  });

  it('streams tool calls: input_json_delta fragments become argument fragments', async () => {
    const { text } = await postStream(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'claude-tools', stream: true, messages: user('tools') },
    );
    const chunks = openaiChunks(text);
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    const args = [0, 1].map((index) =>
      calls
        .filter((call: Json) => call.index === index)
        .map((call: Json) => call.function.arguments ?? '')
        .join(''),
    );
    expect(args).toEqual(['{"city":"Oslo"}', '{"zone":"CET"}']);
    expect(calls.filter((call: Json) => call.id).map((call: Json) => call.function.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('tool_calls');
  });
});

describe('Anthropic upstream, Anthropic callers (same-protocol pass-through)', () => {
  const callerBody = {
    model: 'claude-thinking',
    max_tokens: 2000,
    system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'think', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    some_future_field: { kept: true },
  };
  const beta = 'interleaved-thinking-2025-05-14,context-management-2025-06-27';

  it('passes thinking, cache_control, unknown fields and the anthropic-beta header through unchanged', async () => {
    const before = spent();
    const res = await anthropic(callerBody, { 'anthropic-beta': beta, 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(200);
    const sent = lastSent();
    expect(sent.body).toEqual({ ...callerBody, model: 'thinking', stream: false });
    expect(sent.headers['anthropic-beta']).toBe(beta);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['x-api-key']).toBe(MOCK_ANTHROPIC_KEY);
    expect(res.body.content).toEqual([
      { type: 'thinking', thinking: 'Let me think about it.', signature: 'EqQBsig-from-anthropic' },
      { type: 'text', text: 'upstream says: think', citations: [] },
    ]);
    expect(res.body.stop_reason).toBe('end_turn');
    expect(res.body.usage).toMatchObject({
      input_tokens: 6,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 2,
      output_tokens: 8,
      output_tokens_details: { thinking_tokens: 5 },
    });
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 8, 6);
  });

  it('keeps the matched stop sequence', async () => {
    const res = await anthropic({
      model: 'claude-stop-seq',
      max_tokens: 20,
      stop_sequences: ['END'],
      messages: user('x'),
    });
    expect(res.body).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(lastSent().body.stop_sequences).toEqual(['END']);
  });

  it('keeps pause_turn', async () => {
    const res = await anthropic({ model: 'claude-pause', max_tokens: 20, messages: user('x') });
    expect(res.body.stop_reason).toBe('pause_turn');
  });

  it('streams thinking with its signature, text, and the usage', async () => {
    const before = spent();
    const { status, text } = await postStream(
      '/v1/messages',
      { 'x-api-key': KEY, 'anthropic-beta': beta },
      { ...callerBody, stream: true },
    );
    expect(status).toBe(200);
    expect(lastSent().body).toEqual({ ...callerBody, model: 'thinking', stream: true });
    expect(lastSent().headers['anthropic-beta']).toBe(beta);
    const events = anthropicEvents(text);
    expect(events.every(({ event, data }) => event === data.type)).toBe(true);
    const deltas = events.filter(({ event }) => event === 'content_block_delta').map(({ data }) => data.delta);
    expect(
      deltas
        .filter((delta) => delta.type === 'thinking_delta')
        .map((delta) => delta.thinking)
        .join(''),
    ).toBe('Let me think about it.');
    expect(deltas.filter((delta) => delta.type === 'signature_delta').map((delta) => delta.signature)).toEqual([
      'EqQBsig-from-anthropic',
    ]);
    expect(
      deltas
        .filter((delta) => delta.type === 'text_delta')
        .map((delta) => delta.text)
        .join(''),
    ).toBe('upstream says: think');
    expect(events[0]!.data.message.usage).toMatchObject({
      input_tokens: 6,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 2,
    });
    const messageDelta = events.find(({ event }) => event === 'message_delta')!.data;
    expect(messageDelta.delta.stop_reason).toBe('end_turn');
    expect(messageDelta.usage).toMatchObject({
      input_tokens: 6,
      output_tokens: 8,
      output_tokens_details: { thinking_tokens: 5 },
    });
    expect(events.at(-1)!.event).toBe('message_stop');
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 8, 6);
  });

  it('takes input usage from message_delta when it overwrites message_start', async () => {
    const before = spent();
    const { text } = await postStream(
      '/v1/messages',
      { 'x-api-key': KEY },
      { model: 'claude-late-usage', max_tokens: 20, stream: true, messages: user('late') },
    );
    const messageDelta = anthropicEvents(text).find(({ event }) => event === 'message_delta')!.data;
    expect(messageDelta.usage).toMatchObject({
      input_tokens: 6,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 2,
      output_tokens: 3,
    });
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 3, 6);
  });
});

describe("Anthropic upstream, the answer's unmodelled fields", () => {
  it("pass through to an Anthropic caller: container, context_management, stop_details, a newer API's field, and the usage block as sent", async () => {
    const res = await anthropic({ model: 'claude-extras', max_tokens: 100, messages: user('hello') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'msg_mock',
      type: 'message',
      model: 'claude-extras',
      content: [{ type: 'text', text: 'upstream says: hello' }],
      stop_reason: 'end_turn',
      ...EXTRAS,
    });
    expect(res.body.usage).toMatchObject({
      output_tokens: expect.any(Number),
      cache_read_input_tokens: expect.any(Number),
      ...EXTRA_USAGE,
    });
  });

  it("keep the codec's own values where the upstream sent nothing, and reach no caller of another protocol", async () => {
    const plain = await anthropic({ model: 'claude-echo', max_tokens: 100, messages: user('hello') });
    expect(plain.body).toMatchObject({
      stop_details: null,
      context_management: { applied_edits: [] },
      container: null,
    });
    expect(plain.body).not.toHaveProperty('future_field');
    const chat = await openai({ model: 'claude-extras', messages: user('hello') });
    expect(chat.status).toBe(200);
    expect(JSON.stringify(chat.body)).not.toMatch(
      /container_mock|clear_tool_uses|future_field|web_search_requests|priority/,
    );
  });
});

describe('Anthropic upstream, Gemini callers', () => {
  it('sends systemInstruction, turns and generation settings; maps the answer and usage back', async () => {
    const before = spent();
    const res = await gemini('claude-echo', {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        { role: 'user', parts: [{ text: 'from gemini' }] },
      ],
      generationConfig: { maxOutputTokens: 30, temperature: 0.5, topK: 5, stopSequences: ['STOP!'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].content.parts[0].text).toBe('upstream says: from gemini');
    expect(res.body.candidates[0].finishReason).toBe('STOP');
    expect(res.body.usageMetadata).toMatchObject({
      promptTokenCount: 11,
      candidatesTokenCount: 4,
      totalTokenCount: 15,
      cachedContentTokenCount: 3,
    });
    expect(spent() - before).toBeCloseTo(6 + 3 * 0.1 + 2 * 1.25 + 4, 6);
    expect(lastSent().body).toEqual({
      model: 'echo',
      max_tokens: 30,
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
        { role: 'user', content: [{ type: 'text', text: 'from gemini' }] },
      ],
      temperature: 0.5,
      top_k: 5,
      stop_sequences: ['STOP!'],
    });
  });

  it('sends a function call round trip as a tool_use/tool_result pair and never forwards Gemini thought signatures', async () => {
    const res = await gemini('claude-echo', {
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        {
          role: 'model',
          parts: [
            { text: 'planning', thought: true, thoughtSignature: 'gemini-sig' },
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'gemini-sig-2' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 3 } } }] },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const messages = lastSent().body.messages as Json[];
    expect(messages).toHaveLength(3);
    const toolUse = messages[1]!.content;
    expect(toolUse).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^[a-zA-Z0-9_-]+$/), name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUse[0].id, content: [{ type: 'text', text: '{"temp":3}' }] }],
    });
    expect(JSON.stringify(lastSent().body)).not.toContain('gemini-sig');
  });

  it('maps max_tokens to MAX_TOKENS', async () => {
    const res = await gemini('claude-max', { contents: [{ parts: [{ text: 'x' }] }] });
    expect(res.body.candidates[0].finishReason).toBe('MAX_TOKENS');
  });

  it('streams as Gemini SSE chunks with the final finishReason and usage', async () => {
    const { status, text } = await postStream(
      '/v1beta/models/claude-echo:streamGenerateContent?alt=sse',
      { 'x-goog-api-key': KEY },
      { contents: [{ parts: [{ text: 'stream gemini' }] }] },
    );
    expect(status).toBe(200);
    const chunks = text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.replace(/^data: /, '')) as Json);
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    expect(parts.map((part: Json) => part.text ?? '').join('')).toBe('upstream says: stream gemini');
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe('STOP');
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ promptTokenCount: 11, candidatesTokenCount: 4 });
    expect(lastSent().body.stream).toBe(true);
  });
});

describe('Anthropic upstream failures, in the caller envelope', () => {
  it('400 keeps the upstream message, without the upstream key', async () => {
    const res = await openai({ model: 'claude-fail-400', messages: user('x') });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('mock failure 400');
    expect(JSON.stringify(res.body)).not.toContain(MOCK_ANTHROPIC_KEY);
  });

  it('401 and 403 from the upstream are 502s about the gateway credentials', async () => {
    for (const model of ['claude-fail-401', 'claude-fail-403', 'claude-keyless']) {
      const res = await anthropic({ model, max_tokens: 10, messages: user('x') });
      expect(res.status).toBe(502);
      expect(res.body.error.type).toBe('api_error');
      expect(res.body.error.message).toMatch(/credentials/);
      expect(JSON.stringify(res.body)).not.toContain(MOCK_ANTHROPIC_KEY);
    }
    expect(lastSent().headers['x-api-key']).toBeUndefined();
  });

  it('404 → 404; 429 → 429 with Retry-After; 529 → overloaded', async () => {
    expect((await openai({ model: 'claude-fail-404', messages: user('x') })).status).toBe(404);
    const limited = await openai({ model: 'claude-fail-429', messages: user('x') });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('0');
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect((await openai({ model: 'claude-fail-529', messages: user('x') })).status).toBe(503);
    const overloaded = await anthropic({ model: 'claude-fail-529', max_tokens: 10, messages: user('x') });
    expect(overloaded.status).toBe(529);
    expect(overloaded.body.error.type).toBe('overloaded_error');
  });

  it('5xx is retried a bounded number of times, then 502', async () => {
    const count = mock.requests.length;
    const res = await openai({ model: 'claude-fail-500', messages: user('x') });
    expect(res.status).toBe(502);
    expect(mock.requests.length - count).toBe(3);
  });

  it('a 500 that clears on retry succeeds', async () => {
    const count = mock.requests.length;
    const res = await openai({ model: 'claude-flaky-500', messages: user('flaky once') });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('upstream says: flaky once');
    expect(mock.requests.length - count).toBe(2);
  });

  it('timeout → 504; garbage → 502; connection reset → 502', async () => {
    const slow = await gemini('claude-slow', { contents: [{ parts: [{ text: 'x' }] }] });
    expect(slow.status).toBe(504);
    expect(slow.body.error.status).toBe('DEADLINE_EXCEEDED');
    expect((await openai({ model: 'claude-garbage', messages: user('x') })).status).toBe(502);
    expect((await openai({ model: 'claude-reset', messages: user('x') })).status).toBe(502);
  });

  it('a stream cut mid-way becomes an in-stream error, and the hold is settled', async () => {
    const { status, text } = await postStream(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'claude-cut', stream: true, messages: user('cut me') },
    );
    expect(status).toBe(200);
    const chunks = openaiChunks(text);
    expect(chunks[1]!.choices[0].delta.content).toBe('upstream');
    expect(chunks.at(-1)!.error.message).toMatch(/ended before it finished/);
    expect(quotaStore.getAccount('caller').reserved).toBe(0);
  });

  it('an upstream error event mid-stream reaches an Anthropic caller as overloaded_error', async () => {
    const { status, text } = await postStream(
      '/v1/messages',
      { 'x-api-key': KEY },
      { model: 'claude-overloaded', max_tokens: 20, stream: true, messages: user('x') },
    );
    expect(status).toBe(200);
    const last = anthropicEvents(text).at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data.error).toMatchObject({ type: 'overloaded_error', message: expect.stringContaining('Overloaded') });
  });

  it('a caller that disconnects aborts the upstream request', async () => {
    const abortedBefore = mock.aborted;
    await new Promise<void>((resolve) => {
      const call = http.request(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      });
      call.on('error', () => undefined);
      call.end(JSON.stringify({ model: 'claude-slow', max_tokens: 10, messages: user('x') }));
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

describe('AnthropicProvider on its own', () => {
  const bare = (extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
    model: 'm',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    ...extra,
  });
  const context = () => ({ upstreamModel: 'echo', signal: new AbortController().signal, requestId: 'req_test' });

  it('sends defaultMaxTokens when the request has no output cap (4096 unless configured)', async () => {
    const plain = new AnthropicProvider({ baseUrl: mock.url, apiKey: MOCK_ANTHROPIC_KEY });
    const configured = new AnthropicProvider({ baseUrl: mock.url, apiKey: MOCK_ANTHROPIC_KEY, defaultMaxTokens: 1234 });
    try {
      await plain.generate(bare(), context());
      expect(lastSent().body.max_tokens).toBe(4096);
      await configured.generate(bare(), context());
      expect(lastSent().body.max_tokens).toBe(1234);
      await configured.generate(bare({ maxOutputTokens: 77 }), context());
      expect(lastSent().body.max_tokens).toBe(77);
    } finally {
      await plain.close();
      await configured.close();
    }
    expect(() => new AnthropicProvider({ defaultMaxTokens: 0 })).toThrow(GatewayConfigError);
  });

  it('merges configured anthropic-beta values with a caller’s own', async () => {
    const provider = new AnthropicProvider({
      baseUrl: mock.url,
      apiKey: MOCK_ANTHROPIC_KEY,
      headers: { 'Anthropic-Beta': 'a-1' },
    });
    try {
      await provider.generate(bare({ extensions: { 'anthropic-messages': { betas: ['b-2', 'a-1'] } } }), context());
      expect(lastSent().headers['anthropic-beta']).toBe('a-1,b-2');
      await provider.generate(bare(), context());
      expect(lastSent().headers['anthropic-beta']).toBe('a-1');
    } finally {
      await provider.close();
    }
  });

  it('replays only signed, Anthropic-minted reasoning as thinking blocks', () => {
    const body = encodeMessagesRequest(
      bare({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'mine', signature: 'sig-a' },
              { type: 'reasoning', text: '', redactedData: 'opaque' },
              { type: 'reasoning', text: 'unsigned' },
              {
                type: 'reasoning',
                text: 'theirs',
                signature: 'sig-g',
                providerMetadata: { gemini: { thoughtSignature: 'x' } },
              },
              { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '[1]' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', content: [], isError: true }] },
        ],
      }),
      'up',
      { stream: false, defaultMaxTokens: 10 },
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'mine', signature: 'sig-a' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true }] },
    ]);
    expect(body).not.toHaveProperty('thinking');
  });

  it('encodes files as documents, tool_choice none, a JSON schema as output_config.format, and refuses files Anthropic cannot read', () => {
    const pdf = encodeMessagesRequest(
      bare({
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'file',
                source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x' },
                filename: 'a.pdf',
              },
              {
                type: 'file',
                source: {
                  kind: 'base64',
                  mediaType: 'text/plain',
                  data: Buffer.from('plain words').toString('base64'),
                },
              },
            ],
          },
        ],
        tools: [{ name: 'f', parameters: {} }],
        toolChoice: { type: 'none' },
        reasoning: { enabled: true, effort: 'high' },
        responseFormat: { type: 'json-schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      }),
      'up',
      { stream: false, defaultMaxTokens: 10 },
    );
    expect((pdf.messages as Json[])[0]!.content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' }, title: 'a.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
    expect(pdf.tools).toEqual([{ name: 'f', input_schema: { type: 'object' } }]);
    expect(pdf.tool_choice).toEqual({ type: 'none' });
    expect(pdf).not.toHaveProperty('thinking');
    expect(pdf.output_config).toEqual({
      format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    expect(() =>
      encodeMessagesRequest(
        bare({
          messages: [
            {
              role: 'user',
              content: [{ type: 'file', source: { kind: 'base64', mediaType: 'application/zip', data: 'UEsD' } }],
            },
          ],
        }),
        'up',
        { stream: false, defaultMaxTokens: 10 },
      ),
    ).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'messages[0].content[0]' }));
  });
});

describe('MessageStreamDecoder without usage figures (an Anthropic-compatible server that sends none)', () => {
  const event = (name: string, data: Record<string, unknown>) => ({
    event: name,
    data: JSON.stringify({ type: name, ...data }),
    id: undefined,
  });

  it('leaves both counts out of its finish for the gateway to count, instead of charging zero', () => {
    const decoder = new MessageStreamDecoder('compat');
    const out: ProviderStreamPart[] = [];
    decoder.accept(event('message_start', { message: { id: 'msg_1', model: 'm', content: [] } }), out);
    decoder.accept(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }), out);
    decoder.accept(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }), out);
    decoder.accept(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' there' } }), out);
    decoder.accept(event('content_block_stop', { index: 0 }), out);
    decoder.accept(event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null } }), out);
    decoder.accept(event('message_stop', {}), out);
    expect(out[0]).toMatchObject({ type: 'response-start', usage: {} });
    expect((out[0] as { usage?: { inputTokens?: number } }).usage?.inputTokens).toBeUndefined();
    expect(out.at(-1)).toEqual({ type: 'finish', usage: {}, finishReason: { unified: 'stop', raw: 'end_turn' } });
    expect(decoder.done).toBe(true);
    // What the gateway's meter makes of it: the request and the text counted with the tokenizer.
    const request: GenerateRequest = {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
    };
    const meter = new StreamMeter(request, 99);
    const relayed = out.map((part) => meter.observe(part));
    expect(relayed[0]).toMatchObject({ type: 'response-start', usage: { inputTokens: 99 } });
    expect(relayed.at(-1)).toEqual({
      type: 'finish',
      usage: { inputTokens: countRequestTokens(request), outputTokens: countTextTokens('Hello there') },
      finishReason: { unified: 'stop', raw: 'end_turn' },
    });
  });

  it('reports the figures it has when only one came: an input count without an output count, and the reverse', () => {
    const stream = (startUsage: Record<string, number>, deltaUsage: Record<string, number>) => {
      const decoder = new MessageStreamDecoder('compat');
      const out: ProviderStreamPart[] = [];
      decoder.accept(
        event('message_start', { message: { id: 'msg_1', model: 'm', content: [], usage: startUsage } }),
        out,
      );
      decoder.accept(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }), out);
      decoder.accept(
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Four words of output' } }),
        out,
      );
      decoder.accept(event('content_block_stop', { index: 0 }), out);
      decoder.accept(event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: deltaUsage }), out);
      decoder.accept(event('message_stop', {}), out);
      const meter = new StreamMeter(request, 99);
      return { finish: out.at(-1), relayed: out.map((part) => meter.observe(part)).at(-1) };
    };
    const request: GenerateRequest = {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say four words.' }] }],
    };
    const inputOnly = stream({ input_tokens: 30, cache_read_input_tokens: 5 }, {});
    expect(inputOnly.finish).toMatchObject({ type: 'finish', usage: { inputTokens: 35, cacheReadTokens: 5 } });
    expect(inputOnly.finish).not.toHaveProperty('usage.outputTokens');
    expect(inputOnly.relayed).toMatchObject({
      usage: { inputTokens: 35, cacheReadTokens: 5, outputTokens: countTextTokens('Four words of output') },
    });
    const outputOnly = stream({}, { output_tokens: 7 });
    expect(outputOnly.finish).toEqual({
      type: 'finish',
      usage: { outputTokens: 7 },
      finishReason: { unified: 'stop', raw: 'end_turn' },
    });
    expect(outputOnly.relayed).toMatchObject({ usage: { inputTokens: countRequestTokens(request), outputTokens: 7 } });
  });

  it('keeps the reported figures when they came', () => {
    const decoder = new MessageStreamDecoder('anthropic');
    const out: ProviderStreamPart[] = [];
    decoder.accept(
      event('message_start', {
        message: { id: 'msg_1', model: 'm', content: [], usage: { input_tokens: 30, output_tokens: 1 } },
      }),
      out,
    );
    decoder.accept(event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }), out);
    decoder.accept(event('message_stop', {}), out);
    expect(out[0]).toMatchObject({ type: 'response-start', usage: { inputTokens: 30 } });
    expect(out.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 30, outputTokens: 7 } });
  });
});

describe("MessageStreamDecoder: a streamed answer's unmodelled message fields", () => {
  const event = (name: string, data: Record<string, unknown>) => ({
    event: name,
    data: JSON.stringify({ type: name, ...data }),
    id: undefined,
  });
  const container = { id: 'container_1', expires_at: '2026-12-07T07:00:00Z' };
  const stopDetails = { type: 'refusal', category: null, explanation: null };
  const contextManagement = { applied_edits: [] };

  function decode(): ProviderStreamPart[] {
    const decoder = new MessageStreamDecoder('anthropic');
    const out: ProviderStreamPart[] = [];
    decoder.accept(
      event('message_start', {
        message: {
          id: 'msg_1',
          model: 'm',
          content: [],
          stop_reason: null,
          container,
          stop_details: null,
          usage: { input_tokens: 30, output_tokens: 1, service_tier: 'standard', server_tool_use: null },
        },
      }),
      out,
    );
    decoder.accept(event('content_block_start', { index: 0, content_block: { type: 'text', text: 'No.' } }), out);
    decoder.accept(event('content_block_stop', { index: 0 }), out);
    decoder.accept(
      event('message_delta', {
        delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: stopDetails, container: null },
        context_management: contextManagement,
        usage: { output_tokens: 3, server_tool_use: { web_search_requests: 2 }, service_tier: null },
      }),
      out,
    );
    decoder.accept(event('message_stop', {}), out);
    return out;
  }

  it("puts message_start's on response-start, and on finish the answer's with message_delta's as it stood", () => {
    const out = decode();
    expect(out[0]).toMatchObject({
      type: 'response-start',
      extensions: {
        'anthropic-messages': {
          fields: { container, stop_details: null },
          usage: { service_tier: 'standard', server_tool_use: null },
        },
      },
    });
    expect((out.at(-1) as { extensions?: unknown }).extensions).toEqual({
      'anthropic-messages': {
        // A null in message_delta leaves message_start's value (as the SDKs accumulate).
        fields: { container, stop_details: stopDetails, context_management: contextManagement },
        usage: { service_tier: 'standard', server_tool_use: { web_search_requests: 2 } },
        messageDelta: {
          delta: { stop_details: stopDetails, container: null },
          fields: { context_management: contextManagement },
          usage: { server_tool_use: { web_search_requests: 2 }, service_tier: null },
        },
      },
    });
  });

  it('leaves them on the collected answer, for a non-streamed Anthropic caller', async () => {
    async function* parts() {
      yield* decode();
    }
    const body = encodeMessagesResponse((await collectParts(parts())) as GenerateResponse);
    expect(body).toMatchObject({
      stop_reason: 'refusal',
      container,
      stop_details: stopDetails,
      context_management: contextManagement,
      usage: {
        input_tokens: 30,
        output_tokens: 3,
        service_tier: 'standard',
        server_tool_use: { web_search_requests: 2 },
      },
    });
  });
});
