/** The Redis deployment store: the contract against a real redis-server, and what two instances on it share. */
import type { Redis } from 'ioredis';
import { createRedisClient, RedisDeploymentStore } from '../../../lib/stores/redis';
import { describeDeploymentStoreContract } from '../../helpers/deployment-store-contract';
import { RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}deployments${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

describeDeploymentStoreContract('RedisDeploymentStore', {
  async create() {
    const store = new RedisDeploymentStore({ client, prefix: freshPrefix(), cacheMs: 0 });
    await store.init();
    return store;
  },
});

describe('RedisDeploymentStore in Redis', () => {
  it('two instances on one prefix share a cooldown, a probe claim and a session', async () => {
    const prefix = freshPrefix();
    const one = new RedisDeploymentStore({ client, prefix, cacheMs: 0 });
    const two = new RedisDeploymentStore({ client, prefix, cacheMs: 0 });
    await one.init();
    await one.fail('d', { windowMs: 60_000, threshold: 1, cooldownMs: 30_000, immediate: false });
    expect((await two.read(['d']))[0]!.coolingMs).toBeGreaterThan(29_000);
    await one.setAffinity('model\nsession', 'd', 60_000);
    expect(await two.affinity('model\nsession')).toBe('d');
  });

  it('keeps every key under its prefix, with an expiry', async () => {
    const prefix = freshPrefix();
    const store = new RedisDeploymentStore({ client, prefix, cacheMs: 0 });
    await store.fail('d', { windowMs: 1000, threshold: 3, cooldownMs: 1000, immediate: false });
    await store.setAffinity('s', 'd', 5000);
    const keys = await client.keys(`${prefix}*`);
    expect(keys.sort()).toEqual([`${prefix}session:s`, `${prefix}{deployments}:d`]);
    for (const key of keys) expect(await client.pttl(key)).toBeGreaterThan(0);
  });

  it('reuses what it read for cacheMs, and drops it on a change of its own', async () => {
    const prefix = freshPrefix();
    const cached = new RedisDeploymentStore({ client, prefix, cacheMs: 60_000 });
    const other = new RedisDeploymentStore({ client, prefix, cacheMs: 0 });
    expect((await cached.read(['d']))[0]!.coolingMs).toBe(0);
    await other.fail('d', { windowMs: 1000, threshold: 1, cooldownMs: 30_000, immediate: false });
    expect((await cached.read(['d']))[0]!.coolingMs).toBe(0);
    await cached.succeed('e');
    expect((await cached.read(['d']))[0]!.coolingMs).toBeGreaterThan(0);
  });

  it('refuses a bad cacheMs, naming it', () => {
    expect(() => new RedisDeploymentStore({ client, cacheMs: -1 })).toThrow(/cacheMs/);
    expect(() => new RedisDeploymentStore({ client, cacheMS: 5 } as never)).toThrow(/did you mean 'cacheMs'/);
  });
});
