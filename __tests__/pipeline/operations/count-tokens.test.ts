/** POST /v1/messages/count_tokens and POST /v1beta/models/{model}:countTokens: real counts, no charge. */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import request from 'supertest';
import { MemoryKeyStore, MemoryQuotaStore } from '../../../lib';
import { countRequestTokens, countTextTokens } from '../../../lib/extend';
import { buildApp, EMPTY_KEY, listen, TEST_KEY } from '../../helpers/app';

const quotaStore = new MemoryQuotaStore({ balances: { rich: 1000, empty: 0 } });
const { app } = buildApp({
  keyStore: new MemoryKeyStore([
    { key: TEST_KEY, id: 'rich' },
    { key: EMPTY_KEY, id: 'empty' },
    { key: 'sk-limited-123456', id: 'limited', allowedModels: ['other'] },
  ]),
  quotaStore,
});

describe('Anthropic count_tokens', () => {
  it('counts system, messages and tools with the tokenizer, charges nothing, works on ?beta=true with Bearer', async () => {
    const body = {
      model: 'rosetta-echo',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
    };
    const res = await request(app)
      .post('/v1/messages/count_tokens?beta=true')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .set('anthropic-beta', 'token-counting-2024-11-01')
      .send(body);
    expect(res.status).toBe(200);
    const expected = countRequestTokens({
      model: 'rosetta-echo',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'How many tokens is this?' }] },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
    });
    expect(res.body).toEqual({ input_tokens: expected });
    expect(res.body.input_tokens).toBeGreaterThan(countTextTokens('How many tokens is this?'));
    expect(quotaStore.getAccount('rich')).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('needs a key, a model the key may use and a balance to spend (a zero balance is a 403 before counting); bad bodies are 400', async () => {
    const body = { model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] };
    expect((await request(app).post('/v1/messages/count_tokens').send(body)).status).toBe(401);
    const empty = await request(app).post('/v1/messages/count_tokens').set('x-api-key', EMPTY_KEY).send(body);
    expect(empty.status).toBe(403);
    expect(empty.body.error.type).toBe('billing_error');
    expect(
      (await request(app).post('/v1/messages/count_tokens').set('x-api-key', 'sk-limited-123456').send(body)).status,
    ).toBe(403);
    expect(
      (
        await request(app)
          .post('/v1/messages/count_tokens')
          .set('x-api-key', TEST_KEY)
          .send({ ...body, model: 'nope' })
      ).status,
    ).toBe(404);
    const bad = await request(app)
      .post('/v1/messages/count_tokens')
      .set('x-api-key', TEST_KEY)
      .send({ model: 'rosetta-echo' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('invalid_request_error');
  });

  it('the Anthropic SDK counts', async () => {
    const server = await listen(app);
    try {
      const client = new Anthropic({ apiKey: TEST_KEY, baseURL: server.url, maxRetries: 0 });
      const counted = await client.messages.countTokens({
        model: 'rosetta-echo',
        messages: [{ role: 'user', content: 'count me please' }],
      });
      expect(counted.input_tokens).toBe(3 + 3 + countTextTokens('count me please'));
      const beta = await client.beta.messages.countTokens({
        model: 'rosetta-echo',
        messages: [{ role: 'user', content: 'count me please' }],
      });
      expect(beta.input_tokens).toBe(counted.input_tokens);
    } finally {
      await server.close();
    }
  });
});

describe('Gemini countTokens', () => {
  it('counts {contents} and the {generateContentRequest} form', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'Count these words.' }] }];
    const plain = await request(app)
      .post('/v1beta/models/rosetta-echo:countTokens')
      .set('x-goog-api-key', TEST_KEY)
      .send({ contents });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ totalTokens: 3 + 3 + countTextTokens('Count these words.') });
    const full = await request(app)
      .post(`/v1beta/models/rosetta-echo:countTokens?key=${TEST_KEY}`)
      .send({
        generateContentRequest: {
          model: 'models/rosetta-echo',
          contents,
          systemInstruction: { parts: [{ text: 'Be terse.' }] },
        },
      });
    expect(full.body.totalTokens).toBeGreaterThan(plain.body.totalTokens);
    expect(
      (await request(app).post('/v1beta/models/nope:countTokens').set('x-goog-api-key', TEST_KEY).send({ contents }))
        .status,
    ).toBe(404);
    expect((await request(app).post('/v1beta/models/rosetta-echo:countTokens').send({ contents })).status).toBe(401);
  });

  it('the @google/genai SDK counts, on v1beta and v1', async () => {
    const server = await listen(app);
    try {
      for (const apiVersion of [undefined, 'v1']) {
        const ai = new GoogleGenAI({
          apiKey: TEST_KEY,
          ...(apiVersion ? { apiVersion } : {}),
          httpOptions: { baseUrl: server.url, fetch: (...args: Parameters<typeof fetch>) => fetch(...args) },
        });
        const counted = await ai.models.countTokens({ model: 'rosetta-echo', contents: 'count me please' });
        expect(counted.totalTokens).toBe(3 + 3 + countTextTokens('count me please'));
      }
    } finally {
      await server.close();
    }
  });
});
