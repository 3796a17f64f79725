import request from 'supertest';
import { buildApp, EMPTY_KEY, TEST_KEY } from '../../helpers/app';
import { countTextTokens } from '../../../lib/extend';

const { app } = buildApp();
const auth = { authorization: `Bearer ${TEST_KEY}` };

describe('POST /v1/chat/completions', () => {
  it('answers with every contract field', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.body;
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.object).toBe('chat.completion');
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.model).toBe('rosetta-echo');
    expect(body.service_tier).toBe('default');
    expect(body.choices).toHaveLength(1);
    expect(body.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello there' },
    });
    const completion = countTextTokens('Hello there');
    expect(body.usage.completion_tokens).toBe(completion);
    expect(body.usage.prompt_tokens).toBeGreaterThan(completion);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('respects max_tokens with finish_reason length', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({
        model: 'rosetta-echo',
        max_tokens: 3,
        messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
      });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].finish_reason).toBe('length');
    expect(res.body.usage.completion_tokens).toBe(3);
    expect(res.body.choices[0].message.content).toBe('one two three');
  });

  it('401 without a key and with a wrong key, in the OpenAI envelope', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }]) {
      const res = await request(app)
        .post('/v1/chat/completions')
        .set(headers)
        .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error' });
      expect(typeof res.body.error.message).toBe('string');
      expect(JSON.stringify(res.body)).not.toContain('nope');
    }
  });

  it('403 for a key with no balance', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set({ authorization: `Bearer ${EMPTY_KEY}` })
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_quota');
  });

  it('400 names the bad field', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 5 }] });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('messages[0].content');
    expect(res.body.error.message).toContain('messages[0].content');
  });

  it('404 for an unknown model', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({ model: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('model_not_found');
  });
});
