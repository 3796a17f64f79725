import request from 'supertest';
import { buildApp, listen, readJson, TEST_KEY, testOptions } from '../helpers/app';

const auth = { authorization: `Bearer ${TEST_KEY}` };

describe('bad input on the wire (OpenAI envelope)', () => {
  const { app } = buildApp(testOptions({ maxBodyBytes: 2000 }));

  it('malformed JSON → 400', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'application/json')
      .send('{"model": "rosetta-echo",');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.error.type).toBe('invalid_request_error');
    expect(res.body.error.message).toMatch(/not valid JSON/);
  });

  it('an empty body and a non-object body → 400', async () => {
    const empty = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'application/json')
      .send('');
    expect(empty.status).toBe(400);
    const array = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'application/json')
      .send('[1,2]');
    expect(array.status).toBe(400);
    expect(array.body.error.message).toMatch(/JSON object/);
  });

  it('wrong content type → 415', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'text/plain')
      .send('{"model":"rosetta-echo"}');
    expect(res.status).toBe(415);
    expect(res.body.error.message).toMatch(/application\/json/);
  });

  it('a compressed body → 415', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send('{}');
    expect(res.status).toBe(415);
  });

  it('oversize body → 413 in the envelope', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    expect(res.status).toBe(413);
    expect(res.body.error.type).toBe('invalid_request_error');
  });

  it('oversize body over a real socket: the client reads the 413, not a connection reset', async () => {
    const server = await listen(app);
    try {
      const body = JSON.stringify({
        model: 'rosetta-echo',
        messages: [{ role: 'user', content: 'y'.repeat(3_000_000) }],
      });
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(413);
      expect((await readJson(response)).error.message).toMatch(/larger than the limit/);
    } finally {
      await server.close();
    }
  });

  it('wrong method → 405 with Allow', async () => {
    const res = await request(app).get('/v1/chat/completions').set(auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body.error.type).toBe('invalid_request_error');
    const list = await request(app).post('/v1/models').set(auth).send({});
    expect(list.status).toBe(405);
    expect(list.headers.allow).toBe('GET');
  });

  it('every response carries a request id', async () => {
    const res = await request(app)
      .post('/v1/chat/completions')
      .set(auth)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('the un-prefixed OpenAI paths are served too', async () => {
    const res = await request(app)
      .post('/chat/completions')
      .set(auth)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    const models = await request(app).get('/models').set(auth);
    expect(models.body.object).toBe('list');
  });
});

describe('model lists (OpenAI shape)', () => {
  const { app } = buildApp(
    testOptions({
      keys: [{ key: TEST_KEY }, { key: 'limited-key-123', allowedModels: ['rosetta-echo'] }],
    }),
  );

  it('lists the models this key may use', async () => {
    const all = await request(app).get('/v1/models').set(auth);
    expect(all.status).toBe(200);
    expect(all.body.object).toBe('list');
    expect(all.body.data.map((model: { id: string }) => model.id)).toEqual([
      'rosetta-echo',
      'rosetta-image',
      'rosetta-embed',
    ]);
    expect(all.body.data[0]).toEqual({
      id: 'rosetta-echo',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'local',
    });
    const limited = await request(app).get('/v1/models').set({ authorization: 'Bearer limited-key-123' });
    expect(limited.body.data.map((model: { id: string }) => model.id)).toEqual(['rosetta-echo']);
  });

  it('retrieves one model, 404 for others', async () => {
    const one = await request(app).get('/v1/models/rosetta-echo').set(auth);
    expect(one.body).toMatchObject({ id: 'rosetta-echo', object: 'model' });
    const hidden = await request(app).get('/v1/models/rosetta-image').set({ authorization: 'Bearer limited-key-123' });
    expect(hidden.status).toBe(404);
  });

  it('a key not allowed a model gets 403 when calling it', async () => {
    const res = await request(app)
      .post('/v1/images/generations')
      .set({ authorization: 'Bearer limited-key-123' })
      .send({ model: 'rosetta-image', prompt: 'x' });
    expect(res.status).toBe(403);
  });

  it('requires a key', async () => {
    const res = await request(app).get('/v1/models');
    expect(res.status).toBe(401);
  });
});
