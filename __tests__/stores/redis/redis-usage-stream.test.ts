/**
 * RedisUsageStream on a real redis-server: the usage log contract, its stream's layout and trimming, its options, and a
 * gateway delivering its records to it.
 */
import type { Redis } from 'ioredis';
import request from 'supertest';
import { GatewayConfigError } from '../../../lib';
import { createRedisClient, RedisUsageStream } from '../../../lib/stores/redis';
import { buildApp, testOptions, TEST_KEY } from '../../helpers/app';
import { RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';
import { describeUsageLogContract, sampleUsageRecord } from '../../helpers/usage-log-contract';

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}usage${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
  await new RedisUsageStream({ client }).init();
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

async function stream(maxLength?: number, prefix = freshPrefix()): Promise<RedisUsageStream> {
  const created = new RedisUsageStream({ client, prefix, ...(maxLength ? { maxLength } : {}) });
  await created.init();
  return created;
}

describeUsageLogContract('RedisUsageStream', { create: () => stream() });

describe('RedisUsageStream', () => {
  it('appends one entry per record, one field holding its JSON, under <prefix>usage', async () => {
    const prefix = freshPrefix();
    const usage = await stream(undefined, prefix);
    const record = sampleUsageRecord('alice');
    await usage.record(record);
    expect(usage.key).toBe(`${prefix}usage`);
    const entries = await client.xrange(usage.key, '-', '+');
    expect(entries).toHaveLength(1);
    expect(entries[0]![1]).toEqual(['record', JSON.stringify(record)]);
  });

  it('trims the stream to about maxLength entries', async () => {
    const usage = await stream(100);
    for (let index = 0; index < 1_000; index++) await usage.record(sampleUsageRecord('alice'));
    const length = await client.xlen(usage.key);
    expect(length).toBeGreaterThanOrEqual(100);
    expect(length).toBeLessThan(1_000);
  });

  it('skips entries that are not records (another writer on the stream)', async () => {
    const usage = await stream();
    await client.xadd(usage.key, '*', 'other', 'x');
    await client.xadd(usage.key, '*', 'record', '{not json');
    const record = sampleUsageRecord('alice');
    await usage.record(record);
    expect(await usage.query()).toEqual([record]);
  });

  it.each([
    [{ maxLength: 0 }, 'maxLength'],
    [{ maxLength: 1.5 }, 'maxLength'],
    [{ maxLen: 5 }, 'maxLen'],
  ])('refuses %j', (options, option) => {
    expect(() => new RedisUsageStream({ client, ...options } as never)).toThrow(GatewayConfigError);
    try {
      new RedisUsageStream({ client, ...options } as never);
    } catch (error) {
      expect((error as GatewayConfigError).option).toBe(option);
    }
  });

  it("gets a gateway's records: one per call, refused ones included, queried by key", async () => {
    const usage = await stream();
    const { app, gateway } = buildApp(testOptions({ usageSink: usage }));
    const ok = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hello' }] });
    expect(ok.status).toBe(200);
    const refused = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-wrong-key-0000000000')
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hello' }] });
    expect(refused.status).toBe(401);
    await gateway.close();
    const all = await usage.query();
    expect(all.map((record) => [record.requestId, record.status])).toEqual([
      [refused.headers['x-request-id'], 401],
      [ok.headers['x-request-id'], 200],
    ]);
    expect((await usage.query({ keyId: 'rich' })).map((record) => record.requestId)).toEqual([
      ok.headers['x-request-id'],
    ]);
  });
});
