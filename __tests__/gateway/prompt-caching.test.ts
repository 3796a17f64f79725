/**
 * Prompt caching through an Anthropic upstream from every caller (issue 23 part 6): a chat-completions
 * caller's `cache_control` (the OpenRouter / LiteLLM convention) reaches Anthropic at the right places,
 * more than four breakpoints and a 1-hour one after a 5-minute one are made valid rather than refused,
 * `promptCaching: 'auto'` caches for callers that cannot mark their prompts (Gemini, Responses), and a
 * Gemini caller's explicit cache reaches a Gemini upstream only. Judges: the mock that caches
 * (`mock-prompt-cache.ts`) and the official SDKs reading the usage.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, type ModelConfig } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { GEMINI_CACHE, startMockPromptCache, type MockPromptCache } from '../helpers/mock-prompt-cache';

const KEY = 'sk-prompt-cache-caller-1';
const SYSTEM = `You are the handbook assistant. ${'Rules of the house, at length. '.repeat(60)}`;

let mock: MockPromptCache;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockPromptCache();
  const models: ModelConfig[] = [
    { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6' },
    { id: 'claude-auto', provider: 'anthropic-auto', upstreamModel: 'claude-sonnet-4-6' },
    { id: 'gemini', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' },
  ];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new AnthropicProvider({ baseUrl: mock.origin, apiKey: 'up', retries: { max: 0 } }),
      new AnthropicProvider({
        name: 'anthropic-auto',
        baseUrl: mock.origin,
        apiKey: 'up',
        promptCaching: 'auto',
        retries: { max: 0 },
      }),
      new GeminiProvider({ baseUrl: `${mock.origin}/v1beta`, apiKey: 'up', retries: { max: 0 } }),
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
const genai = () =>
  new GoogleGenAI({
    apiKey: KEY,
    httpOptions: { baseUrl: server.url, fetch: (...args: Parameters<typeof fetch>) => fetch(...args) },
  });
const lastBody = (): Json => mock.requests.at(-1)!.body;
const marker = { type: 'ephemeral' };

/** Every `cache_control` of an Anthropic body, by where it stands. */
function breakpoints(body: Json): string[] {
  const found: string[] = [];
  const scan = (blocks: unknown, at: string) => {
    if (!Array.isArray(blocks)) return;
    blocks.forEach((block: Json, index: number) => {
      if (block.cache_control) found.push(`${at}[${index}]`);
    });
  };
  scan(body.tools, 'tools');
  scan(body.system, 'system');
  body.messages.forEach((message: Json, at: number) => {
    scan(message.content, `messages[${at}].content`);
  });
  return found;
}

async function post(path: string, body: unknown): Promise<{ status: number; body: Json; warnings: string | null }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-goog-api-key': KEY },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Json,
    warnings: response.headers.get('x-rosetta-warnings'),
  };
}

describe('a chat-completions caller’s cache_control reaches an Anthropic upstream', () => {
  const request = (question: string, history: Json[] = []) => ({
    model: 'claude',
    messages: [
      { role: 'system', content: [{ type: 'text', text: SYSTEM, cache_control: marker }] },
      ...history,
      { role: 'user', content: [{ type: 'text', text: question, cache_control: marker }] },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
        cache_control: marker,
      },
    ],
  });

  it.each([false, true])(
    'on the tools, the system prompt and the turn; the next turn reads it (stream: %s)',
    async (stream) => {
      const first = `First question ${stream}`;
      const write = stream
        ? await collectUsage(
            openai().chat.completions.create({
              ...(request(first) as any),
              stream: true,
              stream_options: { include_usage: true },
            }) as unknown as Promise<AsyncIterable<{ usage?: unknown }>>,
          )
        : (await openai().chat.completions.create(request(first) as any)).usage!;
      expect(breakpoints(lastBody())).toEqual(['tools[0]', 'system[0]', 'messages[0].content[0]']);
      expect(lastBody().tools[0].cache_control).toEqual(marker);
      // The other test of the pair may have written the tools and the system prompt already: read now.
      const details = write.prompt_tokens_details as Json;
      expect(details.cache_write_tokens).toBeGreaterThan(0);
      expect(details.cache_write_tokens + details.cached_tokens).toBeGreaterThan(SYSTEM.length);
      const history = [
        { role: 'user', content: first },
        { role: 'assistant', content: 'From the cache.' },
      ];
      const next = (await openai().chat.completions.create(request('Second question', history) as any)).usage!;
      expect(next.prompt_tokens_details?.cached_tokens).toBeGreaterThan(SYSTEM.length);
      expect(next.prompt_tokens).toBeGreaterThan(next.prompt_tokens_details!.cached_tokens!);
    },
  );

  it('keeps at most four breakpoints (the conversation’s earliest dropped, with a warning): never a 400', async () => {
    const turns = [1, 2, 3, 4].map((n) => ({
      role: 'user',
      content: [{ type: 'text', text: `Turn ${n}`, cache_control: marker }],
    }));
    const { status, warnings } = await post('/v1/chat/completions', {
      ...request(
        'Last',
        turns.flatMap((turn) => [turn, { role: 'assistant', content: 'ok' }]),
      ),
    });
    expect(status).toBe(200);
    expect(breakpoints(lastBody())).toHaveLength(4);
    expect(breakpoints(lastBody()).slice(0, 2)).toEqual(['tools[0]', 'system[0]']);
    expect(lastBody().messages.at(-1).content[0].cache_control).toEqual(marker);
    expect(warnings).toMatch(/unsupported-setting=cache_control/);
  });
});

async function collectUsage(stream: Promise<AsyncIterable<{ usage?: unknown }>>): Promise<Json> {
  let usage: Json | undefined;
  for await (const chunk of await stream) if (chunk.usage) usage = chunk.usage as Json;
  return usage!;
}

describe('an Anthropic caller’s breakpoints are made valid', () => {
  it('a 1-hour breakpoint after a 5-minute one goes as a 5-minute one (Anthropic refuses that order)', async () => {
    const message = await anthropic().messages.create({
      model: 'claude',
      max_tokens: 100,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    });
    expect(message.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(lastBody().messages[0].content[0].cache_control).toEqual({ type: 'ephemeral', ttl: '5m' });
  });

  it('five breakpoints from Claude Code go as four', async () => {
    const { status } = await post('/v1/messages', {
      model: 'claude',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc', cache_control: marker },
        { type: 'text', text: SYSTEM, cache_control: marker },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'One', cache_control: marker }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'Two', cache_control: marker }] },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object' }, cache_control: marker }],
    });
    expect(status).toBe(200);
    expect(breakpoints(lastBody())).toEqual(['tools[0]', 'system[0]', 'system[1]', 'messages[2].content[0]']);
  });
});

describe("promptCaching: 'auto' caches for callers that cannot mark a prompt", () => {
  it('a Gemini caller: the second call reads the system prompt and the turn (cachedContentTokenCount)', async () => {
    const call = () =>
      genai().models.generateContent({
        model: 'claude-auto',
        contents: 'What does the handbook say about pets?',
        config: { systemInstruction: `${SYSTEM} Gemini edition.` },
      });
    const first = await call();
    expect(breakpoints(lastBody())).toEqual(['system[0]', 'messages[0].content[0]']);
    expect(first.usageMetadata?.cachedContentTokenCount ?? 0).toBe(0);
    const second = await call();
    expect(second.usageMetadata?.cachedContentTokenCount).toBeGreaterThan(SYSTEM.length);
    expect(second.usageMetadata?.promptTokenCount).toBeGreaterThanOrEqual(
      second.usageMetadata!.cachedContentTokenCount!,
    );
  });

  it('a Responses caller with tools: the last tool, the instructions and the turn', async () => {
    const call = () =>
      openai().responses.create({
        model: 'claude-auto',
        instructions: SYSTEM,
        input: 'And about parking?',
        tools: [
          { type: 'function', name: 'a', parameters: { type: 'object' }, strict: false },
          { type: 'function', name: 'b', parameters: { type: 'object' }, strict: false },
        ],
      });
    await call();
    expect(breakpoints(lastBody())).toEqual(['tools[1]', 'system[0]', 'messages[0].content[0]']);
    const second = await call();
    expect(second.usage?.input_tokens_details.cached_tokens).toBeGreaterThan(SYSTEM.length);
  });

  it('adds none where the caller set its own, and none by default', async () => {
    await anthropic().messages.create({
      model: 'claude-auto',
      max_tokens: 10,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(breakpoints(lastBody())).toEqual(['system[0]']);
    await genai().models.generateContent({ model: 'claude', contents: 'Hello', config: { systemInstruction: SYSTEM } });
    expect(breakpoints(lastBody())).toEqual([]);
  });

  it('never on a deferred tool', async () => {
    const { status } = await post('/v1/messages', {
      model: 'claude-auto',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [
        { name: 'a', input_schema: { type: 'object' } },
        { name: 'b', input_schema: { type: 'object' }, defer_loading: true },
      ],
    });
    expect(status).toBe(200);
    expect(breakpoints(lastBody())).toEqual(['tools[0]', 'messages[0].content[0]']);
  });
});

describe('a Gemini caller’s explicit cache (cachedContent)', () => {
  it('reaches a Gemini upstream, whose cached tokens the caller reads', async () => {
    const response = await genai().models.generateContent({
      model: 'gemini',
      contents: 'Summarise the handbook.',
      config: { cachedContent: GEMINI_CACHE.name },
    });
    expect(lastBody().cachedContent).toBe(GEMINI_CACHE.name);
    expect(response.usageMetadata?.cachedContentTokenCount).toBe(GEMINI_CACHE.tokens);
  });

  it('is a 400 for any other upstream (the prompt would lose the cached contents)', async () => {
    const before = mock.requests.length;
    const { status, body } = await post('/v1beta/models/claude:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Summarise the handbook.' }] }],
      cachedContent: GEMINI_CACHE.name,
    });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/cachedContent/);
    expect(mock.requests.length).toBe(before);
  });
});
