/**
 * The local model `rosetta-echo` and tools, through each protocol's official SDK: a forced tool
 * choice or a prompt naming a tool gives a tool call with schema-valid arguments (streamed as
 * fragments), a tool result gives text quoting it, `none` gives text; and the echo leaves out
 * framework-injected `<system-reminder>` and `<environment_context>` text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, FunctionCallingConfigMode } from '@google/genai';
import OpenAI from 'openai';
import { countTextTokens } from '../../../lib/extend';
import { serveGateway, TEST_KEY, testOptions, type Json, type RunningGateway } from '../../helpers/app';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

/** A weather tool whose schema needs a string, an enum, an integer range, a nested object and an array. */
const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    where: {
      type: 'object',
      properties: { lat: { type: 'number' }, lon: { type: 'number' } },
      required: ['lat', 'lon'],
    },
    fields: { type: 'array', items: { type: 'string', enum: ['temp', 'wind'] }, minItems: 1 },
    verbose: { type: 'boolean' },
  },
  required: ['city', 'unit', 'days', 'where', 'fields'],
  additionalProperties: false,
};
const READ_SCHEMA = {
  type: 'object',
  properties: { file_path: { type: 'string' }, limit: { type: 'integer' } },
  required: ['file_path'],
  additionalProperties: false,
};
const validWeather = ajv.compile(WEATHER_SCHEMA);
const validRead = ajv.compile(READ_SCHEMA);

let server: RunningGateway;
beforeAll(async () => {
  server = await serveGateway(testOptions());
});
afterAll(() => server.close());

describe('OpenAI chat completions', () => {
  const client = () => new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } },
    { type: 'function', function: { name: 'read_file', parameters: READ_SCHEMA } },
  ];

  it('tool_choice "required": a tool call with schema-valid arguments, finish_reason tool_calls, usage counted', async () => {
    const completion = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [{ role: 'user', content: 'Oslo' }],
      tools,
      tool_choice: 'required',
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call.function.name).toBe('get_weather');
    const args = JSON.parse(call.function.arguments);
    expect(validWeather(args)).toBe(true);
    expect(args).toMatchObject({ city: 'Oslo', unit: 'celsius', days: 1, fields: ['temp'] });
    expect(completion.usage!.completion_tokens).toBe(
      countTextTokens('get_weather') + countTextTokens(call.function.arguments),
    );
  });

  it('streamed: the arguments arrive in several fragments that join to the same call', async () => {
    const stream = await client().chat.completions.create({
      model: 'rosetta-echo',
      stream: true,
      messages: [{ role: 'user', content: 'Oslo' }],
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    const fragments: string[] = [];
    let name: string | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      for (const call of delta?.tool_calls ?? []) {
        name ??= call.function?.name;
        if (call.function?.arguments) fragments.push(call.function.arguments);
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('get_weather');
    expect(fragments.length).toBeGreaterThan(3);
    expect(validWeather(JSON.parse(fragments.join('')))).toBe(true);
    expect(finish).toBe('tool_calls');
  });

  it('a prompt naming a tool calls it (auto): "call NAME {json}" takes the JSON, "read_file /path" takes the path', async () => {
    const byJson = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [
        {
          role: 'user',
          content:
            'call get_weather {"city":"Paris","unit":"fahrenheit","days":3,"where":{"lat":48.9,"lon":2.35},"fields":["wind"]}',
        },
      ],
      tools,
    });
    const jsonCall = byJson.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(JSON.parse(jsonCall.function.arguments)).toEqual({
      city: 'Paris',
      unit: 'fahrenheit',
      days: 3,
      where: { lat: 48.9, lon: 2.35 },
      fields: ['wind'],
    });
    const byPath = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [{ role: 'user', content: 'read_file the notes in "/srv/data/notes.md".' }],
      tools,
    });
    const pathCall = byPath.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(pathCall.function.name).toBe('read_file');
    expect(JSON.parse(pathCall.function.arguments)).toEqual({ file_path: '/srv/data/notes.md' });
    expect(byPath.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('after a tool result: text quoting it; tool_choice "none" and prompts naming no tool: the echo', async () => {
    const afterResult = await client().chat.completions.create({
      model: 'rosetta-echo',
      tools,
      messages: [
        { role: 'user', content: 'read_file /srv/a.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"file_path":"/srv/a.txt"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'the contents: 42' },
      ],
    });
    expect(afterResult.choices[0]!.message.content).toBe('Tool read_file returned: the contents: 42');
    expect(afterResult.choices[0]!.finish_reason).toBe('stop');
    const long = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_2', content: 'y'.repeat(600) },
      ],
    });
    expect(long.choices[0]!.message.content).toBe(`Tool read_file returned: ${'y'.repeat(500)}…`);
    const none = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [{ role: 'user', content: 'call get_weather' }],
      tools,
      tool_choice: 'none',
    });
    expect(none.choices[0]!.message).toMatchObject({ content: 'call get_weather' });
    expect(none.choices[0]!.message.tool_calls ?? []).toEqual([]);
    const plain = await client().chat.completions.create({
      model: 'rosetta-echo',
      messages: [{ role: 'user', content: 'What is the weather? read_file' }],
      tools,
    });
    expect(plain.choices[0]!.message.content).toBe('What is the weather? read_file');
  });

  it('a call the output cap cuts ends with finish_reason length', async () => {
    const completion = await client().chat.completions.create({
      model: 'rosetta-echo',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'Oslo' }],
      tools,
      tool_choice: 'required',
    });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage!.completion_tokens).toBe(8);
  });
});

describe('Anthropic messages', () => {
  const client = () => new Anthropic({ apiKey: TEST_KEY, baseURL: server.url, maxRetries: 0 });
  const tools: Anthropic.Tool[] = [
    { name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema },
    { name: 'Read', input_schema: READ_SCHEMA as Anthropic.Tool.InputSchema },
  ];

  it('tool_choice any and tool: a tool_use block with schema-valid input, stop_reason tool_use', async () => {
    const any = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Bergen' }],
      tools,
      tool_choice: { type: 'any' },
    });
    expect(any.stop_reason).toBe('tool_use');
    expect(any.content).toHaveLength(1);
    const block = any.content[0] as Anthropic.ToolUseBlock;
    expect(block).toMatchObject({ type: 'tool_use', name: 'get_weather' });
    expect(validWeather(block.input)).toBe(true);
    const named = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Show me ./src/index.ts please' }],
      tools,
      tool_choice: { type: 'tool', name: 'Read' },
    });
    expect(named.content[0]).toMatchObject({ type: 'tool_use', name: 'Read', input: { file_path: './src/index.ts' } });
    expect(named.stop_reason).toBe('tool_use');
  });

  it('streamed: input_json_delta fragments, and the SDK assembles schema-valid input', async () => {
    const stream = client().messages.stream({
      model: 'rosetta-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Bergen' }],
      tools,
      tool_choice: { type: 'any' },
    });
    const fragments: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
        fragments.push(event.delta.partial_json);
    });
    const message = await stream.finalMessage();
    expect(fragments.length).toBeGreaterThan(3);
    expect(message.stop_reason).toBe('tool_use');
    const block = message.content[0] as Anthropic.ToolUseBlock;
    expect(block.input).toEqual(JSON.parse(fragments.join('')));
    expect(validWeather(block.input)).toBe(true);
  });

  it('"Read the file PATH" (auto) calls Read with that path; the tool_result turn gets text quoting the result', async () => {
    const first = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Read the file /tmp/x/token.txt' }],
      tools,
    });
    const call = first.content[0] as Anthropic.ToolUseBlock;
    expect(call).toMatchObject({ type: 'tool_use', name: 'Read', input: { file_path: '/tmp/x/token.txt' } });
    expect(validRead(call.input)).toBe(true);
    const second = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 1024,
      tools,
      messages: [
        { role: 'user', content: 'Read the file /tmp/x/token.txt' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: call.id, content: '1\ttoken-93f2' },
            { type: 'text', text: '<system-reminder>\nInjected.\n</system-reminder>' },
          ],
        },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Tool Read returned: 1\ttoken-93f2', citations: [] }]);
    expect(second.stop_reason).toBe('end_turn');
  });

  it('tool_choice none: text', async () => {
    const message = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Read the file /tmp/a' }],
      tools,
      tool_choice: { type: 'none' },
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Read the file /tmp/a', citations: [] }]);
  });
});

describe('Gemini generateContent', () => {
  const passthroughFetch = (...args: Parameters<typeof fetch>) => fetch(...args);
  const client = () =>
    new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: { baseUrl: server.url, fetch: passthroughFetch } });
  const geminiWeather = { name: 'get_weather', parametersJsonSchema: WEATHER_SCHEMA };
  const geminiRead = {
    name: 'read_file',
    parameters: { type: 'OBJECT', properties: { file_path: { type: 'STRING' } }, required: ['file_path'] },
  };
  const config = (mode: FunctionCallingConfigMode) =>
    ({
      tools: [{ functionDeclarations: [geminiWeather, geminiRead] }],
      toolConfig: { functionCallingConfig: { mode } },
    }) as Json;

  it('mode ANY: a functionCall with schema-valid args, finishReason STOP', async () => {
    const response = await client().models.generateContent({
      model: 'rosetta-echo',
      contents: 'Tromsø',
      config: config(FunctionCallingConfigMode.ANY),
    });
    expect(response.candidates![0]!.finishReason).toBe('STOP');
    const calls = response.functionCalls!;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe('get_weather');
    expect(validWeather(calls[0]!.args)).toBe(true);
    expect(calls[0]!.args).toMatchObject({ city: 'Tromsø' });
  });

  it('streamed, mode ANY: the call arrives whole with schema-valid args', async () => {
    const stream = await client().models.generateContentStream({
      model: 'rosetta-echo',
      contents: 'Tromsø',
      config: config(FunctionCallingConfigMode.ANY),
    });
    const calls: Json[] = [];
    let finish: string | undefined;
    for await (const chunk of stream) {
      calls.push(...(chunk.functionCalls ?? []));
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
    }
    expect(calls).toHaveLength(1);
    expect(validWeather(calls[0]!.args)).toBe(true);
    expect(finish).toBe('STOP');
  });

  it('"use the read_file tool" (AUTO) calls it with the path; a functionResponse gets text; NONE gets text', async () => {
    const prompt = 'use the read_file tool on ~/notes/todo.txt';
    const named = await client().models.generateContent({
      model: 'rosetta-echo',
      contents: prompt,
      config: config(FunctionCallingConfigMode.AUTO),
    });
    expect(named.functionCalls).toEqual([
      expect.objectContaining({ name: 'read_file', args: { file_path: '~/notes/todo.txt' } }),
    ]);
    const after = await client().models.generateContent({
      model: 'rosetta-echo',
      config: config(FunctionCallingConfigMode.AUTO),
      contents: [
        { role: 'user', parts: [{ text: prompt }] },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: '~/notes/todo.txt' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'buy milk' } } }] },
      ],
    });
    expect(after.text).toBe('Tool read_file returned: {"output":"buy milk"}');
    const none = await client().models.generateContent({
      model: 'rosetta-echo',
      contents: prompt,
      config: config(FunctionCallingConfigMode.NONE),
    });
    expect(none.text).toBe(prompt);
    expect(none.functionCalls).toBeUndefined();
  });
});

describe('the echo leaves out framework-injected text', () => {
  const fixture = (name: string): Json =>
    JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
  const client = () => new Anthropic({ authToken: TEST_KEY, apiKey: null, baseURL: server.url, maxRetries: 0 });

  it("Claude Code's first turn: the user's own words, not its <system-reminder> block", async () => {
    const { stream: _stream, ...body } = fixture('messages-turn-1.json');
    const message = await client().beta.messages.create({
      ...body,
      model: 'rosetta-echo',
      max_tokens: 1024,
    } as Anthropic.Beta.MessageCreateParamsNonStreaming);
    expect(message.content).toEqual([
      {
        type: 'text',
        text: "What's the weather in Oslo, and what time is it in CET? Use the tools, both at once.",
        citations: [],
      },
    ]);
  });

  it("Claude Code's tool-result turn (results, then a reminder): a line quoting each result", async () => {
    const { stream: _stream, ...body } = fixture('messages-turn-2.json');
    const message = await client().beta.messages.create({
      ...body,
      model: 'rosetta-echo',
      max_tokens: 1024,
    } as Anthropic.Beta.MessageCreateParamsNonStreaming);
    expect(message.content).toEqual([
      {
        type: 'text',
        text: 'Tool get_weather returned: 3°C, light snow\nTool get_time returned: 14:05 CET',
        citations: [],
      },
    ]);
  });

  it("Codex CLI's turn: its <environment_context> part is left out, so the prompt can name a tool", async () => {
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const environment = '<environment_context>\n  <cwd>/tmp/work</cwd>\n  <shell>bash</shell>\n</environment_context>';
    const turn = (text: string): OpenAI.Responses.ResponseInput => [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: environment },
          { type: 'input_text', text },
        ],
      },
    ];
    const echo = await openai.responses.create({ model: 'rosetta-echo', input: turn('Hello from Codex') });
    expect(echo.output_text).toBe('Hello from Codex');
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'exec_command',
        parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
        strict: false,
      },
    ];
    const call = await openai.responses.create({
      model: 'rosetta-echo',
      input: turn('exec_command {"cmd":"cat notes.txt"}'),
      tools,
    });
    expect(call.output).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cat notes.txt"}' }),
    ]);
  });

  it('a reminder inside a text block is cut out; a turn of reminders only is passed over', async () => {
    const mixed = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Before <system-reminder>hidden</system-reminder>after' }],
    });
    expect(mixed.content).toEqual([{ type: 'text', text: 'Before after', citations: [] }]);
    const onlyReminders = await client().messages.create({
      model: 'rosetta-echo',
      max_tokens: 256,
      messages: [
        { role: 'user', content: 'The real question' },
        { role: 'assistant', content: 'The real question' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>one</system-reminder>' },
            { type: 'text', text: ' <system-reminder>two</system-reminder>\n' },
          ],
        },
      ],
    });
    expect(onlyReminders.content).toEqual([{ type: 'text', text: 'The real question', citations: [] }]);
  });
});
