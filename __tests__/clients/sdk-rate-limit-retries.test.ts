/**
 * The official SDKs' own retry logic against a rate-limited key: each hits the limit, waits as told (Retry-After /
 * retry-after-ms, or Gemini's backoff), retries and succeeds. The window is 1 s, so a request frees every 500 ms.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { MemoryRateLimitStore } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';

const KEY = 'sk-sdk-retry-key-0123456789';
let running: RunningGateway;
let hits: number[];

beforeEach(async () => {
  hits = [];
  running = await serveGateway({
    keys: [{ key: KEY, id: 'sdk', rateLimits: { requestsPerMinute: 2 } }],
    rateLimitStore: new MemoryRateLimitStore({ windowMs: 1000 }),
  });
  running.server.prependListener('request', (request) => {
    if (request.method === 'POST') hits.push(Date.now());
  });
});
afterEach(() => running.close());

/** Two calls take the whole bucket; the SDK's call is then refused once (or more) before it gets through. */
async function exhaust(call: () => Promise<unknown>): Promise<void> {
  await call();
  await call();
}

it('openai retries after retry-after-ms and succeeds', async () => {
  const client = new OpenAI({ apiKey: KEY, baseURL: `${running.url}/v1`, maxRetries: 3 });
  const call = () =>
    client.chat.completions.create({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hi' }] });
  await exhaust(call);
  const before = hits.length;
  const completion = await call();
  expect(completion.choices[0]!.message.content).toBe('Hi');
  expect(hits.length - before).toBeGreaterThan(1);
});

it('@anthropic-ai/sdk retries after retry-after-ms and succeeds', async () => {
  const client = new Anthropic({ apiKey: KEY, baseURL: running.url, maxRetries: 3 });
  const call = () =>
    client.messages.create({ model: 'rosetta-echo', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
  await exhaust(call);
  const before = hits.length;
  const message = await call();
  expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hi' });
  expect(hits.length - before).toBeGreaterThan(1);
});

it('@google/genai, with its retryOptions on, retries the RESOURCE_EXHAUSTED and succeeds', async () => {
  // The SDK retries 429s only when retryOptions are set, with its own backoff (it reads no Retry-After).
  const passthroughFetch = (...args: Parameters<typeof fetch>) => fetch(...args);
  const client = new GoogleGenAI({
    apiKey: KEY,
    httpOptions: {
      baseUrl: running.url,
      fetch: passthroughFetch,
      retryOptions: { attempts: 5, initialDelay: 0.5, maxDelay: 1, jitter: 0 },
    },
  });
  const call = () => client.models.generateContent({ model: 'rosetta-echo', contents: 'Hi' });
  await exhaust(call);
  const before = hits.length;
  const response = await call();
  expect(response.text).toBe('Hi');
  expect(hits.length - before).toBeGreaterThan(1);
});
