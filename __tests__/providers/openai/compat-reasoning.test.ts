/**
 * Thinking models behind OpenAI-compatible APIs get their reasoning back: DeepSeek's thinking mode (and Kimi's, Qwen's)
 * refuses a tool loop whose tool-call turn comes back without its `reasoning_content` (claude-code-router #1041,
 * #1050). Claude Code, an OpenAI chat caller, a Gemini caller and a Responses caller run a two-turn tool loop through
 * a DeepSeek-dialect mock; another vendor's signed reasoning never reaches it after a model switch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GatewayConfigError, MemoryKeyStore, OpenAIProvider } from '../../../lib';
import { presetFor } from '../../../lib/providers/openai/presets';

const detectReasoningReplay = (baseUrl: string) => presetFor(baseUrl).reasoningReplay;
import { type Json, serveGateway, type RunningGateway } from '../../helpers/app';
import { ALL_CALLERS, anthropicCaller, GATEWAY_KEY, TOOL_RESULT } from '../../helpers/compat-callers';
import type { MockDialect } from '../../helpers/mock-chat-wire';
import { WEATHER_ANSWER } from '../../helpers/mock-chat-wire';
import {
  DEEPSEEK_ANSWER_THOUGHT,
  DEEPSEEK_CALL_ID,
  DEEPSEEK_CALL_THOUGHT,
  startMockDeepSeek,
} from '../../helpers/mock-deepseek';

let deepseek: MockDialect;
let server: RunningGateway;

beforeAll(async () => {
  deepseek = await startMockDeepSeek();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: GATEWAY_KEY, id: 'caller' }]),
    providers: [
      // The mock listens on 127.0.0.1, so the dialect is named; on api.deepseek.com it is the default.
      new OpenAIProvider({ name: 'deepseek', baseUrl: deepseek.url, reasoningReplay: 'reasoning_content' }),
      new OpenAIProvider({
        name: 'by-model',
        baseUrl: deepseek.url,
        reasoningReplay: (id) => (id.startsWith('deepseek') ? 'reasoning_content' : 'none'),
      }),
    ],
    models: [
      { id: 'deepseek-reasoner', provider: 'deepseek', upstreamModel: 'deepseek-reasoner' },
      { id: 'by-model-deepseek', provider: 'by-model', upstreamModel: 'deepseek-v4-pro' },
      { id: 'by-model-other', provider: 'by-model', upstreamModel: 'some-other-model' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await deepseek.close();
});

/** The assistant message with tool calls that the mock's last request carried. */
function sentAssistant(): Json {
  const messages = deepseek.requests.at(-1)!.body.messages as Json[];
  return messages.find((message) => message.role === 'assistant' && message.tool_calls)!;
}

describe('Claude Code → a DeepSeek-style upstream in thinking mode with tools', () => {
  const fixture = (name: string): Json =>
    JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
  const TURN_1 = fixture('messages-turn-1.json');
  const HEADERS = fixture('headers.json');

  it('turn two reaches the upstream with the reasoning_content of the tool-call turn, and Claude Code sees thinking', async () => {
    const client = new Anthropic({
      authToken: GATEWAY_KEY,
      apiKey: null,
      baseURL: server.url,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-version': HEADERS['anthropic-version'], 'x-app': HEADERS['x-app'] },
    });
    const { stream: _stream, ...params } = TURN_1;
    const run = (messages: Json[]) =>
      client.beta.messages
        .stream({
          ...params,
          model: 'deepseek-reasoner',
          messages,
          betas: HEADERS['anthropic-beta'],
        } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming)
        .finalMessage();

    const first = await run(TURN_1.messages);
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: DEEPSEEK_CALL_THOUGHT });
    const call = first.content[1] as Anthropic.Beta.BetaToolUseBlock;
    expect(call.input).toEqual({ city: 'Oslo' });

    // Claude Code sends back the assistant turn as its SDK accumulated it, then the tool_result.
    const second = await run([
      ...TURN_1.messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: TOOL_RESULT }] },
    ]);
    expect(sentAssistant()).toMatchObject({
      reasoning_content: DEEPSEEK_CALL_THOUGHT,
      tool_calls: [{ id: DEEPSEEK_CALL_ID }],
    });
    expect(second.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(second.content[0]).toMatchObject({ thinking: DEEPSEEK_ANSWER_THOUGHT });
    expect(second.content[1]).toMatchObject({ text: WEATHER_ANSWER });
  });
});

describe.each([false, true])('each caller protocol through the DeepSeek dialect (stream: %s)', (stream) => {
  it.each(ALL_CALLERS.map((caller) => [caller.name, caller] as const))(
    '%s: the tool-call turn goes back with its reasoning_content',
    async (_name, caller) => {
      const first = await caller.first(server.url, 'deepseek-reasoner', stream);
      expect(first.status).toBe(200);
      const second = await caller.second(server.url, 'deepseek-reasoner', stream, first.body);
      expect(second.status).toBe(200);
      expect(sentAssistant().reasoning_content).toBe(DEEPSEEK_CALL_THOUGHT);
      expect(JSON.stringify(second.body)).toContain(WEATHER_ANSWER);
    },
  );
});

describe('the dialect', () => {
  it('is chosen per upstream model by a function', async () => {
    const first = await anthropicCaller.first(server.url, 'by-model-deepseek', false);
    expect((await anthropicCaller.second(server.url, 'by-model-deepseek', false, first.body)).status).toBe(200);
    expect(sentAssistant().reasoning_content).toBe(DEEPSEEK_CALL_THOUGHT);
    // The same history to a model whose dialect is `none`: no reasoning is sent, and the upstream refuses.
    const refused = await anthropicCaller.second(server.url, 'by-model-other', false, first.body);
    expect(sentAssistant().reasoning_content).toBeUndefined();
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('Missing `reasoning_content` field');
  });

  it('is the preset the base URL host picks', () => {
    expect(detectReasoningReplay('https://api.deepseek.com')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://api.deepseek.com/v1')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://api.moonshot.ai/v1')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://api.moonshot.cn/v1')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://dashscope-intl.aliyuncs.com/compatible-mode/v1')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://dashscope.aliyuncs.com/compatible-mode/v1')).toBe('reasoning_content');
    expect(detectReasoningReplay('https://openrouter.ai/api/v1')).toBe('reasoning_details');
    expect(detectReasoningReplay('https://generativelanguage.googleapis.com/v1beta/openai')).toBe('google');
    expect(detectReasoningReplay('https://api.openai.com/v1')).toBe('none');
    expect(detectReasoningReplay('http://127.0.0.1:8000/v1')).toBe('none');
    expect(detectReasoningReplay('https://notdeepseek.com.example/v1')).toBe('none');
  });

  it('is checked at creation', () => {
    expect(() => new OpenAIProvider({ reasoningReplay: 'reasoning-content' as never })).toThrow(GatewayConfigError);
    expect(() => new OpenAIProvider({ reasoningReplay: 3 as never })).toThrow(/'reasoningReplay' must be one of/);
  });
});

describe('a model switch mid-session: another vendor’s signed reasoning never reaches DeepSeek', () => {
  it('Anthropic-signed thinking (Claude Code history made by Claude) is dropped; the tool-call turn gets an empty reasoning_content', async () => {
    const history = {
      content: [
        { type: 'thinking', thinking: 'Claude thought about Oslo.', signature: 'EqQBCkgIAnthropicSignature0001' },
        { type: 'tool_use', id: 'toolu_01Switch', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    };
    const reply = await anthropicCaller.second(server.url, 'deepseek-reasoner', false, history);
    expect(reply.status).toBe(200);
    const sent = JSON.stringify(deepseek.requests.at(-1)!.body);
    expect(sent).not.toContain('EqQBCkgIAnthropicSignature0001');
    expect(sent).not.toContain('Claude thought about Oslo.');
    expect(sentAssistant().reasoning_content).toBe('');
  });

  it('Gemini-signed history (a thought and a call with signatures) is dropped too', async () => {
    const history = {
      content: [
        { type: 'thinking', thinking: 'Gemini thought.', signature: 'gemini:R2VtaW5pU2lnbmF0dXJl' },
        { type: 'tool_use', id: 'call_1__gemsig0_R2VtaW5pQ2FsbFNpZw', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    };
    const reply = await anthropicCaller.second(server.url, 'deepseek-reasoner', false, history);
    expect(reply.status).toBe(200);
    const sent = JSON.stringify(deepseek.requests.at(-1)!.body);
    expect(sent).not.toMatch(/R2VtaW5p|Gemini thought|extra_content|gemsig/);
    expect(sentAssistant()).toMatchObject({ reasoning_content: '', tool_calls: [{ id: 'call_1' }] });
  });
});
