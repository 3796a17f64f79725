/**
 * The dashboard over a RedisUsageStream on a real redis-server: two gateway instances write their calls to one stream,
 * and a dashboard on a third connection (another instance, or an admin process) shows every instance's calls, summarised
 * from the tallies they keep.
 */
import type { Redis } from 'ioredis';
import request from 'supertest';
import { createDashboard } from '../../../lib/dashboard';
import { createRedisClient, RedisUsageStream } from '../../../lib/stores/redis';
import { buildApp, TEST_KEY, testOptions } from '../../helpers/app';
import { RUN_PREFIX, type RedisServer, startRedisServer } from '../../helpers/redis-server';

let server: RedisServer;
let client: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

it("shows every instance's calls, summarised and listed, from the shared stream", async () => {
  const prefix = `${RUN_PREFIX}dashboard:`;
  const instances = [1, 2].map(() => {
    const usage = new RedisUsageStream({ client, prefix });
    return { usage, ...buildApp(testOptions({ observability: { usageSink: usage } })) };
  });
  const reader = new RedisUsageStream({ client, prefix });
  const dashboard = buildApp(testOptions()).app;
  dashboard.use('/admin', createDashboard({ usage: reader, allowUnauthenticated: true }));
  try {
    const chat = (app: (typeof instances)[number]['app'], key: string) =>
      request(app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hello from an instance' }] });
    const sent: string[] = [];
    for (const [index, instance] of instances.entries()) {
      for (let call = 0; call < 3 + index; call++)
        sent.push((await chat(instance.app, TEST_KEY)).headers['x-request-id']!);
      sent.push((await chat(instance.app, 'sk-wrong-key-0123456789')).headers['x-request-id']!);
    }
    // Delivered on the next turns of the event loop: wait until the stream holds them all.
    for (let wait = 0; (await client.xlen(reader.key)) < sent.length && wait < 100; wait++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // The summary comes from the tallies both instances keep, not from the records.
    const query = jest.spyOn(reader, 'query');
    const summary = (await request(dashboard).get('/admin/api/summary?window=15m').expect(200)).body;
    expect(query).not.toHaveBeenCalled();
    query.mockRestore();
    expect(summary.totals).toMatchObject({ calls: 9, ok: 7, errors: 2 });
    expect(summary.latency.count).toBe(7);
    expect(summary.topKeys.map((row: { name: string | null }) => row.name)).toEqual(['rich', null]);
    const listed = (await request(dashboard).get('/admin/api/calls?window=15m').expect(200)).body.calls;
    expect(listed.map((call: { requestId: string }) => call.requestId).sort()).toEqual([...sent].sort());
    const refused = (await request(dashboard).get('/admin/api/calls?outcome=error').expect(200)).body.calls;
    expect(refused).toHaveLength(2);
    const rich = (await request(dashboard).get('/admin/api/calls?key=rich&limit=4').expect(200)).body.calls;
    expect(rich).toHaveLength(4);
  } finally {
    await Promise.all(instances.map((instance) => instance.gateway.close()));
  }
});
