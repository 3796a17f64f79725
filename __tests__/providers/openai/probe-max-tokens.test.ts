/**
 * Claude Code's `max_tokens: 1` model probe (litellm #35061) to an OpenAI reasoning model, over chat completions and
 * the Responses API: every caller protocol gets an ordinary answer stopped by the cap, not OpenAI's 400, and is
 * charged what the upstream did.
 */
import Anthropic from '@anthropic-ai/sdk';
import request from 'supertest';
import { MemoryKeyStore, MemoryQuotaStore, OpenAIProvider, type ModelConfig } from '../../../lib';
import { buildApp, listen, type RunningServer } from '../../helpers/app';
import {
  RESPONSES_MINIMUM,
  startMockOpenAIReasoning,
  type MockOpenAIReasoning,
} from '../../helpers/mock-openai-reasoning';

const KEY = 'sk-probe-caller-key-0001';
const PRICE = { input: 1, output: 1 };

let mock: MockOpenAIReasoning;
let server: RunningServer;
let quotaStore: MemoryQuotaStore;

const models: ModelConfig[] = [
  { id: 'gpt-5-chat', provider: 'openai', upstreamModel: 'gpt-5-mini', pricing: PRICE },
  { id: 'gpt-5-responses', provider: 'openai', upstreamModel: 'gpt-5-codex', pricing: PRICE },
];

beforeAll(async () => {
  mock = await startMockOpenAIReasoning();
  quotaStore = new MemoryQuotaStore({ balances: { caller: 1_000_000 } });
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({
        baseUrl: mock.url,
        apiKey: 'sk-upstream-0001',
        maxTokensField: 'max_completion_tokens',
        reasoningModels: () => true,
        responsesModels: ['gpt-5-codex'],
        retries: { baseDelayMs: 1 },
      }),
    ],
    models,
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

/** The probe as Claude Code sends it: one user word, `max_tokens: 1`. */
const probe = (model: string, extra: Record<string, unknown> = {}) =>
  request(server.url)
    .post('/v1/messages')
    .set('x-api-key', KEY)
    .set('anthropic-version', '2023-06-01')
    .send({ model, max_tokens: 1, messages: [{ role: 'user', content: 'quota' }], ...extra });

const spent = () => quotaStore.getAccount('caller').spent;
const lastUpstream = () => mock.requests[mock.requests.length - 1]!;

describe('a one-token probe to a reasoning model over chat completions', () => {
  it('answers an Anthropic caller with an empty max_tokens stop, charged the input and the one token', async () => {
    const before = spent();
    const res = await probe('gpt-5-chat');
    expect(res.status).toBe(200);
    expect(lastUpstream().body.max_completion_tokens).toBe(1);
    expect(res.body).toMatchObject({ type: 'message', role: 'assistant', content: [], stop_reason: 'max_tokens' });
    expect(res.body.usage.output_tokens).toBe(1);
    expect(res.body.usage.input_tokens).toBeGreaterThan(0);
    expect(spent() - before).toBe(res.body.usage.input_tokens + 1);
  });

  it('streams the same answer to the Anthropic SDK, whose accumulator ends with stop_reason max_tokens', async () => {
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'gpt-5-chat', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] })
      .finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.content).toEqual([]);
    expect(message.usage.output_tokens).toBe(1);
  });

  it('answers an OpenAI caller with finish_reason length, streamed or not', async () => {
    const body = { model: 'gpt-5-chat', max_completion_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
    const plain = await request(server.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${KEY}`)
      .send(body);
    expect(plain.status).toBe(200);
    expect(plain.body.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { role: 'assistant', content: '' },
    });
    expect(plain.body.usage.completion_tokens).toBe(1);
    expect(plain.body.usage.completion_tokens_details.reasoning_tokens).toBe(1);
    const streamed = await request(server.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${KEY}`)
      .send({ ...body, stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('"finish_reason":"length"');
    expect(streamed.text).toContain('data: [DONE]');
  });

  it('answers a Gemini caller with finishReason MAX_TOKENS', async () => {
    const res = await request(server.url)
      .post('/v1beta/models/gpt-5-chat:generateContent')
      .set('x-goog-api-key', KEY)
      .send({ contents: [{ role: 'user', parts: [{ text: 'ping' }] }], generationConfig: { maxOutputTokens: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(res.body.usageMetadata.thoughtsTokenCount).toBe(1);
  });

  it('keeps every other 400 an error, and a cap with room an ordinary answer', async () => {
    const refused = await request(server.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${KEY}`)
      .send({ model: 'gpt-5-chat', max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("Unsupported parameter: 'max_tokens'");
    const roomy = await probe('gpt-5-chat', { max_tokens: 200 });
    expect(roomy.status).toBe(200);
    expect(roomy.body.stop_reason).toBe('end_turn');
    expect(roomy.body.content[0].text).toBe('upstream says: quota');
  });

  it('passes on the empty length-stopped answer OpenAI gives for a larger cap used up reasoning', async () => {
    const res = await probe('gpt-5-chat', { max_tokens: 20 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: [], stop_reason: 'max_tokens' });
    expect(res.body.usage.output_tokens).toBe(20);
  });
});

describe('a one-token probe to a reasoning model over the Responses API', () => {
  it('raises max_output_tokens to the API minimum and answers max_tokens, charged what the upstream reported', async () => {
    const before = spent();
    const res = await probe('gpt-5-responses');
    expect(res.status).toBe(200);
    expect(lastUpstream().url).toBe('/v1/responses');
    expect(lastUpstream().body.max_output_tokens).toBe(RESPONSES_MINIMUM);
    expect(res.body.stop_reason).toBe('max_tokens');
    // Only the reasoning item came back (a thinking block carrying it), no text.
    expect(res.body.content.map((block: { type: string }) => block.type)).toEqual(['thinking']);
    expect(res.body.usage.output_tokens).toBe(RESPONSES_MINIMUM);
    expect(spent() - before).toBe(res.body.usage.input_tokens + RESPONSES_MINIMUM);
  });

  it('streams it too', async () => {
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'gpt-5-responses', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] })
      .finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(RESPONSES_MINIMUM);
  });

  it('sends a cap of 16 or more as it is', async () => {
    const res = await probe('gpt-5-responses', { max_tokens: 300 });
    expect(res.status).toBe(200);
    expect(lastUpstream().body.max_output_tokens).toBe(300);
    expect(res.body.content.find((block: { type: string }) => block.type === 'text').text).toBe('upstream says: quota');
  });
});
