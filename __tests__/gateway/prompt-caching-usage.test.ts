/**
 * Cached and cache-write token counts reach every caller's usage shape, and the cache prices reach the
 * bill (issue 23 part 6): Gemini's implicit caching for Anthropic, OpenAI and Responses callers,
 * streamed and not; OpenAI's `prompt_cache_key` across OpenAI callers and upstreams (and an Anthropic
 * caller's `metadata.user_id` standing for one); the cache writes of OpenRouter and LiteLLM fronting
 * Claude. Judges: the caching mock (`mock-prompt-cache.ts`) and the official SDKs reading the usage.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { OUTPUT_TOKENS, startMockPromptCache, type MockPromptCache } from '../helpers/mock-prompt-cache';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-prompt-cache-usage-1';
const SYSTEM = `You are the handbook assistant. ${'Rules of the house, at length. '.repeat(60)}`;

let mock: MockPromptCache;
let server: RunningGateway;
let quota: RecordingQuotaStore;

beforeAll(async () => {
  mock = await startMockPromptCache();
  const price = { input: 1, output: 1 };
  const models: ModelConfig[] = [
    { id: 'flash', provider: 'gemini', upstreamModel: 'gemini-2.5-flash', pricing: price },
    { id: 'gpt', provider: 'openai', upstreamModel: 'gpt-5-mini', pricing: price },
    { id: 'gpt-responses', provider: 'openai', upstreamModel: 'gpt-5-mini-responses', pricing: price },
    { id: 'router-claude', provider: 'openai', upstreamModel: 'anthropic/claude-sonnet-4.6', pricing: price },
    { id: 'litellm-claude', provider: 'openai', upstreamModel: 'litellm/claude-sonnet-4-6', pricing: price },
    { id: 'claude-auto', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6', pricing: price },
  ];
  quota = new RecordingQuotaStore({ balances: { caller: 100_000_000 } });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new GeminiProvider({ baseUrl: `${mock.origin}/v1beta`, apiKey: 'up', retries: { max: 0 } }),
      new OpenAIProvider({
        baseUrl: `${mock.origin}/v1`,
        apiKey: 'up',
        responsesModels: ['gpt-5-mini-responses'],
        retries: { max: 0 },
      }),
      new AnthropicProvider({ baseUrl: mock.origin, apiKey: 'up', promptCaching: 'auto', retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const openai = () => new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
const lastBody = (): Json => mock.requests.at(-1)!.body;

/** Each caller's call, the second time with the same prompt: its own usage block as its SDK reads it. */
const CALLERS = {
  anthropic: async (model: string, system: string, stream: boolean) => {
    const body = {
      model,
      max_tokens: 100,
      system,
      messages: [{ role: 'user' as const, content: 'What about pets?' }],
      metadata: { user_id: 'user_7_session_42' },
    };
    const message = stream
      ? await anthropic().messages.stream(body).finalMessage()
      : await anthropic().messages.create(body);
    return message.usage as unknown as Json;
  },
  'openai-chat': async (model: string, system: string, stream: boolean) => {
    const body = {
      model,
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: 'What about pets?' },
      ],
    };
    if (!stream) return (await openai().chat.completions.create(body)).usage as unknown as Json;
    let usage: Json | undefined;
    const chunks = await openai().chat.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage as unknown as Json;
    return usage!;
  },
  'openai-responses': async (model: string, system: string, stream: boolean) => {
    const body = { model, instructions: system, input: 'What about pets?' };
    if (!stream) return (await openai().responses.create(body)).usage as unknown as Json;
    const response = await openai().responses.stream(body).finalResponse();
    return response.usage as unknown as Json;
  },
};

describe.each([false, true])('Gemini implicit caching reaches every caller (stream: %s)', (stream) => {
  it('Anthropic: cache_read_input_tokens, and input_tokens without them', async () => {
    const system = `${SYSTEM} anthropic ${stream}`;
    await CALLERS.anthropic('flash', system, stream);
    const usage = await CALLERS.anthropic('flash', system, stream);
    const prompt = lastBody().usage;
    expect(prompt).toBeUndefined();
    expect(usage.cache_read_input_tokens).toBeGreaterThan(system.length);
    expect(usage.input_tokens).toBe(0);
    expect(usage.cache_creation_input_tokens).toBe(0);
  });

  it('OpenAI chat: prompt_tokens_details.cached_tokens', async () => {
    const system = `${SYSTEM} chat ${stream}`;
    await CALLERS['openai-chat']('flash', system, stream);
    const usage = await CALLERS['openai-chat']('flash', system, stream);
    expect(usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(system.length);
    expect(usage.prompt_tokens).toBe(usage.prompt_tokens_details.cached_tokens);
  });

  it('Responses: input_tokens_details.cached_tokens', async () => {
    const system = `${SYSTEM} responses ${stream}`;
    await CALLERS['openai-responses']('flash', system, stream);
    const usage = await CALLERS['openai-responses']('flash', system, stream);
    expect(usage.input_tokens_details.cached_tokens).toBeGreaterThan(system.length);
  });
});

describe('OpenAI prompt_cache_key', () => {
  it('a Responses caller’s key and retention reach a chat-completions upstream, which reads by them', async () => {
    const body = {
      model: 'gpt',
      instructions: `${SYSTEM} keyed`,
      input: 'Hello',
      prompt_cache_key: 'tenant-9',
      prompt_cache_retention: '24h',
    };
    await openai().responses.create(body as never);
    expect(lastBody()).toMatchObject({ prompt_cache_key: 'tenant-9', prompt_cache_retention: '24h' });
    const second = await openai().responses.create(body as never);
    expect(second.usage?.input_tokens_details.cached_tokens).toBeGreaterThan(SYSTEM.length);
    expect(second.prompt_cache_key).toBe('tenant-9');
  });

  it('a chat-completions caller’s key reaches a Responses upstream', async () => {
    await openai().chat.completions.create({
      model: 'gpt-responses',
      messages: [{ role: 'user', content: 'Hi' }],
      prompt_cache_key: 'tenant-3',
    } as never);
    expect(mock.requests.at(-1)!.path).toMatch(/\/v1\/responses/);
    expect(lastBody().prompt_cache_key).toBe('tenant-3');
  });

  it('an Anthropic caller’s metadata.user_id stands for one: its second call reads the cache', async () => {
    const system = `${SYSTEM} user-keyed`;
    await CALLERS.anthropic('gpt', system, false);
    expect(lastBody().prompt_cache_key).toBe('user_7_session_42');
    const usage = await CALLERS.anthropic('gpt', system, false);
    expect(usage.cache_read_input_tokens).toBeGreaterThan(system.length);
    expect(usage.input_tokens).toBe(0);
  });
});

describe.each([
  ['OpenRouter', 'router-claude'],
  ['LiteLLM', 'litellm-claude'],
])('the cache writes of %s fronting Claude reach a chat-completions caller', (_name, model) => {
  /** The request carries a breakpoint: an OpenAI caller marks its system part, as OpenRouter documents. */
  const marked = (system: string) => ({
    model,
    messages: [
      { role: 'system', content: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'What about pets?' },
    ],
  });

  it('OpenAI chat: prompt_tokens_details.cache_write_tokens, then cached_tokens', async () => {
    const system = `${SYSTEM} ${model}`;
    const first = (await openai().chat.completions.create(marked(system) as never)) as Json;
    expect(first.usage.prompt_tokens_details.cache_write_tokens).toBeGreaterThan(system.length);
    const second = (await openai().chat.completions.create(marked(system) as never)) as Json;
    expect(second.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(system.length);
  });
});

describe('the cache prices reach the bill, through every caller', () => {
  /** What the settle charged for the next call. */
  async function charged(run: () => Promise<Json>): Promise<{ charge: number; usage: Json }> {
    const before = quota.settles.length;
    const usage = await run();
    while (quota.settles.length === before) await new Promise((resolve) => setImmediate(resolve));
    return { charge: quota.settles[before]!.actual, usage };
  }

  it.each(Object.keys(CALLERS) as Array<keyof typeof CALLERS>)(
    '%s caller of an Anthropic upstream: writes at 1.25, reads at 0.1 of the input price',
    async (caller) => {
      const system = `${SYSTEM} billed ${caller}`;
      const first = await charged(() => CALLERS[caller]('claude-auto', system, false));
      const written = mock.requests.at(-1)!;
      expect(written.path).toMatch(/\/v1\/messages/);
      const second = await charged(() => CALLERS[caller]('claude-auto', system, false));
      const read = readTokens(caller, second.usage);
      const total = inputTokens(caller, second.usage);
      expect(read).toBeGreaterThan(system.length);
      expect(second.charge).toBeCloseTo(total - read + read * 0.1 + OUTPUT_TOKENS, 6);
      const writes = writeTokens(caller, first.usage);
      expect(writes).toBeGreaterThan(system.length);
      expect(first.charge).toBeCloseTo(inputTokens(caller, first.usage) - writes + writes * 1.25 + OUTPUT_TOKENS, 6);
    },
  );
});

function readTokens(caller: keyof typeof CALLERS, usage: Json): number {
  if (caller === 'anthropic') return usage.cache_read_input_tokens;
  return caller === 'openai-chat'
    ? usage.prompt_tokens_details.cached_tokens
    : usage.input_tokens_details.cached_tokens;
}

function writeTokens(caller: keyof typeof CALLERS, usage: Json): number {
  if (caller === 'anthropic') return usage.cache_creation_input_tokens;
  return caller === 'openai-chat'
    ? usage.prompt_tokens_details.cache_write_tokens
    : usage.input_tokens_details.cache_write_tokens;
}

function inputTokens(caller: keyof typeof CALLERS, usage: Json): number {
  if (caller === 'anthropic')
    return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  return caller === 'openai-chat' ? usage.prompt_tokens : usage.input_tokens;
}
