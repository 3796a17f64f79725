/**
 * Claude Code end to end: its recorded-shape traffic (fixtures/claude-code) driven through the
 * Anthropic SDK's beta stream, as Claude Code 2.1.x sends it, to an OpenAI-compatible upstream, a
 * Gemini upstream and an Anthropic upstream.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GeminiProvider, MemoryKeyStore, MemoryQuotaStore, type ModelConfig } from '../../lib';
import { AnthropicProvider } from '../../lib/providers/anthropic';
import { OpenAIProvider } from '../../lib/providers/openai';
import { type Json, serveGateway, type RunningGateway } from '../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic';
import { startMockGemini, type MockGemini } from '../helpers/mock-gemini';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-claude-code-token-0001';
const GEMINI_KEY = 'gemini-upstream-key-0001';

function fixture(name: string): Json {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
}

const HEADERS = fixture('headers.json');
const TURN_1 = fixture('messages-turn-1.json');
const TURN_2 = fixture('messages-turn-2.json');
const COUNT = fixture('count-tokens.json');
const TOOL_NAMES: string[] = TURN_1.tools.map((tool: Json) => tool.name);
const SYSTEM_ROLE_TEXT: string = TURN_1.messages[1].content;

let openaiMock: MockOpenAI;
let geminiMock: MockGemini;
let anthropicMock: MockAnthropic;
let server: RunningGateway;

const models: ModelConfig[] = [
  { id: 'cc-openai', provider: 'openai', upstreamModel: 'text-tools' },
  { id: 'cc-openai-overloaded', provider: 'openai', upstreamModel: 'stream-error-529' },
  { id: 'cc-openai-rate-limited', provider: 'openai', upstreamModel: 'rate-limited' },
  { id: 'cc-gemini', provider: 'gemini', upstreamModel: 'tools' },
  { id: 'cc-gemini-overloaded', provider: 'gemini', upstreamModel: 'stream-error' },
  { id: 'cc-anthropic', provider: 'anthropic', upstreamModel: 'thinking-tools' },
];

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  geminiMock = await startMockGemini({ apiKey: GEMINI_KEY });
  anthropicMock = await startMockAnthropic();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'claude-code' }]),
    quotaStore: new MemoryQuotaStore({ balances: { 'claude-code': 100_000_000 } }),
    providers: [
      new OpenAIProvider({
        baseUrl: openaiMock.url,
        apiKey: 'sk-upstream-openai-0001',
        reasoningModels: () => true,
        retries: { baseDelayMs: 1 },
      }),
      new GeminiProvider({ baseUrl: geminiMock.url, apiKey: GEMINI_KEY, retries: { baseDelayMs: 1 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([openaiMock.close(), geminiMock.close(), anthropicMock.close()]);
});

/** What one SDK call sent and got back on the wire. */
interface Wire {
  url: string;
  status: number;
  raw: string;
  /** Resolves once `raw` holds the whole body. */
  read: Promise<void>;
}

/**
 * An Anthropic client configured as Claude Code configures it (ANTHROPIC_AUTH_TOKEN, its headers), recording the raw
 * responses.
 */
function claudeCode(wire: Wire[]): Anthropic {
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const copy = response.clone();
    const entry: Wire = { url: response.url, status: response.status, raw: '', read: Promise.resolve() };
    entry.read = copy.text().then(
      (text) => {
        entry.raw = text;
      },
      () => undefined,
    );
    wire.push(entry);
    return response;
  };
  return new Anthropic({
    authToken: KEY,
    apiKey: null,
    baseURL: server.url,
    maxRetries: 0,
    fetch: recordingFetch as typeof fetch,
    defaultHeaders: {
      'anthropic-version': HEADERS['anthropic-version'],
      'user-agent': HEADERS['user-agent'],
      'x-app': HEADERS['x-app'],
      'x-claude-code-session-id': HEADERS['x-claude-code-session-id'],
      'anthropic-dangerous-direct-browser-access': HEADERS['anthropic-dangerous-direct-browser-access'],
    },
  });
}

/** Claude Code's bundled SDK puts `?beta=true` on every beta call (the current SDK no longer does). */
const BETA_QUERY = { query: { beta: 'true' } };

/**
 * One Claude Code turn through `beta.messages.stream`: the SDK's accumulated message and the raw SSE the gateway sent.
 */
async function turn(body: Json, model: string): Promise<{ message: Anthropic.Beta.BetaMessage; wire: Wire }> {
  const wire: Wire[] = [];
  const { stream: _stream, ...params } = body;
  const stream = claudeCode(wire).beta.messages.stream(
    {
      ...params,
      model,
      betas: HEADERS['anthropic-beta'],
    } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming,
    BETA_QUERY,
  );
  const message = await stream.finalMessage();
  await wire[0]!.read;
  return { message, wire: wire[0]! };
}

/** The events of a raw Anthropic stream, each checked to carry `event: <type>` and one data line. */
function events(raw: string): Json[] {
  expect(raw.endsWith('\n\n')).toBe(true);
  return raw
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n');
      expect(lines).toHaveLength(2);
      const data = JSON.parse(lines[1]!.replace(/^data: /, '')) as Json;
      expect(lines[0]).toBe(`event: ${data.type}`);
      return data;
    });
}

/**
 * Checks the promises the SDK accumulator relies on: order, contiguous indices, blocks that never overlap, usage on
 * message_delta.
 */
function expectWellFormed(raw: string): Json[] {
  const all = events(raw).filter((event) => event.type !== 'ping');
  expect(all[0]!.type).toBe('message_start');
  expect(all.at(-1)!.type).toBe('message_stop');
  let open: number | undefined;
  let next = 0;
  for (const event of all.slice(1, -1)) {
    switch (event.type) {
      case 'content_block_start':
        expect(open).toBeUndefined();
        expect(event.index).toBe(next);
        open = next++;
        break;
      case 'content_block_delta':
        expect(event.index).toBe(open);
        break;
      case 'content_block_stop':
        expect(event.index).toBe(open);
        open = undefined;
        break;
      case 'message_delta':
        expect(open).toBeUndefined();
        expect(typeof event.usage.output_tokens).toBe('number');
        break;
      default:
        throw new Error(`unexpected event ${event.type}`);
    }
  }
  expect(all.filter((event) => event.type === 'message_delta')).toHaveLength(1);
  return all;
}

/** Tool uses of a message with their inputs, which must be objects. */
function toolUses(message: Anthropic.Beta.BetaMessage): Array<{ id: string; name: string; input: unknown }> {
  const uses = message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
  );
  for (const use of uses)
    expect(typeof use.input === 'object' && use.input !== null && !Array.isArray(use.input)).toBe(true);
  return uses;
}

/** The assistant turn Claude Code keeps from a message and the tool results it answers with. */
function nextTurn(message: Anthropic.Beta.BetaMessage, model: string): Json {
  const results = toolUses(message).map((use) => ({
    type: 'tool_result',
    tool_use_id: use.id,
    content: `result of ${use.name}`,
  }));
  return {
    ...TURN_1,
    model,
    messages: [...TURN_1.messages, { role: 'assistant', content: message.content }, { role: 'user', content: results }],
  };
}

/** Anthropic-only fields and markers that must never reach another vendor. */
function expectNoAnthropicFields(body: Json): void {
  const text = JSON.stringify(body);
  for (const marker of [
    'cache_control',
    'defer_loading',
    'context_management',
    'clear_thinking',
    'output_config',
    '"thinking"',
    'EqQB',
    'anthropic-beta',
  ])
    expect(text).not.toContain(marker);
}

describe('Claude Code → an OpenAI-compatible upstream', () => {
  it('turn 1: the SDK stream accumulates text, reasoning and parallel tool calls; the upstream got a valid chat request', async () => {
    const { message, wire } = await turn(TURN_1, 'cc-openai');
    expect(wire.url).toMatch(/\/v1\/messages\?beta=true$/);
    expect(wire.status).toBe(200);
    const all = expectWellFormed(wire.raw);
    expect(all.find((event) => event.type === 'message_delta')!.delta.stop_reason).toBe('tool_use');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Let me check.' });
    expect(toolUses(message)).toEqual([
      // The first call's id also carries which field the upstream answered its reasoning in (`reasoning`), so the
      // next turn sends it back that way on any host.
      { id: expect.stringMatching(/^call_w1__rfdsig/), name: 'get_weather', input: { city: 'Oslo', unit: 'C' } },
      { id: 'call_t2', name: 'get_time', input: { zone: 'CET' } },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 9,
      cache_read_input_tokens: 2,
      output_tokens_details: { thinking_tokens: 7 },
    });
    expect(message.usage.output_tokens).toBeGreaterThan(7);

    const sent = openaiMock.requests.at(-1)!;
    expect(sent.headers['anthropic-beta']).toBeUndefined();
    const body = sent.body as Json;
    expect(body).toMatchObject({
      model: 'text-tools',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 32000,
      reasoning_effort: 'high',
    });
    expect(body.user).toBe(createHash('sha256').update(TURN_1.metadata.user_id).digest('hex'));
    expectNoAnthropicFields(body);
    const systems = (body.messages as Json[]).filter((entry) => entry.role === 'system');
    expect(systems).toHaveLength(1);
    expect(body.messages[0].role).toBe('system');
    expect(systems[0]!.content).toContain("You are Claude Code, Anthropic's official CLI for Claude.");
    expect(systems[0]!.content).toContain(SYSTEM_ROLE_TEXT);
    expect(body.messages).toHaveLength(2);
    expect(body.messages[1].content).toContain('Use the tools, both at once.');
    expect(body.tools.map((tool: Json) => tool.function.name)).toEqual(TOOL_NAMES);
    expect(
      body.tools.every((tool: Json) => tool.type === 'function' && tool.function.parameters.type === 'object'),
    ).toBe(true);
    expect(body.tools[1].function.parameters).toEqual(TURN_1.tools[1].input_schema);
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('turn 2: the tool calls and their results are paired, Anthropic thinking is not sent, no empty text', async () => {
    const { message, wire } = await turn(TURN_2, 'cc-openai');
    expectWellFormed(wire.raw);
    expect(toolUses(message)).toHaveLength(2);
    const body = openaiMock.requests.at(-1)!.body as Json;
    expectNoAnthropicFields(body);
    const messages = body.messages as Json[];
    expect(messages.map((entry) => entry.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me check both.',
      tool_calls: [
        {
          id: 'toolu_01WeatherOslo4xZ',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo","unit":"C"}' },
        },
        { id: 'toolu_01TimeCET9qR', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
      ],
    });
    expect(messages.slice(3, 5)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_01WeatherOslo4xZ', content: '3°C, light snow' },
      { role: 'tool', tool_call_id: 'toolu_01TimeCET9qR', content: '14:05 CET' },
    ]);
    expect(messages[5]!.content).toContain('The TodoWrite tool');
    for (const entry of messages) {
      if (typeof entry.content === 'string') expect(entry.content.trim().length).toBeGreaterThan(0);
      else if (entry.content !== null) expect(Array.isArray(entry.content) && entry.content.length > 0).toBe(true);
    }
  });

  it('count_tokens?beta=true answers a real, non-zero count', async () => {
    const wire: Wire[] = [];
    const counted = await claudeCode(wire).beta.messages.countTokens(
      {
        ...COUNT,
        model: 'cc-openai',
        betas: HEADERS['anthropic-beta'],
      } as unknown as Anthropic.Beta.Messages.MessageCountTokensParams,
      BETA_QUERY,
    );
    expect(wire[0]!.url).toMatch(/\/v1\/messages\/count_tokens\?beta=true$/);
    expect(counted.input_tokens).toBeGreaterThan(1000);
    const smaller = await claudeCode([]).beta.messages.countTokens({
      model: 'cc-openai',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(smaller.input_tokens).toBeGreaterThan(0);
    expect(smaller.input_tokens).toBeLessThan(counted.input_tokens);
  });

  it('an upstream overload mid-stream arrives as event: error, which the SDK raises as overloaded_error', async () => {
    const wire: Wire[] = [];
    const { stream: _stream, ...params } = TURN_1;
    const failing = claudeCode(wire).beta.messages.stream(
      {
        ...params,
        model: 'cc-openai-overloaded',
        betas: HEADERS['anthropic-beta'],
      } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming,
      BETA_QUERY,
    );
    const error = await failing.finalMessage().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect(wire[0]!.status).toBe(200);
  });

  it('a 429 before the stream is a 429 rate_limit_error with Retry-After', async () => {
    const { stream: _stream, ...params } = TURN_1;
    const error = await claudeCode([])
      .beta.messages.stream(
        {
          ...params,
          model: 'cc-openai-rate-limited',
          betas: HEADERS['anthropic-beta'],
        } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming,
        BETA_QUERY,
      )
      .finalMessage()
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const rateLimited = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.type).toBe('rate_limit_error');
    expect(rateLimited.headers?.get('retry-after')).toBe('30');
  });
});

describe('Claude Code → a Gemini upstream', () => {
  it('turn 1: the SDK stream accumulates parallel function calls; the upstream got a valid generateContent request', async () => {
    const { message, wire } = await turn(TURN_1, 'cc-gemini');
    expectWellFormed(wire.raw);
    expect(message.stop_reason).toBe('tool_use');
    expect(toolUses(message).map(({ name, input }) => ({ name, input }))).toEqual([
      { name: 'get_weather', input: { city: 'Oslo' } },
      { name: 'get_time', input: { zone: 'CET' } },
    ]);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const sent = geminiMock.requests.at(-1)!;
    expect(sent.action).toBe('streamGenerateContent');
    const body = sent.body as Json;
    expectNoAnthropicFields(body);
    expect(body.contents.map((content: Json) => content.role)).toEqual(['user']);
    const system = (body.systemInstruction.parts as Json[]).map((part) => part.text).join('\n');
    expect(system).toContain(SYSTEM_ROLE_TEXT);
    expect(body.tools[0].functionDeclarations.map((declaration: Json) => declaration.name)).toEqual(TOOL_NAMES);
    expect(body.generationConfig.maxOutputTokens).toBe(32000);
  });

  it('turn 2 (with the ids Gemini’s answer got): each function call is answered by name, no Anthropic signature is sent', async () => {
    const first = await turn(TURN_1, 'cc-gemini');
    const { message, wire } = await turn(nextTurn(first.message, 'cc-gemini'), 'cc-gemini');
    expectWellFormed(wire.raw);
    expect(toolUses(message)).toHaveLength(2);
    const body = geminiMock.requests.at(-1)!.body as Json;
    expectNoAnthropicFields(body);
    const contents = body.contents as Json[];
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]!.parts.map((part: Json) => part.functionCall?.name)).toEqual(['get_weather', 'get_time']);
    expect(contents[2]!.parts.map((part: Json) => part.functionResponse?.name)).toEqual(['get_weather', 'get_time']);
    for (const content of contents)
      for (const part of content.parts as Json[]) if ('text' in part) expect(part.text.length).toBeGreaterThan(0);
  });

  it('the recorded turn 2 (Anthropic ids and a signed thinking block) is accepted too', async () => {
    const { message } = await turn(TURN_2, 'cc-gemini');
    expect(message.stop_reason).toBe('tool_use');
    const contents = (geminiMock.requests.at(-1)!.body as Json).contents as Json[];
    expect(contents[2]!.parts.map((part: Json) => part.functionResponse?.response)).toEqual([
      { output: '3°C, light snow' },
      { output: '14:05 CET' },
    ]);
    expect(JSON.stringify(contents)).not.toContain('thoughtSignature');
  });

  it('count_tokens answers a real, non-zero count', async () => {
    const counted = await claudeCode([]).beta.messages.countTokens(
      {
        ...COUNT,
        model: 'cc-gemini',
        betas: HEADERS['anthropic-beta'],
      } as unknown as Anthropic.Beta.Messages.MessageCountTokensParams,
      BETA_QUERY,
    );
    expect(counted.input_tokens).toBeGreaterThan(1000);
  });

  it('a Gemini 503 mid-stream arrives as an overloaded_error the SDK raises', async () => {
    const { stream: _stream, ...params } = TURN_1;
    const error = await claudeCode([])
      .beta.messages.stream(
        {
          ...params,
          model: 'cc-gemini-overloaded',
          betas: HEADERS['anthropic-beta'],
        } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming,
        BETA_QUERY,
      )
      .finalMessage()
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });
});

describe('Claude Code → an Anthropic upstream (same protocol)', () => {
  it('turn 1: the body, the betas and ?beta=true pass through unchanged; thinking and tool uses come back', async () => {
    const { message, wire } = await turn(TURN_1, 'cc-anthropic');
    expectWellFormed(wire.raw);
    const sent = anthropicMock.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages?beta=true');
    expect(sent.body).toEqual({ ...TURN_1, model: 'thinking-tools' });
    expect(sent.headers['anthropic-beta']).toBe(HEADERS['anthropic-beta'].join(','));
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['x-api-key']).toBe(MOCK_ANTHROPIC_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(message.content[0]).toMatchObject({ type: 'thinking', signature: 'EqQBsig-from-anthropic' });
    expect(toolUses(message).map((use) => use.input)).toEqual([{ city: 'Oslo' }, { zone: 'CET' }]);
    expect(message.usage).toMatchObject({
      input_tokens: 6,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 2,
      output_tokens_details: { thinking_tokens: 5 },
    });
  });

  it('turn 2: the signed thinking block is replayed before its tool_use, unchanged', async () => {
    const { message } = await turn(TURN_2, 'cc-anthropic');
    expect(message.stop_reason).toBe('tool_use');
    expect(anthropicMock.requests.at(-1)!.body).toEqual({ ...TURN_2, model: 'thinking-tools' });
  });

  it('a conversation another vendor answered so far: its unsigned thinking is dropped and thinking paused for that tool loop', async () => {
    const fromOpenAI = await turn(TURN_1, 'cc-openai');
    // Not Anthropic's signature: the OpenAI-compatible reasoning field carried for that upstream, never sent to Anthropic.
    expect(fromOpenAI.message.content[0]).toMatchObject({
      type: 'thinking',
      signature: 'openai-compatible:reasoning openai',
    });
    const { message } = await turn(nextTurn(fromOpenAI.message, 'cc-anthropic'), 'cc-anthropic');
    expect(message.stop_reason).toBe('tool_use');
    const body = anthropicMock.requests.at(-1)!.body as Json;
    const assistant = (body.messages as Json[]).at(-2)!;
    expect(assistant.content.map((block: Json) => block.type)).toEqual(['text', 'tool_use', 'tool_use']);
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('context_management');
    expect(body.output_config).toEqual(TURN_1.output_config);
  });

  it('count_tokens answers a real, non-zero count', async () => {
    const counted = await claudeCode([]).beta.messages.countTokens(
      {
        ...COUNT,
        model: 'cc-anthropic',
        betas: HEADERS['anthropic-beta'],
      } as unknown as Anthropic.Beta.Messages.MessageCountTokensParams,
      BETA_QUERY,
    );
    expect(counted.input_tokens).toBeGreaterThan(1000);
  });
});
