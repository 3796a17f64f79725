/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai`) through the gateway: `createOpenAI({ baseURL, apiKey })(id)`
 * speaks the Responses API by default. generateText and streamText, from the local model and a
 * chat-completions upstream, with usage, and tool call round trips (`tool` with `execute`, `stopWhen`)
 * through the local model, a chat-completions upstream and an Anthropic one (its signature kept, also when the SDK's
 * default `store: true` sends it back as an `item_reference` to a gateway with a response store).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, MemoryResponseStore, type ModelConfig } from '../../lib';
import { AnthropicProvider } from '../../lib/providers/anthropic';
import { OpenAIProvider } from '../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { EXEC_THOUGHT, EXEC_TOOL } from '../helpers/exec-command';
import {
  EXEC_SIGNATURE,
  EXEC_TOOL_USE_ID,
  MOCK_ANTHROPIC_KEY,
  startMockAnthropic,
  type MockAnthropic,
} from '../helpers/mock-anthropic';
import { EXEC_CALL_ID, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-ai-sdk-key-0123456789';

const models: ModelConfig[] = [
  { id: 'rosetta-echo', provider: 'local' },
  { id: 'up-echo', provider: 'openai', upstreamModel: 'echo' },
  { id: 'up-exec', provider: 'openai', upstreamModel: 'exec-command' },
  { id: 'up-claude', provider: 'anthropic', upstreamModel: 'exec-command' },
];

// The SDK logs a warning per skipped reasoning part (a chat upstream's reasoning carries no encrypted_content).
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let mock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;
let openai: ReturnType<typeof createOpenAI>;

beforeAll(async () => {
  mock = await startMockOpenAI();
  anthropicMock = await startMockAnthropic();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'ai-sdk' }]),
    quotaStore: new MemoryQuotaStore({ balances: { 'ai-sdk': 100_000_000 } }),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: mock.url, apiKey: 'sk-upstream-openai-0001', retries: { baseDelayMs: 1 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
    ],
    models,
  });
  openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: KEY });
});
afterAll(async () => {
  await server.close();
  await Promise.all([mock.close(), anthropicMock.close()]);
});

/** Codex's shell tool as an AI SDK tool: `execute` answers with a random token, so only a round trip can show it. */
function execTool(token: string, calls: string[]) {
  return tool({
    description: 'Runs a shell command',
    inputSchema: z.object({ cmd: z.string() }),
    execute: async ({ cmd }) => {
      calls.push(cmd);
      return `${cmd}: ${token}`;
    },
  });
}

describe('AI SDK generateText with openai(id): the Responses API', () => {
  it('answers from the local model, with usage', async () => {
    const result = await generateText({
      model: openai('rosetta-echo'),
      prompt: 'Hello from the AI SDK',
      maxRetries: 0,
    });
    expect(result.text).toBe('Hello from the AI SDK');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens! + result.usage.outputTokens!);
  });

  it('answers from a chat-completions upstream, with its usage (cached tokens too)', async () => {
    const result = await generateText({
      model: openai('up-echo'),
      system: 'Be brief.',
      prompt: 'Hello upstream',
      maxRetries: 0,
    });
    expect(result.text).toBe('upstream says: Hello upstream');
    expect(result.usage).toMatchObject({ inputTokens: 11, outputTokens: 4, totalTokens: 15, cachedInputTokens: 2 });
    const sent = mock.requests.at(-1)!.body;
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello upstream' },
    ]);
  });

  it('a tool call round trip: the upstream calls the tool, execute runs, its output goes back, the answer quotes it', async () => {
    const token = `token-${randomBytes(8).toString('hex')}`;
    const calls: string[] = [];
    const before = mock.requests.length;
    const result = await generateText({
      model: openai('up-exec'),
      prompt: 'Show me the token.\nrun: cat token.txt',
      tools: { [EXEC_TOOL]: execTool(token, calls) },
      stopWhen: stepCountIs(3),
      // The gateway keeps no response state: the SDK resends whole items instead of item references.
      providerOptions: { openai: { store: false } },
      maxRetries: 0,
    });
    expect(calls).toEqual(['cat token.txt']);
    expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.steps[0]!.reasoningText).toBe(EXEC_THOUGHT);
    expect(result.text).toContain(token);
    expect(result.totalUsage.inputTokens).toBe(22);
    const [, second, ...more] = mock.requests.slice(before);
    expect(more).toEqual([]);
    const [assistant, toolResult] = (second!.body.messages as Array<Record<string, unknown>>).slice(-2);
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: EXEC_CALL_ID, function: { name: EXEC_TOOL, arguments: '{"cmd":"cat token.txt"}' } }],
    });
    expect(toolResult).toMatchObject({
      role: 'tool',
      tool_call_id: EXEC_CALL_ID,
      content: expect.stringContaining(token),
    });
  });

  it("a tool round trip through an Anthropic upstream: the thinking signature rides in the reasoning item's encrypted_content and comes back", async () => {
    const token = `token-${randomBytes(8).toString('hex')}`;
    const calls: string[] = [];
    const before = anthropicMock.requests.length;
    const result = await generateText({
      model: openai('up-claude'),
      prompt: 'Show me the token.\nrun: cat token.txt',
      tools: { [EXEC_TOOL]: execTool(token, calls) },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
      maxRetries: 0,
    });
    expect(calls).toEqual(['cat token.txt']);
    expect(result.text).toContain(token);
    const [, second, ...more] = anthropicMock.requests.slice(before);
    expect(more).toEqual([]);
    const [assistant, toolResult] = (second!.body.messages as Array<{ role: string; content: unknown }>).slice(-2);
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: EXEC_THOUGHT, signature: EXEC_SIGNATURE },
        { type: 'tool_use', id: EXEC_TOOL_USE_ID, name: EXEC_TOOL, input: { cmd: 'cat token.txt' } },
      ],
    });
    expect(JSON.stringify(toolResult)).toContain(token);
  });

  // With the default `store: true`, the SDK sends an earlier step's reasoning and text items as
  // `item_reference`s to their ids: a gateway with a response store resolves them.
  it('store: true (the default) after a step with reasoning: the item_reference resolved from the response store', async () => {
    const stored = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'ai-sdk' }]),
      quotaStore: new MemoryQuotaStore({ balances: { 'ai-sdk': 100_000_000 } }),
      responseStore: new MemoryResponseStore(),
      providers: [
        new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
      ],
      models: models.filter((model) => model.provider === 'anthropic'),
    });
    try {
      const sent: unknown[] = [];
      const recording: typeof fetch = (input, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
        return fetch(input, init);
      };
      const storing = createOpenAI({ baseURL: `${stored.url}/v1`, apiKey: KEY, fetch: recording });
      const token = `token-${randomBytes(8).toString('hex')}`;
      const calls: string[] = [];
      const before = anthropicMock.requests.length;
      const result = await generateText({
        model: storing('up-claude'),
        prompt: 'Show me the token.\nrun: cat token.txt',
        tools: { [EXEC_TOOL]: execTool(token, calls) },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      expect(calls).toEqual(['cat token.txt']);
      expect(result.text).toContain(token);
      const input = (sent[1] as { input: Array<{ type?: string }> }).input;
      expect(input.some((item) => item.type === 'item_reference')).toBe(true);
      const [, second, ...more] = anthropicMock.requests.slice(before);
      expect(more).toEqual([]);
      const [assistant] = (second!.body.messages as Array<{ role: string; content: unknown }>).slice(-2);
      expect(assistant).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: EXEC_THOUGHT, signature: EXEC_SIGNATURE },
          { type: 'tool_use', id: EXEC_TOOL_USE_ID, name: EXEC_TOOL, input: { cmd: 'cat token.txt' } },
        ],
      });
    } finally {
      await stored.close();
    }
  });

  it('a tool call round trip with the local model and the default store setting', async () => {
    const token = `token-${randomBytes(8).toString('hex')}`;
    const calls: string[] = [];
    const result = await generateText({
      model: openai('rosetta-echo'),
      prompt: `call ${EXEC_TOOL} {"cmd":"cat token.txt"}`,
      tools: { [EXEC_TOOL]: execTool(token, calls) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(calls).toEqual(['cat token.txt']);
    expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.text).toContain(token);
  });
});

describe('AI SDK streamText with openai(id): the Responses API', () => {
  it("streams the local model's answer, with usage", async () => {
    const result = streamText({ model: openai('rosetta-echo'), prompt: 'Stream me please', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Stream me please');
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  it("streams a chat-completions upstream's answer, with its usage", async () => {
    const result = streamText({ model: openai('up-echo'), prompt: 'Stream upstream', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('upstream says: Stream upstream');
    expect(await result.usage).toMatchObject({
      inputTokens: 11,
      outputTokens: 4,
      totalTokens: 15,
      cachedInputTokens: 2,
    });
  });

  it('a streamed tool call round trip through a chat-completions upstream', async () => {
    const token = `token-${randomBytes(8).toString('hex')}`;
    const calls: string[] = [];
    const result = streamText({
      model: openai('up-exec'),
      prompt: 'Show me the token.\nrun: cat token.txt',
      tools: { [EXEC_TOOL]: execTool(token, calls) },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: false } },
      maxRetries: 0,
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toEqual(
      expect.arrayContaining(['reasoning-delta', 'tool-call', 'tool-result', 'text-delta', 'finish']),
    );
    expect(parts).not.toContain('error');
    expect(calls).toEqual(['cat token.txt']);
    expect(await result.text).toContain(token);
    expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect((await result.totalUsage).outputTokens).toBe(18);
  });
});
