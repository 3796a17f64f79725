/**
 * Translation between OpenAI-compatible and Anthropic upstreams and every caller: reasoning, structured output,
 * tool_choice, stop sequences, output caps.
 */
import { createHash } from 'node:crypto';
import { MemoryKeyStore, MemoryQuotaStore, type ModelConfig } from '../../lib';
import { AnthropicProvider } from '../../lib/providers/anthropic';
import { supportsAdaptiveThinking } from '../../lib/providers/anthropic/adaptive-thinking';
import { streamErrorEvent } from '../../lib/providers/anthropic/decode-stream';
import { OpenAIProvider, isOpenAIReasoningModel } from '../../lib/providers/openai';
import { chatStreamError } from '../../lib/providers/openai/stream-error';
import { splitToolId } from '../../lib/protocols/shared/signature-carrier';
import { type Json, serveGateway, type RunningGateway } from '../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-gateway-caller-key-1';

let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;

const models: ModelConfig[] = [
  { id: 'oai-reasoner', provider: 'oai-reasoning', upstreamModel: 'echo' },
  { id: 'oai-plain', provider: 'openai', upstreamModel: 'echo' },
  { id: 'oai-reasoning-out', provider: 'openai', upstreamModel: 'reasoning' },
  { id: 'oai-text-tools', provider: 'openai', upstreamModel: 'text-tools' },
  { id: 'oai-interleaved', provider: 'openai', upstreamModel: 'interleaved-tools' },
  { id: 'oai-no-index', provider: 'openai', upstreamModel: 'no-index-tools' },
  { id: 'oai-length', provider: 'openai', upstreamModel: 'length' },
  { id: 'oai-done', provider: 'openai', upstreamModel: 'done-no-finish' },
  { id: 'oai-refusal', provider: 'openai', upstreamModel: 'refusal' },
  { id: 'oai-overloaded', provider: 'openai', upstreamModel: 'stream-error-529' },
  { id: 'oai-rate-limited', provider: 'openai', upstreamModel: 'stream-error-429' },
  { id: 'claude-classic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
  { id: 'claude-adaptive', provider: 'anthropic', upstreamModel: 'claude-opus-4-7' },
  { id: 'claude-capped', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5', maxOutputTokens: 3000 },
  { id: 'claude-thinking', provider: 'anthropic', upstreamModel: 'thinking' },
  { id: 'claude-tools', provider: 'anthropic', upstreamModel: 'tools' },
  { id: 'claude-stop', provider: 'anthropic', upstreamModel: 'stop-seq' },
  { id: 'claude-max', provider: 'anthropic', upstreamModel: 'max' },
];

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  anthropicMock = await startMockAnthropic();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 100_000_000 } }),
    providers: [
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { baseDelayMs: 1 } }),
      new OpenAIProvider({
        name: 'oai-reasoning',
        baseUrl: openaiMock.url,
        apiKey: 'sk-upstream-openai-0001',
        reasoningModels: () => true,
        retries: { baseDelayMs: 1 },
      }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await openaiMock.close();
  await anthropicMock.close();
});

const sentToOpenAI = () => openaiMock.requests.at(-1)!.body as Json;
const sentToAnthropic = () => anthropicMock.requests.at(-1)!;

async function post(
  path: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ status: number; json: Json; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // a stream
  }
  return { status: res.status, json, text };
}

const openai = (body: Record<string, unknown>) =>
  post('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, body);
const anthropic = (body: Record<string, unknown>) =>
  post('/v1/messages', { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body);
const gemini = (model: string, body: Record<string, unknown>, stream = false) =>
  post(
    `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    { 'x-goog-api-key': KEY },
    body,
  );
const user = (text: string) => [{ role: 'user', content: text }];
const geminiUser = (text: string) => [{ role: 'user', parts: [{ text }] }];

/** OpenAI chunks (without [DONE]) of a raw SSE body. */
function openaiChunks(text: string): Json[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => event.replace(/^data: /, ''))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Json);
}

/** Anthropic events of a raw SSE body, checked to carry an `event:` line equal to their type. */
function anthropicEvents(text: string): Json[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const data = JSON.parse(dataLine!.replace(/^data: /, '')) as Json;
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

/** The content blocks an Anthropic stream builds, accumulated as the SDK does (by index, inputs parsed at the end). */
function anthropicBlocks(events: Json[]): Json[] {
  const blocks: Json[] = [];
  const json: string[] = [];
  for (const event of events) {
    if (event.type === 'content_block_start') {
      expect(event.index).toBe(blocks.length);
      blocks.push({ ...event.content_block });
      json.push('');
    } else if (event.type === 'content_block_delta') {
      const block = blocks[event.index]!;
      const delta = event.delta;
      if (delta.type === 'text_delta') block.text += delta.text;
      if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      if (delta.type === 'signature_delta') block.signature = delta.signature;
      if (delta.type === 'input_json_delta') json[event.index] += delta.partial_json;
    }
  }
  return blocks.map((block, index) =>
    block.type === 'tool_use' ? { ...block, input: JSON.parse(json[index]!) } : block,
  );
}

/** Gemini chunks of a raw SSE body. */
function geminiChunks(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((event) => event.trim())
    .map((event) => JSON.parse(event.replace(/^data: /, '')) as Json);
}

describe('reasoning settings → an OpenAI-compatible upstream', () => {
  it.each([
    ['a budget of 1024 → low', { type: 'enabled', budget_tokens: 1024 }, undefined, 'low'],
    ['a budget of 2000 → medium', { type: 'enabled', budget_tokens: 2000 }, undefined, 'medium'],
    ['a budget of 8192 → medium', { type: 'enabled', budget_tokens: 8192 }, undefined, 'medium'],
    ['a budget of 20000 → high', { type: 'enabled', budget_tokens: 20000 }, undefined, 'high'],
    ['adaptive with effort high → high', { type: 'adaptive' }, 'high', 'high'],
    ['adaptive with effort max → max', { type: 'adaptive', display: 'omitted' }, 'max', 'max'],
    ['effort without thinking → that effort', undefined, 'low', 'low'],
    ['adaptive without effort → the model default', { type: 'adaptive' }, undefined, undefined],
    ['disabled → the model default', { type: 'disabled' }, 'high', undefined],
  ])('Anthropic caller: %s', async (_name, thinking, effort, expected) => {
    const res = await anthropic({
      model: 'oai-reasoner',
      max_tokens: 30000,
      messages: user('think'),
      temperature: 0.3,
      ...(thinking ? { thinking } : {}),
      ...(effort ? { output_config: { effort } } : {}),
    });
    expect(res.status).toBe(200);
    const sent = sentToOpenAI();
    if (expected) expect(sent.reasoning_effort).toBe(expected);
    else expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('thinking');
    expect(sent).not.toHaveProperty('output_config');
  });

  it('streamed: the effort is sent the same way, and a non-reasoning model gets none but keeps its temperature', async () => {
    const streamed = await anthropic({
      model: 'oai-reasoner',
      max_tokens: 3000,
      stream: true,
      thinking: { type: 'enabled', budget_tokens: 1500 },
      messages: user('s'),
    });
    expect(streamed.status).toBe(200);
    expect(sentToOpenAI()).toMatchObject({ stream: true, reasoning_effort: 'medium' });
    const plain = await anthropic({
      model: 'oai-plain',
      max_tokens: 3000,
      stream: true,
      temperature: 0.3,
      thinking: { type: 'enabled', budget_tokens: 1500 },
      messages: user('s'),
    });
    expect(plain.status).toBe(200);
    expect(sentToOpenAI()).not.toHaveProperty('reasoning_effort');
    expect(sentToOpenAI().temperature).toBe(0.3);
  });

  it.each([
    ['thinkingBudget 500 → low', { thinkingBudget: 500 }, 'low'],
    ['thinkingBudget 4096 → medium', { thinkingBudget: 4096 }, 'medium'],
    ['thinkingBudget 24576 → high', { thinkingBudget: 24576 }, 'high'],
    ['thinkingLevel HIGH → high', { thinkingLevel: 'HIGH' }, 'high'],
    ['thinkingLevel MINIMAL → minimal', { thinkingLevel: 'MINIMAL' }, 'minimal'],
    ['thinkingBudget 0 (off) → the model default', { thinkingBudget: 0 }, undefined],
    ['thinkingBudget -1 (dynamic) → the model default', { thinkingBudget: -1 }, undefined],
  ])('Gemini caller: %s', async (_name, thinkingConfig, expected) => {
    for (const stream of [false, true]) {
      const res = await gemini(
        'oai-reasoner',
        { contents: geminiUser('think'), generationConfig: { thinkingConfig } },
        stream,
      );
      expect(res.status).toBe(200);
      if (expected) expect(sentToOpenAI().reasoning_effort).toBe(expected);
      else expect(sentToOpenAI()).not.toHaveProperty('reasoning_effort');
    }
  });

  it('the default reasoning-model list covers OpenAI o-series and gpt-5 ids only', () => {
    expect(['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5.1-codex'].every(isOpenAIReasoningModel)).toBe(true);
    expect(['gpt-4o', 'gpt-4.1-mini', 'omni-moderation', 'llama-3'].some(isOpenAIReasoningModel)).toBe(false);
    expect(() => new OpenAIProvider({ reasoningModels: 'o3' as unknown as () => boolean })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'reasoningModels' }),
    );
  });
});

describe('reasoning returned by an OpenAI-compatible upstream', () => {
  it('reasoning_content reaches an Anthropic caller as a thinking block, with the reasoning tokens in usage', async () => {
    const res = await anthropic({ model: 'oai-reasoning-out', max_tokens: 100, messages: user('why') });
    expect(res.json.content[0]).toMatchObject({ type: 'thinking', thinking: 'The user wants two facts.' });
    expect(res.json.content[1]).toMatchObject({ type: 'text', text: 'upstream says: why' });
    expect(res.json.usage).toMatchObject({ output_tokens: 3 + 5, output_tokens_details: { thinking_tokens: 5 } });

    const streamed = await anthropic({
      model: 'oai-reasoning-out',
      max_tokens: 100,
      stream: true,
      messages: user('why'),
    });
    const events = anthropicEvents(streamed.text);
    expect(anthropicBlocks(events)[0]).toMatchObject({ type: 'thinking', thinking: 'The user wants two facts.' });
    const delta = events.find((event) => event.type === 'message_delta')!;
    expect(delta.usage).toMatchObject({ output_tokens: 8, output_tokens_details: { thinking_tokens: 5 } });
  });

  it('`reasoning` (the other field name) reaches a Gemini caller as a thought part, with thoughtsTokenCount', async () => {
    const res = await gemini('oai-text-tools', {
      contents: geminiUser('go'),
      tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }],
    });
    const parts = res.json.candidates[0].content.parts as Json[];
    expect(parts[0]).toMatchObject({ text: 'The user wants two facts.', thought: true });
    expect(res.json.usageMetadata).toMatchObject({ thoughtsTokenCount: 7 });
    const streamed = await gemini('oai-text-tools', { contents: geminiUser('go') }, true);
    const chunks = geminiChunks(streamed.text);
    const thought = chunks
      .flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
      .filter((part: Json) => part.thought)
      .map((part: Json) => part.text)
      .join('');
    expect(thought).toBe('The user wants two facts.');
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ thoughtsTokenCount: 7 });
  });

  it('an Anthropic upstream’s thinking reaches an OpenAI caller as reasoning_content, with reasoning_tokens', async () => {
    const res = await openai({ model: 'claude-thinking', messages: user('why') });
    expect(res.json.choices[0].message).toMatchObject({
      content: 'upstream says: why',
      reasoning_content: 'Let me think about it.',
    });
    expect(res.json.usage.completion_tokens_details.reasoning_tokens).toBe(5);
    const streamed = await openai({
      model: 'claude-thinking',
      stream: true,
      stream_options: { include_usage: true },
      messages: user('why'),
    });
    const chunks = openaiChunks(streamed.text);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.reasoning_content ?? '').join('')).toBe(
      'Let me think about it.',
    );
    expect(chunks.at(-1)!.usage.completion_tokens_details.reasoning_tokens).toBe(5);
  });
});

describe('reasoning settings → an Anthropic upstream', () => {
  it.each([
    ['low → a budget of 1024', 'low', 20000, { type: 'enabled', budget_tokens: 1024 }],
    ['medium → a budget of 8192', 'medium', 20000, { type: 'enabled', budget_tokens: 8192 }],
    [
      'high with max_completion_tokens 60000 → a budget of 24576',
      'high',
      60000,
      { type: 'enabled', budget_tokens: 24576 },
    ],
    [
      'high with max_completion_tokens 30000 → half of it, 15000: the answer keeps room',
      'high',
      30000,
      { type: 'enabled', budget_tokens: 15000 },
    ],
    ['high with max_completion_tokens 3000 → half of it, 1500', 'high', 3000, { type: 'enabled', budget_tokens: 1500 }],
    ['high with max_completion_tokens 1500 → the 1024 minimum', 'high', 1500, { type: 'enabled', budget_tokens: 1024 }],
    ['none → thinking disabled', 'none', 3000, { type: 'disabled' }],
  ])('OpenAI caller, model without adaptive thinking: %s', async (_name, effort, cap, thinking) => {
    for (const stream of [false, true]) {
      const res = await openai({
        model: 'claude-classic',
        reasoning_effort: effort,
        max_completion_tokens: cap,
        temperature: 0.5,
        top_p: 0.5,
        stream,
        messages: user('think'),
      });
      expect(res.status).toBe(200);
      const sent = sentToAnthropic().body;
      expect(sent.thinking).toEqual(thinking);
      expect(sent.max_tokens).toBe(cap);
      expect(sent).not.toHaveProperty('output_config');
      if (thinking.type === 'enabled') {
        expect(sent).not.toHaveProperty('temperature');
        expect(sent).not.toHaveProperty('top_p');
      } else {
        expect(sent).toMatchObject({ temperature: 0.5, top_p: 0.5 });
      }
    }
  });

  it('leaves thinking off when max_tokens leaves no room for the minimum budget', async () => {
    const res = await openai({
      model: 'claude-classic',
      reasoning_effort: 'high',
      max_completion_tokens: 1024,
      temperature: 0.2,
      messages: user('x'),
    });
    expect(res.status).toBe(200);
    expect(sentToAnthropic().body).not.toHaveProperty('thinking');
    expect(sentToAnthropic().body.temperature).toBe(0.2);
  });

  it.each([
    ['high', 'high'],
    ['minimal', 'low'],
    ['xhigh', 'xhigh'],
  ])(
    'OpenAI caller, adaptive model: effort %s → adaptive thinking with output_config.effort %s',
    async (effort, expected) => {
      for (const stream of [false, true]) {
        const res = await openai({
          model: 'claude-adaptive',
          reasoning_effort: effort,
          stream,
          messages: user('think'),
        });
        expect(res.status).toBe(200);
        expect(sentToAnthropic().body).toMatchObject({
          thinking: { type: 'adaptive' },
          output_config: { effort: expected },
        });
      }
    },
  );

  it('Gemini caller: a budget is kept on a classic model and bucketed on an adaptive one; includeThoughts false → display omitted', async () => {
    await gemini('claude-classic', {
      contents: geminiUser('t'),
      generationConfig: { thinkingConfig: { thinkingBudget: 3000 } },
    });
    expect(sentToAnthropic().body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    await gemini(
      'claude-classic',
      {
        contents: geminiUser('t'),
        generationConfig: { thinkingConfig: { thinkingBudget: 100, includeThoughts: false } },
      },
      true,
    );
    expect(sentToAnthropic().body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024, display: 'omitted' });
    await gemini('claude-adaptive', {
      contents: geminiUser('t'),
      generationConfig: { thinkingConfig: { thinkingBudget: 3000 } },
    });
    expect(sentToAnthropic().body).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
    });
    await gemini(
      'claude-adaptive',
      { contents: geminiUser('t'), generationConfig: { thinkingConfig: { thinkingLevel: 'LOW' } } },
      true,
    );
    expect(sentToAnthropic().body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    await gemini('claude-classic', {
      contents: geminiUser('t'),
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect(sentToAnthropic().body.thinking).toEqual({ type: 'disabled' });
  });

  it('leaves thinking off with a forced tool choice, and in a tool loop with no signed thinking to replay (which Anthropic refuses)', async () => {
    const tools = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const forced = await openai({
      model: 'claude-classic',
      reasoning_effort: 'high',
      tools,
      tool_choice: 'required',
      messages: user('w'),
    });
    expect(forced.status).toBe(200);
    expect(sentToAnthropic().body).not.toHaveProperty('thinking');
    const loop = await openai({
      model: 'claude-adaptive',
      reasoning_effort: 'high',
      tools,
      messages: [
        ...user('w'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(loop.status).toBe(200);
    expect(sentToAnthropic().body).not.toHaveProperty('thinking');
  });

  it('recognises adaptive-thinking model ids (the unverified default)', () => {
    expect(
      [
        'claude-opus-4-7',
        'claude-opus-4-7-20260401',
        'claude-sonnet-4-6',
        'anthropic/claude-sonnet-4-6',
        'anthropic.claude-opus-4-8-v1:0',
        'claude-opus-5',
        'claude-haiku-5-0',
      ].every(supportsAdaptiveThinking),
    ).toBe(true);
    expect(
      [
        'claude-opus-4-6',
        'claude-sonnet-4-5',
        'claude-sonnet-4-20250514',
        'claude-3-7-sonnet-20250219',
        'claude-haiku-4-5',
        'echo',
      ].some(supportsAdaptiveThinking),
    ).toBe(false);
    expect(() => new AnthropicProvider({ adaptiveThinking: true as unknown as () => boolean })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'adaptiveThinking' }),
    );
  });
});

describe('structured output', () => {
  const schema = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };

  it('OpenAI json_schema → Anthropic output_config.format; json_object → a schema admitting any object', async () => {
    for (const stream of [false, true]) {
      await openai({
        model: 'claude-classic',
        stream,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
        messages: user('j'),
      });
      expect(sentToAnthropic().body.output_config).toEqual({ format: { type: 'json_schema', schema } });
      await openai({ model: 'claude-classic', stream, response_format: { type: 'json_object' }, messages: user('j') });
      expect(sentToAnthropic().body.output_config).toEqual({
        format: { type: 'json_schema', schema: { type: 'object' } },
      });
      await openai({ model: 'claude-classic', stream, response_format: { type: 'text' }, messages: user('j') });
      expect(sentToAnthropic().body).not.toHaveProperty('output_config');
    }
  });

  it('an effort and a format share output_config on an adaptive model', async () => {
    await openai({
      model: 'claude-adaptive',
      reasoning_effort: 'medium',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
      messages: user('j'),
    });
    expect(sentToAnthropic().body.output_config).toEqual({ effort: 'medium', format: { type: 'json_schema', schema } });
  });

  it('Anthropic output_config.format → OpenAI response_format json_schema (named "response", strictness left to the upstream)', async () => {
    for (const stream of [false, true]) {
      const res = await anthropic({
        model: 'oai-plain',
        max_tokens: 50,
        stream,
        output_config: { format: { type: 'json_schema', schema } },
        messages: user('j'),
      });
      expect(res.status).toBe(200);
      expect(sentToOpenAI().response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'response', schema },
      });
    }
  });

  it('Gemini responseJsonSchema / JSON mime type → both upstreams', async () => {
    await gemini('oai-plain', {
      contents: geminiUser('j'),
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(sentToOpenAI().response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema } });
    await gemini(
      'oai-plain',
      { contents: geminiUser('j'), generationConfig: { responseMimeType: 'application/json' } },
      true,
    );
    expect(sentToOpenAI().response_format).toEqual({ type: 'json_object' });
    await gemini(
      'claude-classic',
      {
        contents: geminiUser('j'),
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
      },
      true,
    );
    expect(sentToAnthropic().body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    await gemini('claude-classic', {
      contents: geminiUser('j'),
      generationConfig: { responseMimeType: 'application/json' },
    });
    expect(sentToAnthropic().body.output_config).toEqual({
      format: { type: 'json_schema', schema: { type: 'object' } },
    });
  });
});

describe('tool_choice and parallel tool calls', () => {
  const openaiTools = [
    {
      type: 'function',
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    },
    { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
  ];
  const anthropicTools = [
    { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
    { name: 'get_time', input_schema: { type: 'object', properties: {} } },
  ];

  it.each([
    ['auto', 'auto', { type: 'auto' }],
    ['none', 'none', { type: 'none' }],
    ['required', 'required', { type: 'any' }],
    ['named', { type: 'function', function: { name: 'get_time' } }, { type: 'tool', name: 'get_time' }],
  ])('OpenAI %s → Anthropic', async (_name, choice, expected) => {
    for (const stream of [false, true]) {
      const res = await openai({
        model: 'claude-classic',
        stream,
        tools: openaiTools,
        tool_choice: choice,
        messages: user('t'),
      });
      expect(res.status).toBe(200);
      expect(sentToAnthropic().body.tool_choice).toEqual(expected);
    }
  });

  it('OpenAI parallel_tool_calls:false → disable_parallel_tool_use, with or without a tool_choice', async () => {
    await openai({ model: 'claude-classic', tools: openaiTools, parallel_tool_calls: false, messages: user('t') });
    expect(sentToAnthropic().body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    await openai({
      model: 'claude-classic',
      stream: true,
      tools: openaiTools,
      tool_choice: 'required',
      parallel_tool_calls: false,
      messages: user('t'),
    });
    expect(sentToAnthropic().body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    await openai({ model: 'claude-classic', tools: openaiTools, parallel_tool_calls: true, messages: user('t') });
    expect(sentToAnthropic().body).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['auto', { type: 'auto' }, 'auto'],
    ['none', { type: 'none' }, 'none'],
    ['any', { type: 'any' }, 'required'],
    ['tool', { type: 'tool', name: 'get_time' }, { type: 'function', function: { name: 'get_time' } }],
  ])('Anthropic %s → OpenAI', async (_name, choice, expected) => {
    for (const stream of [false, true]) {
      const res = await anthropic({
        model: 'oai-plain',
        max_tokens: 50,
        stream,
        tools: anthropicTools,
        tool_choice: choice,
        messages: user('t'),
      });
      expect(res.status).toBe(200);
      expect(sentToOpenAI().tool_choice).toEqual(expected);
      expect(sentToOpenAI()).not.toHaveProperty('parallel_tool_calls');
    }
  });

  it('Anthropic disable_parallel_tool_use → parallel_tool_calls:false', async () => {
    await anthropic({
      model: 'oai-plain',
      max_tokens: 50,
      tools: anthropicTools,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: user('t'),
    });
    expect(sentToOpenAI()).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: false });
  });

  it('parallel calls from an OpenAI upstream reach an Anthropic caller as tool_use blocks, streamed and not', async () => {
    const expected = [
      { type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Oslo', unit: 'C' } },
      { type: 'tool_use', id: 'call_t2', name: 'get_time', input: { zone: 'CET' } },
    ];
    // `text-tools` reasons in `reasoning`: its first call's id carries that field, learned for the next turn.
    const withoutCarrier = (blocks: Json[]) =>
      blocks.map((block) => ({ ...block, id: splitToolId(block.id).id, carried: splitToolId(block.id).carried }));
    const learned = { vendor: 'openai-compatible', signature: 'reasoning openai' };
    const res = await anthropic({
      model: 'oai-text-tools',
      max_tokens: 50,
      tools: anthropicTools,
      messages: user('t'),
    });
    expect(withoutCarrier(res.json.content.filter((block: Json) => block.type === 'tool_use'))).toEqual([
      { ...expected[0], carried: learned },
      { ...expected[1], carried: undefined },
    ]);
    expect(res.json.stop_reason).toBe('tool_use');
    for (const model of ['oai-text-tools', 'oai-interleaved', 'oai-no-index']) {
      const streamed = await anthropic({
        model,
        max_tokens: 50,
        stream: true,
        tools: anthropicTools,
        messages: user('t'),
      });
      const events = anthropicEvents(streamed.text);
      const blocks = anthropicBlocks(events);
      expect(withoutCarrier(blocks.filter((block) => block.type === 'tool_use'))).toEqual([
        { ...expected[0], carried: model === 'oai-text-tools' ? learned : undefined },
        { ...expected[1], carried: undefined },
      ]);
      expect(events.find((event) => event.type === 'message_delta')!.delta.stop_reason).toBe('tool_use');
    }
  });

  it('parallel calls from an Anthropic upstream reach an OpenAI caller with their own indexes, streamed and not', async () => {
    const res = await openai({ model: 'claude-tools', tools: openaiTools, messages: user('t') });
    expect(res.json.choices[0].message.tool_calls.map((call: Json) => JSON.parse(call.function.arguments))).toEqual([
      { city: 'Oslo' },
      { zone: 'CET' },
    ]);
    const chunks = openaiChunks(
      (await openai({ model: 'claude-tools', stream: true, tools: openaiTools, messages: user('t') })).text,
    );
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    expect(
      [0, 1].map((index) =>
        calls
          .filter((call: Json) => call.index === index)
          .map((call: Json) => call.function.arguments)
          .join(''),
      ),
    ).toEqual(['{"city":"Oslo"}', '{"zone":"CET"}']);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('tool_calls');
  });
});

describe('stop sequences, finish reasons and output caps', () => {
  it('Anthropic’s matched stop_sequence reaches an Anthropic caller, streamed and not', async () => {
    const res = await anthropic({
      model: 'claude-stop',
      max_tokens: 50,
      stop_sequences: ['END', 'STOP'],
      messages: user('x'),
    });
    expect(res.json).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(sentToAnthropic().body.stop_sequences).toEqual(['END', 'STOP']);
    const streamed = anthropicEvents(
      (
        await anthropic({
          model: 'claude-stop',
          max_tokens: 50,
          stream: true,
          stop_sequences: ['END'],
          messages: user('x'),
        })
      ).text,
    );
    expect(streamed.find((event) => event.type === 'message_delta')!.delta).toMatchObject({
      stop_reason: 'stop_sequence',
      stop_sequence: 'END',
    });
  });

  it('OpenAI stop → Anthropic stop_sequences; the match comes back as finish_reason stop', async () => {
    const res = await openai({ model: 'claude-stop', stop: ['END'], messages: user('x') });
    expect(sentToAnthropic().body.stop_sequences).toEqual(['END']);
    expect(res.json.choices[0].finish_reason).toBe('stop');
    const chunks = openaiChunks(
      (await openai({ model: 'claude-stop', stream: true, stop: 'END', messages: user('x') })).text,
    );
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
  });

  it('Anthropic stop_sequences → OpenAI stop (at most 4); the upstream cannot say which matched: end_turn', async () => {
    const res = await anthropic({
      model: 'oai-plain',
      max_tokens: 50,
      stop_sequences: ['a', 'b', 'c', 'd', 'e'],
      messages: user('x'),
    });
    expect(sentToOpenAI().stop).toEqual(['a', 'b', 'c', 'd']);
    expect(res.json).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
  });

  it('length ↔ max_tokens in both directions, streamed and not', async () => {
    expect((await anthropic({ model: 'oai-length', max_tokens: 5, messages: user('x') })).json.stop_reason).toBe(
      'max_tokens',
    );
    const events = anthropicEvents(
      (await anthropic({ model: 'oai-length', max_tokens: 5, stream: true, messages: user('x') })).text,
    );
    expect(events.find((event) => event.type === 'message_delta')!.delta.stop_reason).toBe('max_tokens');
    expect((await openai({ model: 'claude-max', messages: user('x') })).json.choices[0].finish_reason).toBe('length');
    expect(
      openaiChunks((await openai({ model: 'claude-max', stream: true, messages: user('x') })).text).at(-1)!.choices[0]
        .finish_reason,
    ).toBe('length');
  });

  it('an OpenAI refusal reaches an Anthropic caller as its text with stop_reason refusal, streamed and not', async () => {
    const res = await anthropic({ model: 'oai-refusal', max_tokens: 5, messages: user('x') });
    expect(res.json).toMatchObject({
      stop_reason: 'refusal',
      content: [{ type: 'text', text: "I can't help with that." }],
    });
    const events = anthropicEvents(
      (await anthropic({ model: 'oai-refusal', max_tokens: 5, stream: true, messages: user('x') })).text,
    );
    expect(anthropicBlocks(events)).toEqual([{ type: 'text', text: "I can't help with that.", citations: [] }]);
    expect(events.find((event) => event.type === 'message_delta')!.delta.stop_reason).toBe('refusal');
  });

  it('a stream that ends with [DONE] but no finish_reason still finishes', async () => {
    const events = anthropicEvents(
      (await anthropic({ model: 'oai-done', max_tokens: 50, stream: true, messages: user('done') })).text,
    );
    expect(anthropicBlocks(events)[0]).toMatchObject({ type: 'text', text: 'upstream says: done' });
    expect(events.at(-1)!.type).toBe('message_stop');
  });

  it('a caller without an output cap: Anthropic gets the model’s cap (or the gateway default); OpenAI gets it too', async () => {
    await openai({ model: 'claude-classic', messages: user('x') });
    expect(sentToAnthropic().body.max_tokens).toBe(4096);
    await openai({ model: 'claude-capped', stream: true, messages: user('x') });
    expect(sentToAnthropic().body.max_tokens).toBe(3000);
    await gemini('claude-capped', { contents: geminiUser('x') });
    expect(sentToAnthropic().body.max_tokens).toBe(3000);
    await gemini('oai-plain', { contents: geminiUser('x') }, true);
    expect(sentToOpenAI().max_tokens).toBe(4096);
    await openai({ model: 'oai-plain', messages: user('x') });
    expect(sentToOpenAI().max_tokens).toBe(4096);
  });
});

describe('end-user ids and system prompts', () => {
  it('an Anthropic metadata.user_id longer than OpenAI takes is sent as its SHA-256', async () => {
    const long = JSON.stringify({
      device_id: 'd'.repeat(64),
      account_uuid: '',
      session_id: '123e4567-e89b-12d3-a456-426614174000',
    });
    await anthropic({ model: 'oai-plain', max_tokens: 10, metadata: { user_id: long }, messages: user('x') });
    expect(sentToOpenAI().user).toBe(createHash('sha256').update(long).digest('hex'));
    await anthropic({ model: 'oai-plain', max_tokens: 10, metadata: { user_id: 'user-7' }, messages: user('x') });
    expect(sentToOpenAI().user).toBe('user-7');
  });

  it('every system prompt is folded into one leading system message; separate blocks stay apart', async () => {
    await anthropic({
      model: 'oai-plain',
      max_tokens: 10,
      system: [
        { type: 'text', text: 'First.' },
        { type: 'text', text: 'Second.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<reminder>r</reminder>' },
            { type: 'text', text: 'hi' },
          ],
        },
        { role: 'system', content: 'Mid-conversation.' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(sentToOpenAI().messages).toEqual([
      { role: 'system', content: 'First.\n\nSecond.\n\nMid-conversation.' },
      { role: 'user', content: '<reminder>r</reminder>\n\nhi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('images inside tool results follow the tool messages in a user turn (tool messages take text only)', async () => {
    const res = await anthropic({
      model: 'oai-plain',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} },
            { type: 'tool_use', id: 'toolu_2', name: 'read', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }],
            },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'file text' },
            { type: 'text', text: 'what is it?' },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(sentToOpenAI().messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_1', content: '(the result is the image(s) in the next message)' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'file text' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool calls above:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
        ],
      },
      { role: 'user', content: 'what is it?' },
    ]);
  });
});

describe('errors inside a stream', () => {
  it('an OpenAI-compatible error chunk reaches an Anthropic caller as event: error of the matching type', async () => {
    for (const [model, type] of [
      ['oai-overloaded', 'overloaded_error'],
      ['oai-rate-limited', 'rate_limit_error'],
    ] as const) {
      const res = await anthropic({ model, max_tokens: 20, stream: true, messages: user('x') });
      expect(res.status).toBe(200);
      const events = anthropicEvents(res.text);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { type } });
      expect(events.some((event) => event.type === 'message_stop')).toBe(false);
    }
  });

  it('an OpenAI-compatible error chunk reaches a Gemini caller as an error chunk with its status', async () => {
    const res = await gemini('oai-overloaded', { contents: geminiUser('x') }, true);
    expect(geminiChunks(res.text).at(-1)).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
  });

  it('maps error chunks by HTTP-like code, then by type or code label', () => {
    const kind = (error: unknown) => chatStreamError(error, JSON.stringify({ error }), 'up').kind;
    expect(kind({ code: 502, message: 'x' })).toBe('upstream');
    expect(kind({ code: '503', message: 'x' })).toBe('overloaded');
    expect(kind({ code: 429, message: 'x' })).toBe('rate_limit');
    expect(kind({ type: 'overloaded_error', message: 'x' })).toBe('overloaded');
    expect(kind({ type: 'tokens', code: 'rate_limit_exceeded', message: 'x' })).toBe('rate_limit');
    expect(kind({ type: 'server_error', code: null, message: 'x' })).toBe('upstream');
    const anthropicKind = (type: string) =>
      streamErrorEvent({ error: { type } }, JSON.stringify({ type: 'error', error: { type, message: 'x' } }), 'up')
        .kind;
    expect(['overloaded_error', 'rate_limit_error', 'timeout_error', 'api_error'].map(anthropicKind)).toEqual([
      'overloaded',
      'rate_limit',
      'upstream_timeout',
      'upstream',
    ]);
  });
});
