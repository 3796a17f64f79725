/**
 * The reasoning dialect is learned from the answer, on any host: a DeepSeek- or Kimi-style thinking model served where
 * no preset knows it (a self-hosted vLLM, a third-party host, a proxy: here 127.0.0.1, the `generic` preset) answers in
 * `reasoning_content` (or `reasoning`), and turn two of a tool loop gives it that reasoning back in the same field,
 * through every caller protocol, streamed or not, with no `preset` or `reasoningReplay` configured. The field travels
 * with the reasoning in the caller's own carrier and is bound to the upstream that answered: another upstream never
 * learns from it, and the host operator's `reasoningReplay` still wins.
 */
import { GeminiProvider, MemoryKeyStore, OpenAIProvider } from '../../lib';
import { type Json, serveGateway, type RunningGateway } from '../helpers/app';
import {
  ALL_CALLERS,
  anthropicCaller,
  type Caller,
  chatCaller,
  GATEWAY_KEY,
  geminiCaller,
  responsesCaller,
} from '../helpers/compat-callers';
import { type MockDialect, WEATHER_ANSWER } from '../helpers/mock-chat-wire';
import { DEEPSEEK_CALL_ID, DEEPSEEK_CALL_THOUGHT, startMockDeepSeek } from '../helpers/mock-deepseek';
import { type MockGemini, startMockGemini } from '../helpers/mock-gemini';
import { KIMI_CALL_THOUGHT, startMockKimi } from '../helpers/mock-kimi';

const GEMINI_KEY = 'gemini-key-learned-0001';

let deepseek: MockDialect;
let kimi: MockDialect;
let vllm: MockDialect;
let gemini: MockGemini;
let server: RunningGateway;

beforeAll(async () => {
  [deepseek, kimi, vllm, gemini] = await Promise.all([
    startMockDeepSeek(),
    startMockKimi(),
    // A server of the `reasoning` dialect (newer vLLM, Ollama): it answers in `reasoning` and wants it back there.
    startMockDeepSeek('reasoning'),
    startMockGemini({ apiKey: GEMINI_KEY }),
  ]);
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: GATEWAY_KEY, id: 'caller' }]),
    providers: [
      // 127.0.0.1 is no vendor's host: the `generic` preset, whose default dialect is `none`. Nothing is configured.
      new OpenAIProvider({ name: 'self-hosted', baseUrl: deepseek.url }),
      new OpenAIProvider({ name: 'third-party', baseUrl: kimi.url }),
      new OpenAIProvider({ name: 'vllm', baseUrl: vllm.url }),
      // The same DeepSeek-style server behind another provider: another upstream, which learns nothing from the first.
      new OpenAIProvider({ name: 'other', baseUrl: deepseek.url }),
      // The host operator's option wins over what is learned.
      new OpenAIProvider({ name: 'operator-none', baseUrl: deepseek.url, reasoningReplay: 'none' }),
      new OpenAIProvider({ name: 'operator-content', baseUrl: deepseek.url, reasoningReplay: 'reasoning_content' }),
      new GeminiProvider({ baseUrl: gemini.url, apiKey: GEMINI_KEY, retries: { max: 0 } }),
    ],
    models: [
      { id: 'deepseek-v4', provider: 'self-hosted', upstreamModel: 'deepseek-v4-pro' },
      { id: 'kimi-k2', provider: 'third-party', upstreamModel: 'kimi-k2-thinking' },
      { id: 'qwen3-vllm', provider: 'vllm', upstreamModel: 'Qwen/Qwen3-32B' },
      { id: 'deepseek-elsewhere', provider: 'other', upstreamModel: 'deepseek-v4-pro' },
      { id: 'deepseek-none', provider: 'operator-none', upstreamModel: 'deepseek-v4-pro' },
      { id: 'deepseek-content', provider: 'operator-content', upstreamModel: 'deepseek-v4-pro' },
      { id: 'gemini-loop', provider: 'gemini', upstreamModel: 'gemini-2.5-flash-loop' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([deepseek.close(), kimi.close(), vllm.close(), gemini.close()]);
});

/** The assistant message with tool calls in a mock's last request. */
function sentAssistant(mock: MockDialect): Json {
  const messages = mock.requests.at(-1)!.body.messages as Json[];
  return messages.find((message) => message.role === 'assistant' && message.tool_calls)!;
}

/** Turn one, then turn two from its answer; both must succeed. Turn one's answer is returned. */
async function loop(caller: Caller, model: string, stream: boolean): Promise<Json> {
  const first = await caller.first(server.url, model, stream);
  expect(first.status).toBe(200);
  const second = await caller.second(server.url, model, stream, first.body);
  // The status with the error, so a refusal shows what the upstream said.
  expect({ status: second.status, error: second.body.error ?? null }).toEqual({ status: 200, error: null });
  expect(JSON.stringify(second.body)).toContain(WEATHER_ANSWER);
  return first.body;
}

const CALLERS = ALL_CALLERS.map((caller) => [caller.name, caller] as const);

describe.each([false, true])('a DeepSeek-style model on a generic host, nothing configured (stream: %s)', (stream) => {
  it.each(CALLERS)('%s: turn two carries turn one’s reasoning back in reasoning_content', async (_name, caller) => {
    await loop(caller, 'deepseek-v4', stream);
    const sent = sentAssistant(deepseek);
    expect(sent.reasoning_content).toBe(DEEPSEEK_CALL_THOUGHT);
    expect(sent.reasoning).toBeUndefined();
    expect(sent.tool_calls[0].id).toBe(DEEPSEEK_CALL_ID);
  });
});

describe.each([false, true])('a Kimi-style model on a third-party host, nothing configured (stream: %s)', (stream) => {
  it.each(CALLERS)('%s: turn two carries turn one’s reasoning back in reasoning_content', async (_name, caller) => {
    await loop(caller, 'kimi-k2', stream);
    expect(sentAssistant(kimi).reasoning_content).toBe(KIMI_CALL_THOUGHT);
  });
});

describe.each([false, true])('a server that answers in `reasoning`, nothing configured (stream: %s)', (stream) => {
  it.each(CALLERS)('%s: turn two carries turn one’s reasoning back in reasoning', async (_name, caller) => {
    await loop(caller, 'qwen3-vllm', stream);
    const sent = sentAssistant(vllm);
    expect(sent.reasoning).toBe(DEEPSEEK_CALL_THOUGHT);
    expect(sent.reasoning_content).toBeUndefined();
    expect(sent.tool_calls[0].id).toBe(DEEPSEEK_CALL_ID);
  });
});

describe('each caller carries the learned field in its own carrier', () => {
  it('Anthropic: the thinking signature; Responses: encrypted_content; Gemini: the thought signature', async () => {
    const anthropic = await anthropicCaller.first(server.url, 'deepseek-v4', false);
    const thinking = anthropic.body.content.find((block: Json) => block.type === 'thinking');
    expect(thinking).toMatchObject({
      thinking: DEEPSEEK_CALL_THOUGHT,
      signature: 'openai-compatible:reasoning_content self-hosted',
    });
    const responses = await responsesCaller.first(server.url, 'deepseek-v4', false);
    const reasoning = responses.body.output.find((item: Json) => item.type === 'reasoning');
    expect(reasoning.encrypted_content).toBe('openai-compatible:reasoning_content self-hosted');
    const gemini = await geminiCaller.first(server.url, 'deepseek-v4', false);
    const thought = gemini.body.candidates[0].content.parts.find((part: Json) => part.thought);
    // Base64, as Gemini clients hold thought signatures as bytes.
    expect(thought.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(thought.thoughtSignature, 'base64').toString('utf8')).toBe(
      'rosetta:openai-compatible:reasoning_content self-hosted',
    );
  });

  it('chat completions: reasoning_content is its own carrier; another field rides in the first tool call id', async () => {
    const content = await chatCaller.first(server.url, 'deepseek-v4', false);
    expect(content.body.choices[0].message).toMatchObject({
      reasoning_content: DEEPSEEK_CALL_THOUGHT,
      tool_calls: [{ id: DEEPSEEK_CALL_ID }],
    });
    const reasoning = await chatCaller.first(server.url, 'qwen3-vllm', false);
    expect(reasoning.body.choices[0].message.reasoning_content).toBe(DEEPSEEK_CALL_THOUGHT);
    expect(reasoning.body.choices[0].message.tool_calls[0].id).toMatch(new RegExp(`^${DEEPSEEK_CALL_ID}__rfdsig`));
  });
});

describe('the learned field is bound to the upstream that answered', () => {
  it('another upstream (the same server behind another provider) learns nothing from it: its own default holds', async () => {
    const first = await anthropicCaller.first(server.url, 'deepseek-v4', false);
    const refused = await anthropicCaller.second(server.url, 'deepseek-elsewhere', false, first.body);
    expect(sentAssistant(deepseek).reasoning_content).toBeUndefined();
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('Missing `reasoning_content` field');
  });

  it('reasoning learned in `reasoning` goes to a reasoning_content upstream as plain text, in its own field', async () => {
    const first = await geminiCaller.first(server.url, 'qwen3-vllm', true);
    const reply = await geminiCaller.second(server.url, 'deepseek-content', true, first.body);
    expect(reply.status).toBe(200);
    const sent = sentAssistant(deepseek);
    expect(sent.reasoning_content).toBe(DEEPSEEK_CALL_THOUGHT);
    expect(sent.reasoning).toBeUndefined();
    expect(sent.tool_calls[0].id).toBe(DEEPSEEK_CALL_ID);
  });

  it('a Gemini upstream gets neither the carried field (as a thought signature) nor the other upstream’s reasoning', async () => {
    const first = await geminiCaller.first(server.url, 'deepseek-v4', false);
    const reply = await geminiCaller.second(server.url, 'gemini-loop', false, first.body);
    expect(reply.status).toBe(200);
    const sent = JSON.stringify(gemini.requests.at(-1)!.body);
    expect(sent).not.toMatch(/thoughtSignature|thought_signature/);
    expect(sent).not.toContain(DEEPSEEK_CALL_THOUGHT);
  });
});

describe('the host operator’s reasoningReplay wins over what is learned', () => {
  it.each([false, true])("'none' sends no reasoning, and the upstream refuses (stream: %s)", async (stream) => {
    const first = await responsesCaller.first(server.url, 'deepseek-none', stream);
    expect(first.status).toBe(200);
    const refused = await responsesCaller.second(server.url, 'deepseek-none', stream, first.body);
    expect(sentAssistant(deepseek).reasoning_content).toBeUndefined();
    expect(refused.status).toBe(400);
  });
});
