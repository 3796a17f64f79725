/** createRedisStores fills every store slot on one client: a gateway built from it authenticates, charges and routes. */
import type { Redis } from 'ioredis';
import { serveGateway } from '../../helpers/app';
import { createRedisClient, createRedisStores } from '../../../lib/stores/redis';
import { RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';

let server: RedisServer;
let client: Redis;
beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options });
});
afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

it('serves a call from a key and balance in Redis, with every slot a Redis store', async () => {
  const redis = createRedisStores({ client, prefix: `${RUN_PREFIX}create:` });
  expect(Object.keys(redis.stores).sort()).toEqual(['deployments', 'quota', 'rateLimits', 'responses', 'threads']);
  await redis.keyStore.init();
  await redis.stores.quota.init();
  await redis.keyStore.add({ key: 'sk-redis-stores-000000001', id: 'alice' });
  await redis.stores.quota.setBalance('alice', 1_000);
  const gateway = await serveGateway({ ...redis, models: [{ id: 'rosetta-echo', provider: 'local' }] });
  try {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-redis-stores-000000001' },
      body: JSON.stringify({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect((await redis.stores.quota.getAccount('alice')).spent).toBeGreaterThan(0);
  } finally {
    await gateway.close();
  }
  expect(createRedisStores({ client, responses: false }).stores.responses).toBeUndefined();
});
