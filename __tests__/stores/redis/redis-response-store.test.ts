/**
 * RedisResponseStore on a real redis-server: the shared ResponseStore contract, the record's expiry, its key layout,
 * its options, and a gateway serving previous_response_id from it.
 */
import type { Redis } from 'ioredis';
import request from 'supertest';
import { LocalProvider } from '../../../lib';
import { createRedisClient, RedisResponseStore } from '../../../lib/stores/redis';
import { buildApp, testOptions, TEST_KEY } from '../../helpers/app';
import { RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';
import { describeResponseStoreContract, sampleRecord } from '../../helpers/response-store-contract';

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}responses${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
  await new RedisResponseStore({ client }).init();
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

async function store(ttlSeconds?: number): Promise<RedisResponseStore> {
  const created = new RedisResponseStore({ client, prefix: freshPrefix(), ...(ttlSeconds ? { ttlSeconds } : {}) });
  await created.init();
  return created;
}

describeResponseStoreContract('RedisResponseStore', { create: () => store() });

describe('RedisResponseStore', () => {
  it('stores each record under its prefix with the TTL as its expiry (30 days by default)', async () => {
    const byDefault = await store();
    await byDefault.put('alice', 'resp_a', sampleRecord('resp_a'));
    const key = byDefault.recordKey('alice', 'resp_a');
    expect(key.startsWith(byDefault.prefix)).toBe(true);
    const ttl = await client.ttl(key);
    expect(ttl).toBeGreaterThan(30 * 86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(30 * 86_400);
    const short = await store(120);
    await short.put('alice', 'resp_a', sampleRecord('resp_a'));
    expect(await client.ttl(short.recordKey('alice', 'resp_a'))).toBeLessThanOrEqual(120);
  });

  it("indexes the record's item ids under its prefix with the record's expiry", async () => {
    const short = await store(120);
    await short.put('alice', 'resp_a', sampleRecord('resp_a'));
    for (const itemId of ['msg_resp_a_0', 'msg_resp_a_in0']) {
      const key = short.itemKey('alice', itemId);
      expect(key.startsWith(short.prefix)).toBe(true);
      expect(await client.get(key)).toBe('resp_a');
      const ttl = await client.ttl(key);
      expect(ttl).toBeGreaterThan(60);
      expect(ttl).toBeLessThanOrEqual(120);
    }
  });

  it('returns undefined once Redis has expired a record', async () => {
    const kept = await store();
    await kept.put('alice', 'resp_a', sampleRecord('resp_a'));
    await client.pexpireat(kept.recordKey('alice', 'resp_a'), 1);
    expect(await kept.get('alice', 'resp_a')).toBeUndefined();
  });

  it('refuses a bad ttlSeconds and a misspelt option', () => {
    expect(() => new RedisResponseStore({ client, ttlSeconds: 1.5 })).toThrow(/ttlSeconds/);
    expect(() => new RedisResponseStore({ client, ttlSecond: 5 } as never)).toThrow(
      /'ttlSecond' is not an option.*ttlSeconds/,
    );
  });

  it('serves previous_response_id through a gateway, and answers 503 when Redis fails', async () => {
    const responseStore = await store();
    const { app } = buildApp(testOptions({ providers: [new LocalProvider()], responseStore }));
    const first = await request(app)
      .post('/v1/responses')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'rosetta-echo', input: 'Remember me' });
    expect(first.status).toBe(200);
    const second = await request(app).get(`/v1/responses/${first.body.id}`).set('authorization', `Bearer ${TEST_KEY}`);
    expect(second.body).toEqual(first.body);
    const broken = new RedisResponseStore({ client, prefix: freshPrefix() });
    jest.spyOn(broken, 'get').mockRejectedValue(new Error('connection lost'));
    const { app: failing } = buildApp(testOptions({ providers: [new LocalProvider()], responseStore: broken }));
    const refused = await request(failing)
      .post('/v1/responses')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'rosetta-echo', input: 'x', previous_response_id: first.body.id });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
  });
});
