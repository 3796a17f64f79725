/**
 * The `openai` SDK driving POST /v1/responses through the gateway: the local model, a chat-completions upstream and an
 * Anthropic upstream.
 */
import OpenAI from 'openai';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, type ModelConfig } from '../../../lib';
import { AnthropicProvider } from '../../../lib/providers/anthropic';
import { OpenAIProvider } from '../../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../../helpers/mock-anthropic';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';

const KEY = 'sk-responses-key-0123456789';
const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: false,
  },
  {
    type: 'function',
    name: 'get_time',
    description: 'Time',
    parameters: { type: 'object', properties: { zone: { type: 'string' } } },
    strict: false,
  },
  { type: 'web_search' },
];

const models: ModelConfig[] = [
  { id: 'rosetta-echo', provider: 'local' },
  { id: 'up-echo', provider: 'openai', upstreamModel: 'echo' },
  { id: 'up-tools', provider: 'openai', upstreamModel: 'tools' },
  { id: 'up-claude', provider: 'anthropic', upstreamModel: 'thinking-tools' },
];

let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  anthropicMock = await startMockAnthropic();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'codex' }]),
    quotaStore: new MemoryQuotaStore({ balances: { codex: 100_000_000 } }),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { baseDelayMs: 1 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
    ],
    models,
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
  await Promise.all([openaiMock.close(), anthropicMock.close()]);
});

describe('openai SDK: responses.create', () => {
  it('answers from the local model', async () => {
    const response = await client.responses.create({
      model: 'rosetta-echo',
      input: 'Hello there',
      instructions: 'Echo.',
    });
    expect(response.object).toBe('response');
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Hello there');
    expect(response.instructions).toBe('Echo.');
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
  });

  it('a function-calling round trip through a chat-completions upstream', async () => {
    const first = await client.responses.create({
      model: 'up-tools',
      input: 'Weather and time in Oslo?',
      tools: TOOLS,
    });
    const calls = first.output.filter(
      (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
    );
    expect(calls.map((call) => [call.name, call.call_id, call.arguments])).toEqual([
      ['get_weather', 'call_a', '{"city":"Oslo"}'],
      ['get_time', 'call_b', '{"zone":"CET"}'],
    ]);
    expect(first.tools).toEqual(TOOLS.map((tool) => expect.objectContaining({ type: tool.type })));
    const upstreamFirst = openaiMock.requests[openaiMock.requests.length - 1]!.body;
    expect((upstreamFirst.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual([
      'get_weather',
      'get_time',
    ]);

    await client.responses.create({
      model: 'up-echo',
      tools: TOOLS,
      input: [
        { role: 'user', content: 'Weather and time in Oslo?' },
        ...first.output,
        { type: 'function_call_output', call_id: 'call_a', output: 'Sunny, 20 C' },
        { type: 'function_call_output', call_id: 'call_b', output: '12:00' },
      ] as OpenAI.Responses.ResponseInput,
    });
    const messages = openaiMock.requests[openaiMock.requests.length - 1]!.body.messages as Array<Record<string, any>>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(messages[1]!.tool_calls.map((call: any) => call.id)).toEqual(['call_a', 'call_b']);
    expect(messages[2]).toMatchObject({ tool_call_id: 'call_a', content: 'Sunny, 20 C' });
  });

  it('structured output: text.format json_schema reaches the upstream as response_format', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    const response = await client.responses.create({
      model: 'up-echo',
      input: 'x',
      text: { format: { type: 'json_schema', name: 'out', schema, strict: true } },
    });
    expect(response.text?.format).toEqual({ type: 'json_schema', name: 'out', schema, strict: true });
    expect(openaiMock.requests[openaiMock.requests.length - 1]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema, strict: true },
    });
  });

  it('errors in the OpenAI envelope: a bad key 401, a bad field 400, previous_response_id 400', async () => {
    const bad = new OpenAI({ apiKey: 'sk-wrong-key-000000', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(bad.responses.create({ model: 'rosetta-echo', input: 'x' })).rejects.toMatchObject({ status: 401 });
    await expect(client.responses.create({ model: 'rosetta-echo', input: 'x', temperature: 9 })).rejects.toMatchObject({
      status: 400,
      param: 'temperature',
    });
    await expect(
      client.responses.create({ model: 'rosetta-echo', input: 'x', previous_response_id: 'resp_1' }),
    ).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
    const raw = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'rosetta-echo',
        input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }],
      }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: {
        message: expect.stringContaining('file ids'),
        type: 'invalid_request_error',
        param: 'input[0].content[0].file_id',
        code: null,
      },
    });
  });

  it('input_tokens counts the input', async () => {
    const counted = await client.responses.inputTokens.count({ model: 'rosetta-echo', input: 'Hello there' });
    expect(counted.object).toBe('response.input_tokens');
    expect(counted.input_tokens).toBeGreaterThan(0);
  });
});

describe('openai SDK: responses.stream', () => {
  it('text from the local model: events and finalResponse', async () => {
    const stream = client.responses.stream({ model: 'rosetta-echo', input: 'one two three' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('one two three');
    expect(deltas.join('')).toBe('one two three');
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  it('function calls from a chat-completions upstream', async () => {
    const stream = client.responses.stream({ model: 'up-tools', input: 'Weather?', tools: TOOLS });
    const argumentDeltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta));
    const final = await stream.finalResponse();
    const calls = (final.output as OpenAI.Responses.ResponseOutputItem[]).filter(
      (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
    );
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['get_weather', '{"city":"Oslo"}'],
      ['get_time', '{"zone":"CET"}'],
    ]);
    expect(argumentDeltas.join('')).toBe('{"city":"Oslo"}{"zone":"CET"}');
  });
});

describe('a reasoning signature round trip through an Anthropic upstream', () => {
  it.each([false, true])(
    'stream %s: the thinking signature goes out in encrypted_content and comes back to Anthropic as the thinking block signature',
    async (stream) => {
      const params = {
        model: 'up-claude',
        input: 'Weather and time in Oslo?',
        tools: TOOLS,
        reasoning: { effort: 'low' as const, summary: 'auto' as const },
        include: ['reasoning.encrypted_content' as const],
        store: false,
      };
      const first: OpenAI.Responses.Response = stream
        ? await client.responses.stream(params).finalResponse()
        : await client.responses.create(params);
      const reasoning = first.output.find(
        (item): item is OpenAI.Responses.ResponseReasoningItem => item.type === 'reasoning',
      );
      expect(reasoning?.encrypted_content).toEqual(expect.any(String));
      expect(reasoning?.encrypted_content).toContain('EqQBsig-from-anthropic');
      expect(reasoning?.summary[0]?.text).toBe('Let me think about it.');
      const calls = first.output.filter(
        (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
      );
      expect(calls.map((call) => call.name)).toEqual(['get_weather', 'get_time']);

      const before = anthropicMock.requests.length;
      await client.responses.create({
        ...params,
        input: [
          { role: 'user', content: 'Weather and time in Oslo?' },
          ...first.output,
          ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: 'ok' })),
        ] as OpenAI.Responses.ResponseInput,
      });
      expect(anthropicMock.requests.length).toBe(before + 1);
      const turns = anthropicMock.requests[before]!.body.messages as Array<{
        role: string;
        content: Array<Record<string, unknown>>;
      }>;
      const assistant = turns.find((turn) => turn.role === 'assistant')!;
      expect(assistant.content[0]).toEqual({
        type: 'thinking',
        thinking: 'Let me think about it.',
        signature: 'EqQBsig-from-anthropic',
      });
      expect(assistant.content.filter((block) => block.type === 'tool_use').map((block) => block.id)).toEqual(
        calls.map((call) => call.call_id),
      );
    },
  );
});
