/**
 * Full-fidelity translation to a Gemini upstream: thought signatures through every caller protocol, thinkingConfig,
 * reasoning tokens.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Part } from '@google/genai';
import OpenAI from 'openai';
import {
  AnthropicProvider,
  GeminiProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type ModelConfig,
} from '../../lib';
import {
  carrySignatureInThinking,
  carrySignatureInToolId,
  signatureFromThinking,
  splitToolId,
} from '../../lib/protocols/shared/signature-carrier';
import { dataEvents, type Json, serveGateway, type RunningGateway } from '../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic';
import {
  FINAL_TEXT_SIGNATURE,
  LOOP_SIGNATURES,
  LOOP_THOUGHT_SIGNATURES,
  PARALLEL_SIGNATURE,
  PLACEHOLDER_SIGNATURE,
  startMockGemini,
  type MockGemini,
} from '../helpers/mock-gemini';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-gateway-caller-key-translation';
const GEMINI_KEY = 'AIzaSyTranslationSecret0123456789abcd';
const OPENAI_KEY = 'sk-upstream-openai-translation';
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
/** What marks a Gemini signature carried in a tool-call id (the wire format callers echo back). */
const TOOL_ID_MARKER = '__gemsig';
/** A Gemini signature as the carrier names it. */
const geminiSignature = (signature: string) => ({ vendor: 'gemini', signature });

let gemini: MockGemini;
let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;

const GEMINI_MODELS: Record<string, string> = {
  'g3-loop': 'gemini-3-flash-loop',
  'g25-loop': 'gemini-2.5-flash-loop',
  'g3-parallel': 'gemini-3-pro-parallel',
  'g3-flash': 'gemini-3-flash-preview',
  'g3-pro': 'gemini-3-pro-preview',
  'g25-flash': 'gemini-2.5-flash',
  'g25-pro': 'gemini-2.5-pro',
  'g25-lite': 'gemini-2.5-flash-lite',
  'g-custom': 'my-tuned-model',
  g20: 'gemini-2.0-flash',
};
const models: ModelConfig[] = [
  ...Object.entries(GEMINI_MODELS).map(([id, upstreamModel]) => ({ id, provider: 'gemini', upstreamModel })),
  { id: 'oa-echo', provider: 'openai', upstreamModel: 'echo' },
  { id: 'an-echo', provider: 'anthropic', upstreamModel: 'echo' },
];

beforeAll(async () => {
  [gemini, openaiMock, anthropicMock] = await Promise.all([
    startMockGemini({ apiKey: GEMINI_KEY }),
    startMockOpenAI(),
    startMockAnthropic(),
  ]);
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } }),
    providers: [
      new GeminiProvider({ baseUrl: gemini.url, apiKey: GEMINI_KEY, retries: { max: 0 } }),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: OPENAI_KEY, retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([gemini.close(), openaiMock.close(), anthropicMock.close()]);
});

// ---------------------------------------------------------------------------------------------
// Helpers: clients, raw requests, what the mocks saw.

const openai = () => new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
// Jest's sandbox hides the undici dispatcher the SDK's default transport looks for; this is the same global fetch.
const passthroughFetch = (...args: Parameters<typeof fetch>) => fetch(...args);
const genai = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: server.url, fetch: passthroughFetch } });

async function post(
  path: string,
  headers: Record<string, string>,
  body: Json,
): Promise<{ status: number; text: string; json: () => Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Json };
}
const chat = (body: Json) => post('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, body);
const messages = (body: Json) => post('/v1/messages', { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body);
const generate = (model: string, body: Json, stream = false) =>
  post(
    `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    { 'x-goog-api-key': KEY },
    body,
  );

const lastGeminiBody = () => gemini.requests.at(-1)!.body as Json;
const geminiConfig = () => lastGeminiBody().generationConfig as Json | undefined;

/** Every part of the model turns of a recorded Gemini body, in order. */
function modelParts(body: Json): Json[] {
  return (body.contents as Json[])
    .filter((content) => content.role === 'model')
    .flatMap((content) => content.parts as Json[]);
}

/** `[function name, thoughtSignature]` of every functionCall part of the model turns. */
function signedCalls(body: Json): Array<[string, string | undefined]> {
  return modelParts(body)
    .filter((part) => part.functionCall)
    .map((part) => [part.functionCall.name, part.thoughtSignature]);
}

const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const TIME = {
  name: 'get_time',
  description: 'Time in a zone',
  parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
};
const OPENAI_TOOLS: OpenAI.ChatCompletionTool[] = [WEATHER, TIME].map((fn) => ({ type: 'function', function: fn }));
const ANTHROPIC_TOOLS: Anthropic.Tool[] = [WEATHER, TIME].map((fn) => ({
  name: fn.name,
  description: fn.description,
  input_schema: fn.parameters as Anthropic.Tool.InputSchema,
}));
const GEMINI_TOOLS = [
  {
    functionDeclarations: [WEATHER, TIME].map((fn) => ({
      name: fn.name,
      description: fn.description,
      parametersJsonSchema: fn.parameters,
    })),
  },
];

/** Every signature the Gemini mock mints: none may reach another vendor, in any spelling. */
const ALL_SIGNATURES = [...LOOP_SIGNATURES, ...LOOP_THOUGHT_SIGNATURES, FINAL_TEXT_SIGNATURE, PARALLEL_SIGNATURE];
function expectNoGeminiSignature(body: Json): void {
  const text = JSON.stringify(body);
  for (const signature of ALL_SIGNATURES) {
    expect(text).not.toContain(signature);
    expect(text).not.toContain(signature.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
  }
  expect(text).not.toContain(TOOL_ID_MARKER);
  expect(text).not.toContain('gemini:');
  expect(text).not.toContain('thought_signature');
}

// ---------------------------------------------------------------------------------------------

describe('signature carriers (unit)', () => {
  it.each([
    ['base64 with two padding characters', 'Cs4BAY89a1+loop/step1=='],
    ['base64 with one', 'Cs4BAY89a1+loop/step2='],
    ['base64 without padding', 'Ct0BAY89thought+step1/0'],
    ['a non-base64 string (the placeholder)', 'skip_thought_signature_validator'],
    ['text outside ASCII', 'sïg-ñ/+=='],
  ])('round-trips %s through a tool-call id that Anthropic accepts', (_name, signature) => {
    const carried = carrySignatureInToolId('call_resp-1_0', geminiSignature(signature));
    expect(carried).toMatch(ANTHROPIC_ID);
    expect(carried.startsWith(`call_resp-1_0${TOOL_ID_MARKER}`)).toBe(true);
    expect(splitToolId(carried)).toEqual({ id: 'call_resp-1_0', carried: geminiSignature(signature) });
  });

  it('leaves ids without a carrier, and malformed carriers, as they are', () => {
    expect(carrySignatureInToolId('call_1', undefined)).toBe('call_1');
    expect(splitToolId('call_abc')).toEqual({ id: 'call_abc' });
    expect(splitToolId(`call_1${TOOL_ID_MARKER}9_abc`)).toEqual({ id: `call_1${TOOL_ID_MARKER}9_abc` });
    expect(splitToolId(`call_1${TOOL_ID_MARKER}u_!!`)).toEqual({ id: `call_1${TOOL_ID_MARKER}u_!!` });
    expect(splitToolId(`${TOOL_ID_MARKER}0_abc`)).toEqual({ id: `${TOOL_ID_MARKER}0_abc` });
    // An id that already holds the marker could not be split back exactly: it carries nothing.
    expect(carrySignatureInToolId(`x${TOOL_ID_MARKER}0_y`, geminiSignature('sig'))).toBe(`x${TOOL_ID_MARKER}0_y`);
  });

  it('tags thinking signatures gemini: and tells them from Anthropic ones', () => {
    expect(carrySignatureInThinking(geminiSignature('abc+/='))).toBe('gemini:abc+/=');
    expect(signatureFromThinking('gemini:abc+/=')).toEqual(geminiSignature('abc+/='));
    expect(signatureFromThinking('EqQBanthropic')).toBeUndefined();
    expect(signatureFromThinking('gemini:')).toBeUndefined();
  });
});

describe('OpenAI caller → Gemini: signatures in tool-call ids', () => {
  it('official SDK, not streamed: a sequential two-step loop returns each step’s signature on its own functionCall part', async () => {
    const client = openai();
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather and time in Oslo?' }];
    for (const [step, expected] of LOOP_SIGNATURES.entries()) {
      const completion = await client.chat.completions.create({
        model: 'g3-loop',
        messages: history,
        tools: OPENAI_TOOLS,
      });
      const message = completion.choices[0]!.message;
      expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
      const call = message.tool_calls![0]!;
      expect(splitToolId(call.id)).toEqual({ id: `call_resp-mock-1_0`, carried: geminiSignature(expected) });
      history.push(message);
      history.push({ role: 'tool', tool_call_id: call.id, content: `{"step":${step + 1}}` });
    }
    const final = await client.chat.completions.create({ model: 'g3-loop', messages: history, tools: OPENAI_TOOLS });
    expect(final.choices[0]!.message.content).toBe('Done after 2 steps.');
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', LOOP_SIGNATURES[0]],
      ['get_time', LOOP_SIGNATURES[1]],
    ]);
    // The tool results are matched to their calls by the clean id: named function responses.
    const responses = (lastGeminiBody().contents as Json[]).flatMap((content) =>
      (content.parts as Json[]).filter((part) => part.functionResponse),
    );
    expect(responses.map((part) => [part.functionResponse.name, part.functionResponse.response])).toEqual([
      ['get_weather', { step: 1 }],
      ['get_time', { step: 2 }],
    ]);
  });

  it('official SDK, streamed (stream helper, reasoning on): the accumulated message carries the signature back', async () => {
    const client = openai();
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather and time in Oslo?' }];
    for (const expected of LOOP_SIGNATURES) {
      const stream = client.chat.completions.stream({
        model: 'g3-loop',
        messages: history,
        tools: OPENAI_TOOLS,
        reasoning_effort: 'low',
      });
      const completion = await stream.finalChatCompletion();
      const message = completion.choices[0]!.message;
      const call = message.tool_calls![0]!;
      expect(splitToolId(call.id).carried).toEqual(geminiSignature(expected));
      history.push(message);
      history.push({ role: 'tool', tool_call_id: call.id, content: 'ok' });
    }
    const final = await client.chat.completions
      .stream({ model: 'g3-loop', messages: history, tools: OPENAI_TOOLS, reasoning_effort: 'low' })
      .finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Done after 2 steps.');
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', LOOP_SIGNATURES[0]],
      ['get_time', LOOP_SIGNATURES[1]],
    ]);
    expect(geminiConfig()!.thinkingConfig).toEqual({ thinkingLevel: 'LOW', includeThoughts: true });
  });

  it('raw frames: the first tool_calls delta names the call by its carrier id', async () => {
    const { status, text } = await chat({
      model: 'g3-loop',
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
      tools: OPENAI_TOOLS,
    });
    expect(status).toBe(200);
    const deltas = dataEvents(text).flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(splitToolId(deltas[0].id)).toEqual({
      id: 'call_resp-mock-1_0',
      carried: geminiSignature(LOOP_SIGNATURES[0]!),
    });
    expect(deltas.slice(1).every((delta: Json) => delta.id === undefined)).toBe(true);
  });

  it('parallel calls: only the first carries the signature, and only it gets it back (streamed and not)', async () => {
    for (const stream of [false, true]) {
      const client = openai();
      const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Both, please.' }];
      const completion = stream
        ? await client.chat.completions
            .stream({ model: 'g3-parallel', messages: history, tools: OPENAI_TOOLS })
            .finalChatCompletion()
        : await client.chat.completions.create({ model: 'g3-parallel', messages: history, tools: OPENAI_TOOLS });
      const message = completion.choices[0]!.message;
      const [first, second] = message.tool_calls!;
      expect(splitToolId(first!.id).carried).toEqual(geminiSignature(PARALLEL_SIGNATURE));
      expect(second!.id).not.toContain(TOOL_ID_MARKER);
      history.push(
        message,
        { role: 'tool', tool_call_id: first!.id, content: '3C' },
        { role: 'tool', tool_call_id: second!.id, content: '12:00' },
      );
      const next = await client.chat.completions.create({
        model: 'g3-parallel',
        messages: history,
        tools: OPENAI_TOOLS,
      });
      expect(next.choices[0]!.message.content).toBe('Both answered.');
      expect(signedCalls(lastGeminiBody())).toEqual([
        ['get_weather', PARALLEL_SIGNATURE],
        ['get_time', undefined],
      ]);
    }
  });

  it('reads Google’s own carrier too: tool_calls[].extra_content.google.thought_signature', async () => {
    const res = await chat({
      model: 'g3-loop',
      tools: OPENAI_TOOLS,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'function-call-1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              extra_content: { google: { thought_signature: LOOP_SIGNATURES[0] } },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'function-call-1', content: 'ok' },
      ],
    });
    expect(res.status).toBe(200);
    expect(signedCalls(lastGeminiBody())).toEqual([['get_weather', LOOP_SIGNATURES[0]]]);
  });
});

describe('Anthropic caller → Gemini: signatures in tool_use ids and gemini: thinking blocks', () => {
  it('official SDK, not streamed, thinking on: thought and call signatures come back on the same parts, step after step', async () => {
    const client = anthropic();
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather and time in Oslo?' }];
    for (const [step, expected] of LOOP_SIGNATURES.entries()) {
      const response = await client.messages.create({
        model: 'g3-loop',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        tools: ANTHROPIC_TOOLS,
        messages: history,
      });
      expect(response.stop_reason).toBe('tool_use');
      expect(response.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
      const [thinking, toolUse] = response.content as [Anthropic.ThinkingBlock, Anthropic.ToolUseBlock];
      expect(thinking.signature).toBe(`gemini:${LOOP_THOUGHT_SIGNATURES[step]}`);
      expect(toolUse.id).toMatch(ANTHROPIC_ID);
      expect(splitToolId(toolUse.id).carried).toEqual(geminiSignature(expected));
      history.push({ role: 'assistant', content: response.content });
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'ok' }] });
    }
    const final = await client.messages.create({
      model: 'g3-loop',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: ANTHROPIC_TOOLS,
      messages: history,
    });
    expect(final.content).toEqual([{ type: 'text', text: 'Done after 2 steps.', citations: [] }]);
    expect(modelParts(lastGeminiBody())).toEqual([
      { text: 'Step 1: call get_weather.', thought: true, thoughtSignature: LOOP_THOUGHT_SIGNATURES[0] },
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: LOOP_SIGNATURES[0] },
      { text: 'Step 2: call get_time.', thought: true, thoughtSignature: LOOP_THOUGHT_SIGNATURES[1] },
      { functionCall: { name: 'get_time', args: { zone: 'CET' } }, thoughtSignature: LOOP_SIGNATURES[1] },
    ]);
  });

  it('Claude Code’s shape, streamed (beta, adaptive thinking with display omitted): tool_use ids carry the signatures back', async () => {
    const client = anthropic();
    const history: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: 'Weather and time in Oslo?' }];
    const request = () => ({
      model: 'g3-loop',
      max_tokens: 32000,
      thinking: { type: 'adaptive' as const, display: 'omitted' as const },
      output_config: { effort: 'high' as const },
      tools: ANTHROPIC_TOOLS,
      messages: history,
    });
    for (const expected of LOOP_SIGNATURES) {
      const message = await client.beta.messages.stream(request()).finalMessage();
      expect(message.content.map((block) => block.type)).toEqual(['tool_use']);
      const toolUse = message.content[0] as Anthropic.Beta.BetaToolUseBlock;
      expect(toolUse.id).toMatch(ANTHROPIC_ID);
      expect(splitToolId(toolUse.id).carried).toEqual(geminiSignature(expected));
      history.push({ role: 'assistant', content: message.content });
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'ok' }] });
    }
    const final = await client.beta.messages.stream(request()).finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['text']);
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', LOOP_SIGNATURES[0]],
      ['get_time', LOOP_SIGNATURES[1]],
    ]);
    expect(geminiConfig()!.thinkingConfig).toEqual({ thinkingLevel: 'HIGH' });
  });

  it('raw frames: the thinking block (signature_delta gemini:…) comes before its tool_use, whose start carries the id', async () => {
    const { status, text } = await messages({
      model: 'g3-loop',
      max_tokens: 4096,
      stream: true,
      thinking: { type: 'adaptive' },
      tools: ANTHROPIC_TOOLS,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(status).toBe(200);
    const events = dataEvents(text);
    const starts = events.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => [event.index, event.content_block.type])).toEqual([
      [0, 'thinking'],
      [1, 'tool_use'],
    ]);
    const signatureDelta = events.find((event) => event.delta?.type === 'signature_delta')!;
    expect(signatureDelta).toMatchObject({ index: 0, delta: { signature: `gemini:${LOOP_THOUGHT_SIGNATURES[0]}` } });
    expect(events.indexOf(signatureDelta)).toBeLessThan(events.indexOf(starts[1]!));
    expect(splitToolId(starts[1]!.content_block.id).carried).toEqual(geminiSignature(LOOP_SIGNATURES[0]));
  });

  it('parallel calls, streamed: only the first tool_use carries the signature back', async () => {
    const client = anthropic();
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Both, please.' }];
    const message = await client.messages
      .stream({ model: 'g3-parallel', max_tokens: 1000, tools: ANTHROPIC_TOOLS, messages: history })
      .finalMessage();
    const [first, second] = message.content as Anthropic.ToolUseBlock[];
    expect(splitToolId(first!.id).carried).toEqual(geminiSignature(PARALLEL_SIGNATURE));
    expect(second!.id).not.toContain(TOOL_ID_MARKER);
    history.push(
      { role: 'assistant', content: message.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: first!.id, content: '3C' },
          { type: 'tool_result', tool_use_id: second!.id, content: '12:00' },
        ],
      },
    );
    const next = await client.messages.create({
      model: 'g3-parallel',
      max_tokens: 1000,
      tools: ANTHROPIC_TOOLS,
      messages: history,
    });
    expect(next.content[0]).toMatchObject({ type: 'text', text: 'Both answered.' });
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', PARALLEL_SIGNATURE],
      ['get_time', undefined],
    ]);
  });
});

describe('Gemini caller → Gemini: signatures pass through', () => {
  it('@google/genai chat, not streamed: the SDK’s own history sends each step’s signature back', async () => {
    const session = genai().chats.create({ model: 'g3-loop', config: { tools: GEMINI_TOOLS } });
    let response = await session.sendMessage({ message: 'Weather and time in Oslo?' });
    for (const expected of LOOP_SIGNATURES) {
      const call = response.candidates![0]!.content!.parts!.find((part) => part.functionCall)!;
      expect(call.thoughtSignature).toBe(expected);
      const reply: Part[] = [
        { functionResponse: { id: call.functionCall!.id, name: call.functionCall!.name!, response: { output: 'ok' } } },
      ];
      response = await session.sendMessage({ message: reply });
    }
    expect(response.text).toBe('Done after 2 steps.');
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', LOOP_SIGNATURES[0]],
      ['get_time', LOOP_SIGNATURES[1]],
    ]);
  });

  it('@google/genai chat, streamed: the chunk-by-chunk history still carries every signature, parallel calls included', async () => {
    const session = genai().chats.create({ model: 'g3-loop', config: { tools: GEMINI_TOOLS } });
    const send = async (message: string | Part[]) => {
      const parts: Part[] = [];
      for await (const chunk of await session.sendMessageStream({ message }))
        parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      return parts;
    };
    let parts = await send('Weather and time in Oslo?');
    for (const expected of LOOP_SIGNATURES) {
      const call = parts.find((part) => part.functionCall)!;
      expect(call.thoughtSignature).toBe(expected);
      parts = await send([
        { functionResponse: { id: call.functionCall!.id, name: call.functionCall!.name!, response: { output: 'ok' } } },
      ]);
    }
    expect(parts.map((part) => part.text ?? '').join('')).toBe('Done after 2 steps.');
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', LOOP_SIGNATURES[0]],
      ['get_time', LOOP_SIGNATURES[1]],
    ]);

    const parallel = genai().chats.create({ model: 'g3-parallel', config: { tools: GEMINI_TOOLS } });
    const calls: Part[] = [];
    for await (const chunk of await parallel.sendMessageStream({ message: 'Both, please.' }))
      calls.push(...(chunk.candidates?.[0]?.content?.parts ?? []).filter((part) => part.functionCall));
    expect(calls.map((part) => part.thoughtSignature)).toEqual([PARALLEL_SIGNATURE, undefined]);
    const replies: Part[] = calls.map((part) => ({
      functionResponse: { id: part.functionCall!.id, name: part.functionCall!.name!, response: { output: 'ok' } },
    }));
    for await (const _chunk of await parallel.sendMessageStream({ message: replies })) void _chunk;
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', PARALLEL_SIGNATURE],
      ['get_time', undefined],
    ]);
  });
});

describe('unsigned history: the placeholder on the first call of each current-turn step (Gemini 3)', () => {
  const handBuilt = (extra: Json[] = []) => [
    { role: 'user', content: 'Weather and time?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: '3C' },
    { role: 'tool', tool_call_id: 'call_b', content: '12:00' },
    ...extra,
  ];

  it('an OpenAI caller’s hand-built loop reaches Gemini 3 with the placeholder on the first call only', async () => {
    const res = await chat({ model: 'g3-loop', tools: OPENAI_TOOLS, messages: handBuilt() });
    expect(res.status).toBe(200);
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', PLACEHOLDER_SIGNATURE],
      ['get_time', undefined],
    ]);
  });

  it('without the placeholder the mock (like Gemini 3) refuses: proven by a Gemini caller’s pass-through on 2.5 vs 3', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city: 'Oslo' } } }] },
      { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { output: '3C' } } }] },
    ];
    expect((await generate('g3-loop', { contents })).status).toBe(200);
    expect((lastGeminiBody().contents as Json[])[1]).toEqual({
      role: 'model',
      parts: [
        { function_call: { name: 'get_weather', args: { city: 'Oslo' } }, thought_signature: PLACEHOLDER_SIGNATURE },
      ],
    });
    expect((await generate('g25-loop', { contents })).status).toBe(200);
    expect((lastGeminiBody().contents as Json[])[1]).toEqual(contents[1]);
  });

  it('leaves older turns, 2.5 models and signed calls alone', async () => {
    await chat({ model: 'g3-flash', messages: handBuilt([{ role: 'user', content: 'And tomorrow?' }]) });
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', undefined],
      ['get_time', undefined],
    ]);
    await chat({ model: 'g25-loop', tools: OPENAI_TOOLS, messages: handBuilt() });
    expect(signedCalls(lastGeminiBody())).toEqual([
      ['get_weather', undefined],
      ['get_time', undefined],
    ]);
  });

  it('an Anthropic caller’s history from Claude (an Anthropic thinking signature) reaches Gemini without that signature, with the placeholder', async () => {
    const res = await messages({
      model: 'g3-loop',
      max_tokens: 1000,
      tools: ANTHROPIC_TOOLS,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Claude thinks.', signature: 'EqQBanthropicSignature' },
            { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '3C' }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(lastGeminiBody())).not.toContain('EqQBanthropicSignature');
    expect(modelParts(lastGeminiBody())).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: PLACEHOLDER_SIGNATURE },
    ]);
  });
});

describe('a Gemini signature never reaches another vendor', () => {
  /**
   * An OpenAI history as the SDK echoes a Gemini loop step: the signature in the id, and Google's extra_content too.
   */
  async function openAIHistoryFromGemini(): Promise<Json[]> {
    const turn = (
      await chat({ model: 'g3-loop', tools: OPENAI_TOOLS, messages: [{ role: 'user', content: 'Weather?' }] })
    ).json();
    const message = turn.choices[0].message;
    const call = message.tool_calls[0];
    expect(call.id).toContain(TOOL_ID_MARKER);
    return [
      { role: 'user', content: 'Weather?' },
      { ...message, tool_calls: [{ ...call, extra_content: { google: { thought_signature: LOOP_SIGNATURES[0] } } }] },
      { role: 'tool', tool_call_id: call.id, content: '3C' },
    ];
  }

  it('OpenAI caller → OpenAI upstream (pass-through) and → Anthropic upstream: clean ids, no signature', async () => {
    const history = await openAIHistoryFromGemini();
    const toOpenAI = await chat({ model: 'oa-echo', tools: OPENAI_TOOLS, messages: history });
    expect(toOpenAI.status).toBe(200);
    const sent = openaiMock.requests.at(-1)!.body as Json;
    expectNoGeminiSignature(sent);
    expect((sent.messages as Json[])[1]!.tool_calls[0].id).toBe('call_resp-mock-1_0');
    expect((sent.messages as Json[])[2]!.tool_call_id).toBe('call_resp-mock-1_0');

    const toAnthropic = await chat({ model: 'an-echo', tools: OPENAI_TOOLS, messages: history });
    expect(toAnthropic.status).toBe(200);
    expectNoGeminiSignature(anthropicMock.requests.at(-1)!.body as Json);
  });

  it('Anthropic caller → Anthropic upstream (pass-through): gemini: thinking blocks dropped, ids clean, the real API’s checks pass', async () => {
    const turn = (
      await messages({
        model: 'g3-loop',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        tools: ANTHROPIC_TOOLS,
        messages: [{ role: 'user', content: 'Weather?' }],
      })
    ).json();
    expect(turn.content.map((block: Json) => block.type)).toEqual(['thinking', 'tool_use']);
    const toolUse = turn.content[1];
    const res = await messages({
      model: 'an-echo',
      max_tokens: 1000,
      tools: ANTHROPIC_TOOLS,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: turn.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '3C' }] },
      ],
    });
    expect(res.status).toBe(200);
    const sent = anthropicMock.requests.at(-1)!.body as Json;
    expectNoGeminiSignature(sent);
    expect((sent.messages as Json[])[1]).toEqual({
      role: 'assistant',
      content: [{ ...toolUse, id: splitToolId(toolUse.id).id }],
    });
  });

  it('Gemini caller → OpenAI and Anthropic upstreams: the signatures in its history stay behind', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Plan.', thought: true, thoughtSignature: LOOP_THOUGHT_SIGNATURES[0] },
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: LOOP_SIGNATURES[0] },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '3C' } } }] },
    ];
    expect((await generate('oa-echo', { contents })).status).toBe(200);
    expectNoGeminiSignature(openaiMock.requests.at(-1)!.body as Json);
    expect((await generate('an-echo', { contents })).status).toBe(200);
    expectNoGeminiSignature(anthropicMock.requests.at(-1)!.body as Json);
  });
});

describe('reasoning settings → thinkingConfig', () => {
  it.each([
    ['g3-flash', 'minimal', { thinkingLevel: 'MINIMAL', includeThoughts: true }],
    ['g3-flash', 'low', { thinkingLevel: 'LOW', includeThoughts: true }],
    ['g3-flash', 'medium', { thinkingLevel: 'MEDIUM', includeThoughts: true }],
    ['g3-flash', 'high', { thinkingLevel: 'HIGH', includeThoughts: true }],
    ['g3-pro', 'xhigh', { thinkingLevel: 'HIGH', includeThoughts: true }],
    ['g3-pro', 'max', { thinkingLevel: 'HIGH', includeThoughts: true }],
    ['g3-flash', 'none', { thinkingLevel: 'MINIMAL' }],
    ['g3-pro', 'none', { thinkingLevel: 'LOW' }],
    ['g25-flash', 'minimal', { thinkingBudget: 512, includeThoughts: true }],
    ['g25-flash', 'low', { thinkingBudget: 1024, includeThoughts: true }],
    ['g25-flash', 'medium', { thinkingBudget: 8192, includeThoughts: true }],
    ['g25-flash', 'high', { thinkingBudget: 24576, includeThoughts: true }],
    ['g25-flash', 'none', { thinkingBudget: 0 }],
    ['g25-pro', 'max', { thinkingBudget: 32768, includeThoughts: true }],
    ['g25-pro', 'none', { thinkingBudget: 128 }],
    ['g25-lite', 'none', { thinkingBudget: 0 }],
    ['g-custom', 'xhigh', { thinkingBudget: 24576, includeThoughts: true }],
    ['g-custom', 'none', { thinkingBudget: 0 }],
  ])('OpenAI %s reasoning_effort %s → %j', async (model, effort, expected) => {
    expect((await chat({ model, reasoning_effort: effort, messages: [{ role: 'user', content: 'x' }] })).status).toBe(
      200,
    );
    expect(geminiConfig()!.thinkingConfig).toEqual(expected);
  });

  it('OpenAI: no reasoning_effort sends no thinkingConfig; a model before 2.5 gets none either', async () => {
    await chat({ model: 'g25-flash', messages: [{ role: 'user', content: 'x' }] });
    expect(geminiConfig()?.thinkingConfig).toBeUndefined();
    await chat({ model: 'g20', reasoning_effort: 'high', messages: [{ role: 'user', content: 'x' }] });
    expect(geminiConfig()?.thinkingConfig).toBeUndefined();
  });

  it.each([
    [
      'g25-flash',
      { thinking: { type: 'enabled', budget_tokens: 2048 } },
      { thinkingBudget: 2048, includeThoughts: true },
    ],
    [
      'g25-flash',
      { thinking: { type: 'enabled', budget_tokens: 50000 } },
      { thinkingBudget: 24576, includeThoughts: true },
    ],
    [
      'g25-pro',
      { thinking: { type: 'enabled', budget_tokens: 40000 } },
      { thinkingBudget: 32768, includeThoughts: true },
    ],
    ['g25-lite', { thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }, { thinkingBudget: 1024 }],
    [
      'g-custom',
      { thinking: { type: 'enabled', budget_tokens: 100000 } },
      { thinkingBudget: 100000, includeThoughts: true },
    ],
    ['g3-pro', { thinking: { type: 'enabled', budget_tokens: 2048 } }, { thinkingBudget: 2048, includeThoughts: true }],
    [
      'g25-flash',
      { thinking: { type: 'adaptive' }, output_config: { effort: 'high' } },
      { thinkingBudget: -1, includeThoughts: true },
    ],
    [
      'g25-pro',
      { thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'low' } },
      { thinkingBudget: -1 },
    ],
    [
      'g3-flash',
      { thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } },
      { thinkingLevel: 'MEDIUM', includeThoughts: true },
    ],
    [
      'g3-pro',
      { thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'max' } },
      { thinkingLevel: 'HIGH' },
    ],
    ['g3-pro', { thinking: { type: 'adaptive' } }, { includeThoughts: true }],
    ['g25-flash', { thinking: { type: 'disabled' } }, { thinkingBudget: 0 }],
    ['g25-pro', { thinking: { type: 'disabled' } }, { thinkingBudget: 128 }],
    ['g3-flash', { thinking: { type: 'disabled' } }, { thinkingLevel: 'MINIMAL' }],
    ['g3-pro', { thinking: { type: 'disabled' } }, { thinkingLevel: 'LOW' }],
    ['g25-flash', { output_config: { effort: 'medium' } }, { thinkingBudget: 8192 }],
  ])('Anthropic %s %j → %j', async (model, fields, expected) => {
    expect(
      (await messages({ model, max_tokens: 60000, messages: [{ role: 'user', content: 'x' }], ...fields })).status,
    ).toBe(200);
    expect(geminiConfig()!.thinkingConfig).toEqual(expected);
  });

  it('Gemini: the caller’s own thinkingConfig passes through untouched', async () => {
    const thinkingConfig = { thinkingLevel: 'LOW', includeThoughts: true };
    expect(
      (
        await generate('g3-pro', {
          contents: [{ role: 'user', parts: [{ text: 'x' }] }],
          generationConfig: { thinkingConfig },
        })
      ).status,
    ).toBe(200);
    expect(geminiConfig()!.thinkingConfig).toEqual(thinkingConfig);
  });
});

describe('reasoning tokens (thoughtsTokenCount) reach every caller', () => {
  // The mock reports 5 thought tokens on every answer; the echo text is "upstream says: x" (3 words).
  it('OpenAI: completion_tokens_details.reasoning_tokens, streamed and not; thoughts count in completion_tokens', async () => {
    const plain = (
      await chat({ model: 'g25-flash', reasoning_effort: 'low', messages: [{ role: 'user', content: 'x' }] })
    ).json();
    expect(plain.usage).toMatchObject({ completion_tokens: 8, completion_tokens_details: { reasoning_tokens: 5 } });
    const streamed = dataEvents(
      (
        await chat({
          model: 'g25-flash',
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: 'x' }],
        })
      ).text,
    );
    expect(streamed.at(-1)!.usage).toMatchObject({
      completion_tokens: 8,
      completion_tokens_details: { reasoning_tokens: 5 },
    });
  });

  it('Anthropic: output_tokens_details.thinking_tokens, streamed and not', async () => {
    const plain = (
      await messages({ model: 'g25-flash', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
    ).json();
    expect(plain.usage).toMatchObject({ output_tokens: 8, output_tokens_details: { thinking_tokens: 5 } });
    const events = dataEvents(
      (
        await messages({
          model: 'g25-flash',
          max_tokens: 100,
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        })
      ).text,
    );
    expect(events.find((event) => event.type === 'message_delta')!.usage).toMatchObject({
      output_tokens: 8,
      output_tokens_details: { thinking_tokens: 5 },
    });
  });

  it('Gemini: thoughtsTokenCount, streamed and not', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    expect((await generate('g25-flash', body)).json().usageMetadata).toMatchObject({
      candidatesTokenCount: 3,
      thoughtsTokenCount: 5,
    });
    const events = dataEvents((await generate('g25-flash', body, true)).text);
    expect(events.at(-1)!.usageMetadata).toMatchObject({ candidatesTokenCount: 3, thoughtsTokenCount: 5 });
  });
});
