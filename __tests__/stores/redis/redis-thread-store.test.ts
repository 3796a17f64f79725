/** RedisThreadStore on a real redis-server: the shared ThreadStore contract, its key layout and expiry, its options. */
import type { Redis } from 'ioredis';
import request from 'supertest';
import { buildApp, testOptions, TEST_KEY } from '../../helpers/app';
import { createRedisClient, createRedisStores, RedisThreadStore } from '../../../lib/stores/redis';
import { RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';
import { describeThreadStoreContract, sampleThread } from '../../helpers/thread-store-contract';

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}threads${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

async function store(idleSeconds?: number): Promise<RedisThreadStore> {
  const created = new RedisThreadStore({ client, prefix: freshPrefix(), ...(idleSeconds ? { idleSeconds } : {}) });
  await created.init();
  return created;
}

describeThreadStoreContract('RedisThreadStore', { create: store });

describe('RedisThreadStore', () => {
  it('keeps each turn under its prefix for 5 minutes by default', async () => {
    const threads = await store();
    await threads.put('alice', 'msg_a', sampleThread());
    const key = threads.threadKey('alice', 'msg_a');
    expect(key.startsWith(threads.prefix)).toBe(true);
    const ttl = await client.ttl(key);
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  it('is one of the stores createRedisStores gives, unless turned off', () => {
    expect(createRedisStores({ client }).stores.threads).toBeInstanceOf(RedisThreadStore);
    expect(createRedisStores({ client, threads: false }).stores.threads).toBeUndefined();
  });

  it('refuses a bad idle lifetime by name', () => {
    expect(() => new RedisThreadStore({ client, idleSeconds: 1.5 })).toThrow(/idleSeconds/);
  });
});

describe('message threads on a shared RedisThreadStore', () => {
  it('a thread created on one gateway continues on another, and the continued turn is deleted', async () => {
    const threads = await store();
    const [first, second] = [0, 1].map(() => buildApp(testOptions({ stores: { threads } })).app);
    const send = (app: typeof first, body: object) =>
      request(app!)
        .post('/v1/messages')
        .set('x-api-key', TEST_KEY)
        .send({ model: 'rosetta-echo', max_tokens: 64, ...body });
    const created = await send(first, {
      system: 'Echo.',
      messages: [{ role: 'user', content: 'one' }],
      thread: { type: 'create' },
    });
    expect(created.status).toBe(200);
    expect(await threads.get('rich', created.body.id)).toBeDefined();
    const continued = await send(second, {
      messages: [{ role: 'user', content: 'two' }],
      thread: { type: 'continue', previous_message_id: created.body.id },
    });
    expect(continued.status).toBe(200);
    const turn = await threads.get('rich', continued.body.id);
    expect(turn?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    // Each answer is continued once: the continued turn is gone, and continuing it again is a 404 thread_not_found.
    expect(await threads.get('rich', created.body.id)).toBeUndefined();
    const again = await send(first, {
      messages: [{ role: 'user', content: 'three' }],
      thread: { type: 'continue', previous_message_id: created.body.id },
    });
    expect(again.status).toBe(404);
    expect(again.body.error.details).toEqual({ error_code: 'thread_not_found' });
  });
});
