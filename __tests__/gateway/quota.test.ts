import request from 'supertest';
import { GatewayError, LocalProvider, MemoryKeyStore, MemoryQuotaStore, type Provider } from '../../lib';
import { buildApp, listen, readJson } from '../helpers/app';

const info = { model: 'm', operation: 'generate' as const, requestId: 'r' };

describe('MemoryQuotaStore', () => {
  it('holds, settles and releases, never over the balance', () => {
    const store = new MemoryQuotaStore({ balances: { a: 100 } });
    const first = store.reserve('a', 60, { minimum: 10, info });
    expect(first).toMatchObject({ ok: true, reservation: { amount: 60 } });
    const second = store.reserve('a', 60, { minimum: 10, info });
    expect(second).toMatchObject({ ok: true, reservation: { amount: 40 } });
    expect(store.reserve('a', 60, { minimum: 1, info })).toMatchObject({
      ok: false,
      reason: 'insufficient_balance',
      available: 0,
    });
    if (!first.ok || !second.ok) throw new Error('unreachable');
    store.settle(first.reservation, 25);
    store.settle(first.reservation, 25);
    store.release(second.reservation);
    store.release(second.reservation);
    expect(store.getAccount('a')).toEqual({ balance: 75, reserved: 0, spent: 25, overrun: 0, available: 75 });
  });

  it('refuses a hold below the minimum', () => {
    const store = new MemoryQuotaStore({ balances: { a: 5 } });
    expect(store.reserve('a', 20, { minimum: 10, info }).ok).toBe(false);
    expect(store.getAccount('a').reserved).toBe(0);
  });

  it('is unmetered by default', () => {
    const store = new MemoryQuotaStore();
    expect(store.reserve('anyone', 1e9, { minimum: 1, info }).ok).toBe(true);
  });
});

describe('quota on the request path', () => {
  it('many concurrent calls on one key never spend more than its balance, and every charge is the usage served', async () => {
    const quotaStore = new MemoryQuotaStore({ balances: { k: 600 } });
    const { app } = buildApp({ keyStore: new MemoryKeyStore([{ key: 'concurrent-key', id: 'k' }]), quotaStore });
    const server = await listen(app);
    try {
      const calls = Array.from({ length: 120 }, (_, index) =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer concurrent-key', 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'rosetta-echo',
            max_tokens: 20,
            messages: [{ role: 'user', content: `call number ${index}, a few words long` }],
          }),
        }).then(async (response) => ({ status: response.status, body: await readJson(response) })),
      );
      const results = await Promise.all(calls);
      const served = results.filter((result) => result.status === 200);
      const refused = results.filter((result) => result.status === 403);
      expect(served.length + refused.length).toBe(results.length);
      expect(served.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      const usage = served.reduce((sum, result) => sum + result.body.usage.total_tokens, 0);
      const account = quotaStore.getAccount('k');
      expect(account.spent).toBe(usage);
      expect(account.spent).toBeLessThanOrEqual(600);
      expect(account.balance).toBeGreaterThanOrEqual(0);
      expect(account.reserved).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a partial balance lowers the output cap instead of overspending', async () => {
    const quotaStore = new MemoryQuotaStore({ balances: { k: 20 } });
    const { app } = buildApp({ keyStore: new MemoryKeyStore([{ key: 'small-key', id: 'k' }]), quotaStore });
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer small-key')
      .send({
        model: 'rosetta-echo',
        messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten eleven twelve' }],
      });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].finish_reason).toBe('length');
    expect(res.body.usage.total_tokens).toBeLessThanOrEqual(20);
    expect(quotaStore.getAccount('k')).toMatchObject({ spent: res.body.usage.total_tokens, reserved: 0 });
  });

  it('a failing provider releases the hold and charges nothing', async () => {
    const failing: Provider = {
      specificationVersion: 'v1',
      name: 'failing',
      generate: () => {
        throw new GatewayError('upstream', 'The upstream failed.');
      },
    };
    const quotaStore = new MemoryQuotaStore({ balances: { k: 1000 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: 'fail-key', id: 'k' }]),
      quotaStore,
      providers: [failing],
      models: [{ id: 'broken', provider: 'failing' }],
    });
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer fail-key')
      .send({ model: 'broken', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(502);
    expect(res.body.error.type).toBe('server_error');
    expect(quotaStore.getAccount('k')).toMatchObject({ spent: 0, reserved: 0, balance: 1000 });
  });

  it('an unexpected provider crash is a 500 in the envelope, without internals, and releases the hold', async () => {
    const crashing: Provider = {
      specificationVersion: 'v1',
      name: 'crash',
      generate: () => {
        throw new TypeError('secret internal detail');
      },
    };
    const quotaStore = new MemoryQuotaStore({ balances: { k: 1000 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: 'crash-key', id: 'k' }]),
      quotaStore,
      providers: [crashing],
      models: [{ id: 'c', provider: 'crash' }],
    });
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer crash-key')
      .send({ model: 'c', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(500);
    expect(res.body.error.type).toBe('server_error');
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
    expect(quotaStore.getAccount('k').reserved).toBe(0);
  });

  it('a quota store that throws is a 503, not a crash', async () => {
    const quotaStore = {
      reserve: () => {
        throw new Error('db down');
      },
      settle: () => undefined,
      release: () => undefined,
    };
    const { app } = buildApp({ keys: [{ key: 'q-key' }], quotaStore });
    const res = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer q-key')
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });

  it('image calls hold and charge per image', async () => {
    const quotaStore = new MemoryQuotaStore({ balances: { k: 2500 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: 'img-key', id: 'k' }]),
      quotaStore,
      providers: [new LocalProvider()],
    });
    const ok = await request(app)
      .post('/v1/images/generations')
      .set('authorization', 'Bearer img-key')
      .send({ model: 'rosetta-image', prompt: 'a cat', n: 2, size: '64x64' });
    expect(ok.status).toBe(200);
    const refused = await request(app)
      .post('/v1/images/generations')
      .set('authorization', 'Bearer img-key')
      .send({ model: 'rosetta-image', prompt: 'a cat', n: 1, size: '64x64' });
    expect(refused.status).toBe(403);
    expect(quotaStore.getAccount('k')).toMatchObject({ spent: 2000, reserved: 0, balance: 500 });
  });
});
