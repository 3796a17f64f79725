/**
 * Prompt-cache breakpoints to OpenAI-compatible upstreams that front Claude (OpenRouter, LiteLLM): Claude Code's
 * `cache_control` (on system blocks, its last tool, the latest user turn or tool result) reaches them on the content
 * part, tool or tool message it was set on, so its second turn reads the first's prefix; at most four are sent; the
 * `cacheControl` option and the host defaults (never to OpenAI). Judges: the caching mock's OpenRouter and LiteLLM
 * dialects (`mock-prompt-cache.ts`, which cache only at markers and refuse a fifth) and the Anthropic SDK's
 * accumulated usage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MemoryKeyStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { cacheControlFor } from '../../lib/providers/openai/cache-markers';
import { presetFor } from '../../lib/providers/openai/presets';

/** The `cacheControl` option resolved for a provider at `baseUrl`. */
const cacheControlAt = (option: unknown, baseUrl: string) => cacheControlFor(option, presetFor(baseUrl).cacheMarkers);
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockPromptCache, type MockPromptCache } from '../helpers/mock-prompt-cache';

const KEY = 'sk-prompt-cache-compatible-1';

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
const TURN_1 = fixture('messages-turn-1.json');
const TURN_2 = fixture('messages-turn-2.json');

let mock: MockPromptCache;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockPromptCache();
  const models: ModelConfig[] = [
    { id: 'router-claude', provider: 'openai', upstreamModel: 'anthropic/claude-sonnet-4.6' },
    { id: 'litellm-claude', provider: 'openai', upstreamModel: 'litellm/claude-sonnet-4-6' },
    { id: 'dropped-claude', provider: 'no-markers', upstreamModel: 'anthropic/claude-sonnet-4.6' },
  ];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new OpenAIProvider({ baseUrl: `${mock.origin}/v1`, apiKey: 'up', retries: { max: 0 } }),
      new OpenAIProvider({
        name: 'no-markers',
        baseUrl: `${mock.origin}/v1`,
        apiKey: 'up',
        cacheControl: 'drop',
        retries: { max: 0 },
      }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const anthropic = () => new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
const openai = () => new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
const lastBody = (): Json => mock.requests.at(-1)!.body;

/**
 * One Claude Code turn (a recorded-shape body, streamed as Claude Code streams) through the SDK's accumulator; its
 * first system block names the model, so each dialect's cache starts cold.
 */
async function claudeCodeTurn(body: Json, model: string): Promise<Anthropic.Message> {
  const { stream: _stream, system, ...params } = body;
  params.system = [{ ...system[0], text: `${system[0].text} ${model}` }, ...system.slice(1)];
  return anthropic()
    .messages.stream({ ...params, model } as unknown as Anthropic.MessageStreamParams)
    .finalMessage();
}

/** Where the chat body carries `cache_control`: `tools[i]`, `messages[i].content[j]`, `messages[i]`. */
function markers(body: Json): string[] {
  const found: string[] = [];
  body.tools?.forEach((tool: Json, index: number) => {
    if (tool.cache_control) found.push(`tools[${index}]`);
  });
  body.messages.forEach((message: Json, at: number) => {
    if (message.cache_control) found.push(`messages[${at}]`);
    if (Array.isArray(message.content))
      message.content.forEach((part: Json, index: number) => {
        if (part.cache_control) found.push(`messages[${at}].content[${index}]`);
      });
  });
  return found;
}

describe.each([
  ['OpenRouter', 'router-claude'],
  ['LiteLLM', 'litellm-claude'],
])('Claude Code through %s fronting Claude', (_name, model) => {
  it('turn 2 reads what turn 1 wrote (cache_read_input_tokens), the markers where Claude Code set them', async () => {
    const first = await claudeCodeTurn(TURN_1, model);
    const sent = lastBody();
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content.map((part: Json) => part.cache_control ?? null)).toEqual([
      null,
      { type: 'ephemeral' },
      { type: 'ephemeral' },
      null,
    ]);
    const toolAt = TURN_1.tools.findIndex((tool: Json) => tool.cache_control);
    expect(markers(sent)).toEqual([
      `tools[${toolAt}]`,
      'messages[0].content[1]',
      'messages[0].content[2]',
      'messages[1].content[1]',
    ]);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(first.usage.cache_read_input_tokens).toBe(0);

    const second = await claudeCodeTurn(TURN_2, model);
    const body = lastBody();
    const results = body.messages.filter((message: Json) => message.role === 'tool');
    expect(results).toHaveLength(2);
    expect(Array.isArray(results[1].content) && results[1].content.at(-1).cache_control).toEqual({
      type: 'ephemeral',
    });
    expect(markers(body)).toHaveLength(4);
    expect(second.usage.cache_read_input_tokens).toBeGreaterThanOrEqual(first.usage.cache_creation_input_tokens!);
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});

describe('at most four breakpoints, as Claude takes', () => {
  it('five from a chat-completions caller go as four (the conversation’s earliest dropped, a warning): no 400', async () => {
    const mark = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const { data, response } = await openai()
      .chat.completions.create({
        model: 'router-claude',
        messages: [
          { role: 'system', content: [mark(`Rules. ${'At length. '.repeat(40)}`)] },
          { role: 'user', content: [mark('one'), mark('two')] },
          { role: 'assistant', content: 'Noted.' },
          { role: 'user', content: [mark('three'), mark('four')] },
        ],
      } as never)
      .withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(markers(lastBody())).toEqual([
      'messages[0].content[0]',
      'messages[1].content[1]',
      'messages[3].content[0]',
      'messages[3].content[1]',
    ]);
    expect(response.headers.get('x-rosetta-warnings')).toMatch(/unsupported-setting=cache_control/);
  });
});

describe('the cacheControl option', () => {
  it("'drop': neither a chat caller’s nor Claude Code’s markers are sent", async () => {
    await claudeCodeTurn(TURN_1, 'dropped-claude');
    expect(markers(lastBody())).toEqual([]);
    expect(typeof lastBody().messages[0].content).toBe('string');
    await openai().chat.completions.create({
      model: 'dropped-claude',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
    } as never);
    expect(markers(lastBody())).toEqual([]);
  });

  it('by host: OpenRouter for the models it documents breakpoints for, never OpenAI, Claude models elsewhere', () => {
    const router = cacheControlAt(undefined, 'https://openrouter.ai/api/v1');
    expect(['anthropic/claude-sonnet-4.6', 'google/gemini-2.5-pro', 'qwen/qwen3-max'].map(router)).toEqual([
      'all',
      'all',
      'all',
    ]);
    expect(['openai/gpt-5', 'deepseek/deepseek-chat'].map(router)).toEqual([false, false]);
    expect(cacheControlAt(undefined, 'https://api.openai.com/v1')('gpt-5')).toBe(false);
    expect(cacheControlAt(undefined, 'https://generativelanguage.googleapis.com/v1beta/openai')('gemini-3-pro')).toBe(
      false,
    );
    expect(cacheControlAt(undefined, 'https://api.deepseek.com/v1')('deepseek-chat')).toBe(false);
    // Elsewhere (a LiteLLM proxy, vLLM…): every caller's for Claude, a chat-completions caller's own for the rest.
    const elsewhere = cacheControlAt(undefined, 'http://litellm.internal:4000/v1');
    expect(['claude-sonnet-4-6', 'bedrock/anthropic.claude-opus-4', 'llama-3.3-70b'].map(elsewhere)).toEqual([
      'all',
      'all',
      'chat',
    ]);
    expect(cacheControlAt((model: string) => model.startsWith('claude'), 'https://api.openai.com/v1')('claude-x')).toBe(
      'all',
    );
    expect(cacheControlAt('drop', 'http://litellm.internal:4000/v1')('claude-x')).toBe(false);
    expect(() => cacheControlAt('always', 'https://api.openai.com/v1')).toThrow(/'cacheControl' must be/);
  });
});
