import createDebug from 'debug';
import request from 'supertest';
import { buildApp, TEST_KEY } from '../helpers/app';

describe('debug logging', () => {
  const lines: string[] = [];
  const originalLog = createDebug.log;

  beforeAll(() => {
    createDebug.log = (...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    };
    createDebug.enable('rosetta:*');
  });
  afterAll(() => {
    createDebug.disable();
    createDebug.log = originalLog;
  });

  it('logs the request path under rosetta:* namespaces and never a key', async () => {
    const { app } = buildApp();
    const wrongKey = 'sk-wrong-key-should-never-be-logged';
    await request(app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] });
    const refused = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${wrongKey}`)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] });
    await request(app).get('/v1/models').set('authorization', `Bearer ${wrongKey}`);
    const text = lines.join('\n');
    for (const namespace of ['rosetta:request', 'rosetta:auth', 'rosetta:quota', 'rosetta:provider'])
      expect(text).toContain(namespace);
    expect(text).toContain('401');
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain(wrongKey);
    expect(JSON.stringify(refused.body)).not.toContain(wrongKey);
  });
});
