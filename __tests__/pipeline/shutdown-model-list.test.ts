/**
 * After `gateway.close()` a model list is refused like a model call: 503 `shutting_down`, not served from stores being
 * closed.
 */
import request from 'supertest';
import { buildApp, TEST_KEY, testOptions } from '../helpers/app';

describe('model lists after close()', () => {
  it('GET /v1/models answers 503 shutting_down with Retry-After once the gateway is closed', async () => {
    const { app, gateway } = buildApp(testOptions());
    await gateway.close();
    const res = await request(app).get('/v1/models').set('authorization', `Bearer ${TEST_KEY}`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.error).toMatchObject({ code: 'shutting_down' });
  });
});
