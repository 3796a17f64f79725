/**
 * The Redis adapters on a real redis-server: the shared store contracts, and what only Redis has (digests at rest,
 * prefixes, exact decimals, expiry, fail-fast 503s).
 */
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { LocalProvider, MemoryKeyStore, type GatewayOptions, type Provider } from '../../../lib';
import {
  createRedisClient,
  FAIL_FAST_REDIS_OPTIONS,
  QUOTA_SCRIPTS,
  RedisKeyStore,
  RedisQuotaStore,
  RedisRateLimitStore,
  type RedisQuotaStoreOptions,
} from '../../../lib/stores/redis';
import { buildApp } from '../../helpers/app';
import { describeKeyStoreContract } from '../../helpers/key-store-contract';
import { describeQuotaStoreContract } from '../../helpers/quota-store-contract';
import { describeRateLimitStoreContract } from '../../helpers/rate-limit-store-contract';
import {
  itStopsRedis,
  RUN_PREFIX,
  startOwnRedisServer,
  startRedisServer,
  type RedisServer,
} from '../../helpers/redis-server';

const info = { model: 'm', operation: 'generate' as const, requestId: 'r' };

let server: RedisServer;
let client: Redis;
let prefixes = 0;
const freshPrefix = () => `${RUN_PREFIX}test${++prefixes}:`;

beforeAll(async () => {
  server = await startRedisServer();
  // Lenient timeout for the shared test client: a loaded CI machine must not turn slow replies into failures.
  client = createRedisClient({ ...server.options, commandTimeout: 15_000 });
  await new RedisKeyStore({ client }).init();
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

async function quotaStore(
  balances: Record<string, number> = {},
  options: RedisQuotaStoreOptions = {},
): Promise<RedisQuotaStore> {
  const store = new RedisQuotaStore({ client, prefix: freshPrefix(), ...options });
  await store.init();
  for (const [keyId, balance] of Object.entries(balances)) await store.setBalance(keyId, balance);
  return store;
}

async function keyStore(): Promise<RedisKeyStore> {
  const store = new RedisKeyStore({ client, prefix: freshPrefix() });
  await store.init();
  return store;
}

/** A loopback port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Every value under a prefix, as one string: what an attacker with a Redis dump would see. */
async function dump(prefix: string): Promise<{ keys: string[]; text: string }> {
  const keys = await client.keys(`${prefix}*`);
  const values: unknown[] = [];
  for (const key of keys) {
    const type = await client.type(key);
    if (type === 'hash') values.push(await client.hgetall(key));
    else if (type === 'set') values.push(await client.smembers(key));
    else if (type === 'zset') values.push(await client.zrange(key, '0', '-1', 'WITHSCORES'));
    else values.push(await client.get(key));
  }
  return { keys, text: JSON.stringify([keys, values]) };
}

describeQuotaStoreContract('RedisQuotaStore', {
  create: (balances) => quotaStore(balances),
  createExpiring: (balances, ttlMs) => quotaStore(balances, { reservationTtlMs: ttlMs }),
});

describeRateLimitStoreContract('RedisRateLimitStore', {
  async create(windowMs) {
    const store = new RedisRateLimitStore({ client, prefix: freshPrefix(), windowMs });
    await store.init();
    return store;
  },
});

describe('RedisRateLimitStore in Redis', () => {
  it('keeps a key principal rate limits through the key store', async () => {
    const store = await keyStore();
    const rateLimits = { requestsPerMinute: 5, models: { 'rosetta-echo': { concurrent: 1 } } };
    await store.add({ key: 'sk-rate-limited-0123456789', id: 'limited', rateLimits });
    expect(await store.authenticate('sk-rate-limited-0123456789')).toEqual({ id: 'limited', rateLimits });
    await expect(store.add({ key: 'sk-bad-limits-0123456789', rateLimits: { requestsPerMinute: -1 } })).rejects.toThrow(
      /rateLimits.requestsPerMinute must be a positive integer/,
    );
  });

  it('frees the slot of a call whose instance died, after leaseTtlMs, and lets idle scopes expire', async () => {
    const scopes = [{ id: 'k', concurrent: 1, requestsPerMinute: 100 }];
    // The slot is held while its lease lives: checked with a lease no stall of this process can outlast (with a
    // 100 ms lease, a busy machine that took 100 ms between two calls saw the slot freed before it was checked).
    const held = new RedisRateLimitStore({ client, prefix: freshPrefix(), leaseTtlMs: 60_000, windowMs: 1000 });
    await held.init();
    expect((await held.acquire({ scopes, tokens: 0 })).ok).toBe(true);
    expect(await held.acquire({ scopes, tokens: 0 })).toMatchObject({ ok: false, reason: 'concurrent' });
    // The same slot under a 100 ms lease is free again once the lease has lapsed, however long that took.
    const prefix = freshPrefix();
    const store = new RedisRateLimitStore({ client, prefix, leaseTtlMs: 100, windowMs: 1000 });
    await store.init();
    expect((await store.acquire({ scopes, tokens: 0 })).ok).toBe(true);
    await sleep(150);
    expect((await store.acquire({ scopes, tokens: 0 })).ok).toBe(true);
    const [hash] = store.scopeKeys('k');
    expect(await client.pttl(hash)).toBeGreaterThan(0);
    expect(store.scopeKeys('k\nm')[0]).toBe(`${prefix}rate:{k}:model:m`);
  });

  it('refuses unknown options with a suggestion', () => {
    expect(() => new RedisRateLimitStore({ client, leaseTTLMs: 5 } as never)).toThrow(/did you mean 'leaseTtlMs'/);
  });
});

describeKeyStoreContract('RedisKeyStore', {
  async create(entries) {
    const store = await keyStore();
    for (const entry of entries) await store.add(entry);
    return store;
  },
});

describe('RedisKeyStore in Redis', () => {
  it('keeps only SHA-256 digests: the secret appears in no Redis key or value', async () => {
    const store = await keyStore();
    const secret = 'sk-live-very-secret-0123456789';
    await store.add({ key: secret, id: 'alice', allowedModels: ['rosetta-echo'], metadata: { plan: 'pro' } });
    const digest = createHash('sha256').update(secret).digest('hex');
    const { keys, text } = await dump(store.prefix);
    expect(keys.sort()).toEqual([`${store.prefix}key-id:alice`, `${store.prefix}key:${digest}`]);
    expect(await client.hgetall(`${store.prefix}key:${digest}`)).toEqual({
      digest,
      id: 'alice',
      allowedModels: '["rosetta-echo"]',
      metadata: '{"plan":"pro"}',
    });
    expect(text).not.toContain(secret);
    expect(text).not.toContain('very-secret');
  });

  it('a prefix keeps gateways that share one Redis apart', async () => {
    const [one, two] = [await keyStore(), await keyStore()];
    await one.add({ key: 'sk-shared-secret', id: 'in-one' });
    expect(await two.authenticate('sk-shared-secret')).toBeUndefined();
    await two.add({ key: 'sk-shared-secret', id: 'in-two' });
    expect(await one.authenticate('sk-shared-secret')).toEqual({ id: 'in-one' });
    expect(await two.authenticate('sk-shared-secret')).toEqual({ id: 'in-two' });
  });

  it('removes a key by its secret; removeById removes every key of an id (key rotation)', async () => {
    const store = await keyStore();
    await store.add({ key: 'sk-old', id: 'carol' });
    await store.add({ key: 'sk-new', id: 'carol' });
    await store.add({ key: 'sk-dave', id: 'dave' });
    expect(await store.remove('sk-old')).toBe(true);
    expect(await store.remove('sk-old')).toBe(false);
    expect(await store.authenticate('sk-new')).toEqual({ id: 'carol' });
    await store.add({ key: 'sk-old', id: 'carol' });
    expect(await store.removeById('carol')).toBe(true);
    expect(await store.authenticate('sk-old')).toBeUndefined();
    expect(await store.authenticate('sk-new')).toBeUndefined();
    expect(await store.authenticate('sk-dave')).toEqual({ id: 'dave' });
    expect((await dump(store.prefix)).keys.filter((key) => key.includes('carol'))).toEqual([]);
  });

  it('moving a key to another id leaves no stale index entry', async () => {
    const store = await keyStore();
    await store.add({ key: 'sk-moving', id: 'from' });
    await store.add({ key: 'sk-moving', id: 'to' });
    expect(await client.smembers(store.indexKey('from'))).toEqual([]);
    expect(await client.smembers(store.indexKey('to'))).toEqual([
      createHash('sha256').update('sk-moving').digest('hex'),
    ]);
    expect(await store.removeById('from')).toBe(false);
    expect(await store.authenticate('sk-moving')).toEqual({ id: 'to' });
  });

  it('many concurrent adds of one key leave exactly one record and one index entry', async () => {
    const store = await keyStore();
    await Promise.all(Array.from({ length: 40 }, (_, index) => store.add({ key: 'sk-raced', id: `id-${index % 4}` })));
    const { keys } = await dump(store.prefix);
    const principal = await store.authenticate('sk-raced');
    expect(keys.filter((key) => key.includes(':key:'))).toHaveLength(1);
    expect(keys.filter((key) => key.includes(':key-id:'))).toEqual([`${store.prefix}key-id:${principal!.id}`]);
  });
});

describe('RedisQuotaStore in Redis', () => {
  it('decimals are exact: amounts are kept as integer micro-credits', async () => {
    const store = await quotaStore({ a: 1 });
    for (let index = 0; index < 10; index++) {
      const result = await store.reserve('a', 0.1, { minimum: 0.1, info });
      if (!result.ok) throw new Error('refused');
      expect(result.reservation.amount).toBe(0.1);
      await store.settle(result.reservation, 0.1);
    }
    expect(await store.getAccount('a')).toEqual({ balance: 0, reserved: 0, spent: 1, available: 0, open: 0 });
    let floats = 1;
    for (let index = 0; index < 10; index++) floats -= 0.1;
    expect(floats).not.toBe(0);
  });

  it('takes balances up to Number.MAX_SAFE_INTEGER units exactly, and refuses larger ones', async () => {
    const store = await quotaStore();
    await store.setBalance('big', 1_000_000_000.123456);
    const result = await store.reserve('big', 1_000_000_000, { minimum: 1, info });
    if (!result.ok) throw new Error('refused');
    await store.settle(result.reservation, 0.000001);
    expect(await store.getAccount('big')).toMatchObject({
      balance: 1_000_000_000.123455,
      spent: 0.000001,
      reserved: 0,
    });
    await store.setBalance('big', 9_007_199_254);
    expect((await store.getAccount('big')).balance).toBe(9_007_199_254);
    await expect(store.setBalance('big', 9_007_199_255)).rejects.toMatchObject({
      code: 'ERR_GATEWAY_INVALID_ARGUMENT',
    });
    const wholeCredits = await quotaStore({}, { unitsPerCredit: 1 });
    await wholeCredits.setBalance('huge', Number.MAX_SAFE_INTEGER);
    expect((await wholeCredits.getAccount('huge')).balance).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('an unknown key has no credits by default; Infinity makes keys unmetered; addBalance tops up', async () => {
    const store = await quotaStore();
    expect(await store.reserve('nobody', 10, { minimum: 1, info })).toMatchObject({ ok: false, available: 0 });
    expect(await store.addBalance('nobody', 25.5)).toBe(25.5);
    expect(await store.addBalance('nobody', -0.5)).toBe(25);
    await store.setBalance('vip', Infinity);
    const vip = await store.reserve('vip', 1e9, { minimum: 1, info });
    if (!vip.ok) throw new Error('refused');
    await store.settle(vip.reservation, 123);
    expect(await store.getAccount('vip')).toMatchObject({
      balance: Infinity,
      available: Infinity,
      spent: 123,
      reserved: 0,
    });
    await expect(store.addBalance('vip', 1)).rejects.toThrow(/unmetered/);
    const open = await quotaStore({}, { defaultBalance: Infinity });
    expect((await open.reserve('anyone', 1e6, { minimum: 1, info })).ok).toBe(true);
  });

  it('lays its keys out as documented: an account hash, open holds, their expiries, in one hash-tag slot', async () => {
    const store = await quotaStore({ alice: 100 }, { reservationTtlMs: 60_000 });
    const before = Number((await client.time())[0]) * 1000;
    const result = await store.reserve('alice', 30, { minimum: 1, info });
    if (!result.ok) throw new Error('refused');
    const p = store.prefix;
    expect(store.accountKeys('alice')).toEqual([
      `${p}quota:{alice}`,
      `${p}quota:{alice}:holds`,
      `${p}quota:{alice}:expiry`,
      `${p}quota:{alice}:lapsed`,
    ]);
    expect(await client.hgetall(`${p}quota:{alice}`)).toEqual({ balance: '100000000', reserved: '30000000' });
    expect(await client.hgetall(`${p}quota:{alice}:holds`)).toEqual({ [result.reservation.id]: '30000000' });
    const expiresAt = Number(await client.zscore(`${p}quota:{alice}:expiry`, result.reservation.id));
    expect(expiresAt - before).toBeGreaterThanOrEqual(59_000);
    expect(expiresAt - before).toBeLessThanOrEqual(62_000);
    await store.settle(result.reservation, 12);
    expect(await client.hgetall(`${p}quota:{alice}`)).toEqual({
      balance: '88000000',
      reserved: '0',
      spent: '12000000',
    });
    expect(await client.exists(`${p}quota:{alice}:holds`, `${p}quota:{alice}:expiry`)).toBe(0);
  });

  it('a resent reserve (same reservation id, e.g. after a reconnect) holds once', async () => {
    const store = await quotaStore({ a: 100 });
    const run = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<[string, string]>>)[
      QUOTA_SCRIPTS.reserve.name
    ]!.bind(client);
    const args = ['same-id', 40_000_000, 1, 600_000, 86_400_000, 100, '0'];
    expect(await run(...store.accountKeys('a'), ...args)).toEqual(['held', '40000000']);
    expect(await run(...store.accountKeys('a'), ...args)).toEqual(['held', '40000000']);
    expect(await store.getAccount('a')).toMatchObject({ reserved: 40, open: 1 });
  });

  it('a late settle after the lapse window is ignored: nothing is charged for a reservation long forgotten', async () => {
    const store = await quotaStore({ a: 100 }, { reservationTtlMs: 100, lateSettleWindowMs: 100 });
    const result = await store.reserve('a', 50, { minimum: 1, info });
    if (!result.ok) throw new Error('refused');
    await sleep(150);
    await store.getAccount('a');
    await sleep(150);
    await store.settle(result.reservation, 50);
    expect(await store.getAccount('a')).toMatchObject({ balance: 100, spent: 0, reserved: 0, open: 0 });
  });

  it('checks its options at creation, with stable codes and "did you mean"', () => {
    const create = (options: unknown) => () => new RedisQuotaStore(options as RedisQuotaStoreOptions);
    expect(create({ client, reservationTTLMs: 5 })).toThrow(
      expect.objectContaining({
        code: 'ERR_GATEWAY_UNKNOWN_OPTION',
        message: expect.stringContaining("did you mean 'reservationTtlMs'"),
      }),
    );
    expect(create({ client, connection: server.url })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_OPTION_CONFLICT' }),
    );
    expect(create({ client, reservationTtlMs: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'reservationTtlMs' }),
    );
    expect(create({ client, defaultBalance: -1 })).toThrow(expect.objectContaining({ option: 'defaultBalance' }));
    expect(create({ client: {} })).toThrow(
      expect.objectContaining({ option: 'client', message: expect.stringContaining('ioredis client') }),
    );
    expect(() => new RedisKeyStore({ client, prefx: 'x' } as never)).toThrow(
      expect.objectContaining({ message: expect.stringContaining("did you mean 'prefix'") }),
    );
  });

  it('a store created from connection options owns its client and closes it; a lent client stays open', async () => {
    const owned = new RedisQuotaStore({ connection: server.url, prefix: freshPrefix() });
    await owned.init();
    await owned.setBalance('a', 1);
    await owned.close();
    expect(owned.client.status).toBe('end');
    const lent = new RedisQuotaStore({ client, prefix: freshPrefix() });
    await lent.init();
    await lent.close();
    expect(client.status).toBe('ready');
  });
});

describe('when Redis is unreachable', () => {
  it('init fails fast with a clear message, and every call throws at once', async () => {
    const connection = { host: '127.0.0.1', port: await deadPort() };
    const quota = new RedisQuotaStore({ connection });
    const keys = new RedisKeyStore({ connection });
    let started = performance.now();
    await expect(quota.init()).rejects.toThrow(/RedisQuotaStore: cannot reach Redis/);
    await expect(keys.init()).rejects.toThrow(/RedisKeyStore: cannot reach Redis/);
    expect(performance.now() - started).toBeLessThan(2500);
    // At once: ioredis refuses a command while disconnected (no offline queue) instead of holding it until a
    // reconnect or the 2 s command timeout. The refusal itself says so; the clock only checks that no call waited
    // for that timeout (under 500 ms was a bound a busy machine's stall could pass).
    started = performance.now();
    const refusedAtOnce = /enableOfflineQueue options is false/;
    await expect(quota.reserve('a', 1, { minimum: 1, info })).rejects.toThrow(refusedAtOnce);
    await expect(quota.settle({ id: 'x', keyId: 'a', amount: 1 }, 1)).rejects.toThrow(refusedAtOnce);
    await expect(keys.authenticate('sk-any')).rejects.toThrow(refusedAtOnce);
    expect(performance.now() - started).toBeLessThan(FAIL_FAST_REDIS_OPTIONS.commandTimeout!);
    await quota.close();
    await keys.close();
  });

  it("a gateway whose Redis is down at start: ready rejects and calls answer 503 in the caller's envelope", async () => {
    const connection = { host: '127.0.0.1', port: await deadPort() };
    const { app, gateway } = buildApp({
      keyStore: new RedisKeyStore({ connection }),
      quotaStore: new RedisQuotaStore({ connection }),
    });
    await expect(gateway.ready).rejects.toThrow(/cannot reach Redis/);
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-any')
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { message: expect.any(String), type: 'server_error', param: null, code: null } });
    await gateway.close();
  });

  itStopsRedis(
    "Redis going down under a running gateway: 503 at once in each protocol's envelope, nothing charged",
    async () => {
      const own = await startOwnRedisServer();
      const ownClient = createRedisClient(own.url);
      try {
        const keyStore = new RedisKeyStore({ client: ownClient });
        const quotaStore = new RedisQuotaStore({ client: ownClient });
        const { app, gateway } = buildApp({ keyStore, quotaStore });
        const memoryKeys = buildApp({
          keyStore: new MemoryKeyStore([{ key: 'sk-down-test', id: 'down' }]),
          quotaStore,
        });
        await gateway.ready;
        await memoryKeys.gateway.ready;
        await keyStore.add({ key: 'sk-down-test', id: 'down' });
        await quotaStore.setBalance('down', 1000);
        const ok = await request(app)
          .post('/v1/chat/completions')
          .set('authorization', 'Bearer sk-down-test')
          .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hello there' }] });
        expect(ok.status).toBe(200);
        expect(await quotaStore.getAccount('down')).toMatchObject({ spent: ok.body.usage.total_tokens, reserved: 0 });

        await own.stop();
        const started = performance.now();
        const openai = await request(app)
          .post('/v1/chat/completions')
          .set('authorization', 'Bearer sk-down-test')
          .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
        expect(openai.status).toBe(503);
        expect(openai.headers['retry-after']).toBe('1');
        expect(openai.body).toEqual({
          error: {
            message: 'The key store is unavailable; try again later.',
            type: 'server_error',
            param: null,
            code: null,
          },
        });
        const anthropic = await request(app)
          .post('/v1/messages')
          .set('x-api-key', 'sk-down-test')
          .send({ model: 'rosetta-echo', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
        expect(anthropic.status).toBe(503);
        expect(anthropic.body).toMatchObject({
          type: 'error',
          error: { type: expect.any(String), message: expect.stringContaining('unavailable') },
        });
        const gemini = await request(app)
          .post('/v1beta/models/rosetta-echo:generateContent')
          .set('x-goog-api-key', 'sk-down-test')
          .send({ contents: [{ parts: [{ text: 'x' }] }] });
        expect(gemini.status).toBe(503);
        expect(gemini.body).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
        expect(performance.now() - started).toBeLessThan(1500);

        const quotaDown = await request(memoryKeys.app)
          .post('/v1/chat/completions')
          .set('authorization', 'Bearer sk-down-test')
          .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
        expect(quotaDown.status).toBe(503);
        expect(quotaDown.body.error).toMatchObject({
          message: 'The quota store is unavailable; try again later.',
          type: 'server_error',
        });
        await gateway.close();
        await memoryKeys.gateway.close();
      } finally {
        ownClient.disconnect();
        await own.stop();
      }
    },
  );

  /**
   * A call whose settle times out: the provider answers, then Redis stops taking writes for 2 s
   * (CLIENT PAUSE WRITE), longer than the gateway client's 500 ms command timeout.
   */
  async function callWithStalledSettle() {
    const gatewayClient = createRedisClient({ ...server.options, commandTimeout: 500 });
    const local = new LocalProvider();
    let providerCharge = 0;
    const stalling: Provider = {
      specificationVersion: 'v1',
      name: 'stalling',
      async generate(call, context) {
        const response = await local.generate!(call, context);
        providerCharge = response.usage.inputTokens + response.usage.outputTokens;
        await client.call('CLIENT', 'PAUSE', '2000', 'WRITE');
        return response;
      },
    };
    try {
      const quotaStore = new RedisQuotaStore({ client: gatewayClient, prefix: freshPrefix() });
      const options: GatewayOptions = {
        keyStore: new MemoryKeyStore([{ key: 'sk-stall', id: 'stall' }]),
        quotaStore,
        providers: [stalling],
        models: [{ id: 'stalling-echo', provider: 'stalling', upstreamModel: 'rosetta-echo' }],
      };
      const { app, gateway } = buildApp(options);
      await gateway.ready;
      await quotaStore.setBalance('stall', 1000);
      const started = performance.now();
      const res = await request(app)
        .post('/v1/chat/completions')
        .set('authorization', 'Bearer sk-stall')
        .send({ model: 'stalling-echo', messages: [{ role: 'user', content: 'stall after this' }] });
      const elapsed = performance.now() - started;
      await sleep(2300);
      const account = await quotaStore.getAccount('stall');
      await gateway.close();
      return { res, elapsed, providerCharge, account };
    } finally {
      await client.call('CLIENT', 'UNPAUSE');
      gatewayClient.disconnect();
    }
  }

  it('a settle that times out (Redis stalled after the provider answered) fails the call within the command timeout and charges it at most once', async () => {
    const { res, elapsed, providerCharge, account } = await callWithStalledSettle();
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.error.type).toBe('server_error');
    expect(elapsed).toBeLessThan(2000);
    // The timed-out settle was queued in Redis and ran when the pause ended; the release sent after it found nothing to
    // free.
    expect(providerCharge).toBeGreaterThan(0);
    expect(account).toMatchObject({ spent: providerCharge, balance: 1000 - providerCharge, reserved: 0, open: 0 });
  });

  // QuotaHold.settle() (lib/pipeline/quota-hold.ts) wraps a throwing quotaStore.settle() in
  // GatewayError('unavailable'), as reserve() does: a 503, not a 500 'internal'.
  it('a settle that fails is answered 503 unavailable, like every other store failure', async () => {
    const { res } = await callWithStalledSettle();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });
});
