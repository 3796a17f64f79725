/**
 * Kimi (Moonshot) and Qwen (Alibaba Cloud Model Studio, DashScope) thinking dialects, from Anthropic and chat-completions
 * callers: Kimi's `reasoning_content` goes back on the tool-call turn (Moonshot refuses the turn without it); Qwen's
 * thinking is `enable_thinking` / `thinking_budget`, and a non-streamed call is streamed upstream and collected, since
 * Qwen thinks only streamed. Judges: the mocks `mock-kimi.ts` and `mock-qwen.ts`.
 */
import { MemoryKeyStore, OpenAIProvider } from '../../../lib';
import { presetFor } from '../../../lib/providers/openai/presets';

const isDashScope = (baseUrl: string) => presetFor(baseUrl).dashScopeThinking;
import { serveGateway, type Json, type RunningGateway } from '../../helpers/app';
import { anthropicCaller, chatCaller, GATEWAY_KEY } from '../../helpers/compat-callers';
import type { MockDialect } from '../../helpers/mock-chat-wire';
import { KIMI_CALL_THOUGHT, startMockKimi } from '../../helpers/mock-kimi';
import { QWEN_ANSWER_THOUGHT, QWEN_CALL_THOUGHT, startMockQwen } from '../../helpers/mock-qwen';

let kimi: MockDialect;
let qwen: MockDialect;
let server: RunningGateway;

beforeAll(async () => {
  kimi = await startMockKimi();
  qwen = await startMockQwen();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: GATEWAY_KEY, id: 'caller' }]),
    providers: [
      // The mocks listen on 127.0.0.1: the vendors' presets are named (on api.moonshot.ai and dashscope*.aliyuncs.com
      // the host picks them).
      new OpenAIProvider({ name: 'moonshot', baseUrl: kimi.url, preset: 'moonshot' }),
      new OpenAIProvider({ name: 'dashscope', baseUrl: qwen.url, preset: 'dashscope' }),
    ],
    models: [
      { id: 'kimi-k2-thinking', provider: 'moonshot', upstreamModel: 'kimi-k2-thinking' },
      { id: 'qwen3-235b-a22b', provider: 'dashscope', upstreamModel: 'qwen3-235b-a22b' },
      { id: 'qwen-plus', provider: 'dashscope', upstreamModel: 'qwen-plus' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await kimi.close();
  await qwen.close();
});

const lastBody = (mock: MockDialect): Json => mock.requests.at(-1)!.body;

describe.each([anthropicCaller, chatCaller])('%s caller', (caller) => {
  describe.each([false, true])('(stream: %s)', (stream) => {
    it('Kimi k2-thinking: the tool loop’s second turn carries the first’s reasoning_content', async () => {
      const first = await caller.first(server.url, 'kimi-k2-thinking', stream);
      expect(first.status).toBe(200);
      const second = await caller.second(server.url, 'kimi-k2-thinking', stream, first.body);
      expect(second.status).toBe(200);
      const assistant = (lastBody(kimi).messages as Json[]).find((message) => message.role === 'assistant')!;
      expect(assistant.reasoning_content).toBe(KIMI_CALL_THOUGHT);
    });

    it('Qwen3 (thinks by default, only streamed): both turns answer, the thinking reaches the caller', async () => {
      const first = await caller.first(server.url, 'qwen3-235b-a22b', stream);
      expect(first.status).toBe(200);
      expect(lastBody(qwen).stream).toBe(true);
      expect(JSON.stringify(first.body)).toContain(QWEN_CALL_THOUGHT);
      const second = await caller.second(server.url, 'qwen3-235b-a22b', stream, first.body);
      expect(second.status).toBe(200);
      expect(JSON.stringify(second.body)).toContain(QWEN_ANSWER_THOUGHT);
    });
  });
});

describe('Qwen’s thinking settings', () => {
  it('an Anthropic caller’s thinking budget is enable_thinking and thinking_budget, not reasoning_effort', async () => {
    const reply = await anthropicCaller.first(server.url, 'qwen-plus', false);
    expect(reply.status).toBe(200);
    const body = lastBody(qwen);
    expect(body.enable_thinking).toBe(true);
    expect(body.thinking_budget).toBe(2048);
    expect(body.reasoning_effort).toBeUndefined();
    expect(JSON.stringify(reply.body)).toContain(QWEN_CALL_THOUGHT);
  });

  it('thinking turned off is enable_thinking: false', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${GATEWAY_KEY}` },
      body: JSON.stringify({
        model: 'qwen3-235b-a22b',
        reasoning_effort: 'none',
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      }),
    });
    expect(response.status).toBe(200);
    expect(lastBody(qwen).enable_thinking).toBe(false);
  });

  it('a preset must be one of the vendors', () => {
    expect(() => new OpenAIProvider({ preset: 'kimi' as never })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'preset' }),
    );
  });

  it('DashScope is known by its hosts', () => {
    expect(isDashScope('https://dashscope.aliyuncs.com/compatible-mode/v1')).toBe(true);
    expect(isDashScope('https://dashscope-intl.aliyuncs.com/compatible-mode/v1')).toBe(true);
    expect(isDashScope('https://api.openai.com/v1')).toBe(false);
  });
});
