/**
 * Many instances, one balance: gateway processes running the built package on one real redis-server never overspend,
 * survive a dead instance, and answer 503 when Redis goes away.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { createRedisClient, RedisKeyStore, RedisQuotaStore } from '../../../lib/stores/redis';
import { readJson, type Json } from '../../helpers/app';
import {
  exited,
  type GatewayProcess,
  startGatewayProcess,
  stopGatewayProcess as stopInstance,
} from '../../helpers/gateway-process';
import { itStopsRedis, RUN_PREFIX, startRedisServer, type RedisServer } from '../../helpers/redis-server';

const root = join(__dirname, '..', '..', '..');
const PREFIX = `${RUN_PREFIX}multi:`;
const KEY = 'sk-multi-instance-0123456789';
const DOOMED_KEY = 'sk-doomed-instance-0123456789';
const LIMITED_KEY = 'sk-limited-instance-0123456789';
const RPM = 10;
const BALANCE = 3000;
const INSTANCES = 3;
const CALLS = 300;

type Instance = GatewayProcess;

let redis: RedisServer;
let seedClient: Redis;
let quota: RedisQuotaStore;
const instances: Instance[] = [];
const extra: Instance[] = [];

/** Starts one gateway process (the built package, see helpers/redis-gateway-instance.cjs) and waits until it serves. */
function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  return startGatewayProcess('redis-gateway-instance.cjs', { REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, ...env });
}

function chat(instance: Instance, key: string, body: Json, signal = AbortSignal.timeout(20_000)): Promise<Response> {
  return fetch(`${instance.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

beforeAll(async () => {
  if (
    !existsSync(join(root, 'dist', 'cjs', 'stores', 'redis', 'index.js')) ||
    !existsSync(join(root, 'dist', 'esm', 'redis.js'))
  ) {
    throw new Error(
      'The multi-instance test runs the built package (rosetta-gateway/redis): run `npm run build` first (npm test does).',
    );
  }
  redis = await startRedisServer();
  seedClient = createRedisClient({ ...redis.options, commandTimeout: 15_000 });
  const keys = new RedisKeyStore({ client: seedClient, prefix: PREFIX });
  quota = new RedisQuotaStore({ client: seedClient, prefix: PREFIX });
  await keys.init();
  await quota.init();
  await keys.add({ key: KEY, id: 'multi' });
  await keys.add({ key: DOOMED_KEY, id: 'doomed' });
  await keys.add({ key: LIMITED_KEY, id: 'limited', rateLimits: { requestsPerMinute: RPM, concurrent: 50 } });
  await quota.setBalance('limited', 1_000_000);
  await quota.setBalance('multi', BALANCE);
  await quota.setBalance('doomed', 1000);
  instances.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => startInstance()))));
});

afterAll(async () => {
  await Promise.all([...instances, ...extra].map(stopInstance));
  seedClient?.disconnect();
  await redis?.stop();
});

describe('many gateway instances, one rate limit in Redis', () => {
  it(`admits exactly ${RPM} of 60 concurrent calls on one key spread over ${INSTANCES} instances, within one window`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        chat(instances[index % INSTANCES]!, LIMITED_KEY, {
          model: 'rosetta-echo',
          max_tokens: 10,
          messages: [{ role: 'user', content: `call ${index}` }],
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RPM);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - RPM);
    for (const response of responses) {
      if (response.status !== 429) continue;
      // One request frees every 60 s / RPM; less has passed since the first, so the wait is at most that.
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60 / RPM);
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    }
    await Promise.all(responses.map((response) => response.text()));
  });
});

describe('many gateway instances, one balance in Redis', () => {
  it(`${CALLS} concurrent calls spread over ${INSTANCES} instances never overspend, and charge exactly the usage served`, async () => {
    let running = true;
    const lowest = { balance: Infinity, available: Infinity };
    const watcher = (async () => {
      while (running) {
        const account = await quota.getAccount('multi');
        lowest.balance = Math.min(lowest.balance, account.balance);
        lowest.available = Math.min(lowest.available, account.available);
        await sleep(5);
      }
    })();
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        chat(instances[index % INSTANCES]!, KEY, {
          model: 'rosetta-echo',
          max_tokens: 20,
          messages: [{ role: 'user', content: `call ${index} of the multi-instance test` }],
        }).then(async (response) => ({
          status: response.status,
          body: await readJson(response),
          instance: index % INSTANCES,
        })),
      ),
    );
    running = false;
    await watcher;

    const served = results.filter((result) => result.status === 200);
    const refused = results.filter((result) => result.status === 403);
    expect(served.length + refused.length).toBe(CALLS);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused)
      expect(result.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(new Set(served.map((result) => result.instance)).size).toBeGreaterThan(1);

    const usage = served.reduce((sum, result) => sum + (result.body.usage.total_tokens as number), 0);
    const account = await quota.getAccount('multi');
    expect(account).toEqual({
      balance: BALANCE - usage,
      reserved: 0,
      spent: usage,
      available: BALANCE - usage,
      open: 0,
    });
    expect(account.balance).toBeGreaterThanOrEqual(0);
    expect(lowest.balance).toBeGreaterThanOrEqual(0);
    expect(lowest.available).toBeGreaterThanOrEqual(0);
  });

  it('an instance killed mid-call: its hold returns to the balance once the reservation TTL passes, and nothing is charged', async () => {
    // The hold must still be there after the kill, so the TTL must outlast the call's start, the kill and the wait
    // for the process to exit: 1 s could pass in all that on a busy machine (the hold lapsed before it was checked).
    const doomed = await startInstance({ RESERVATION_TTL_MS: '3000', TOKEN_DELAY_MS: '200' });
    extra.push(doomed);
    const response = await chat(doomed, DOOMED_KEY, {
      model: 'rosetta-echo',
      stream: true,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten eleven twelve' }],
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    const during = await quota.getAccount('doomed');
    expect(during).toMatchObject({ open: 1, spent: 0 });
    expect(during.reserved).toBeGreaterThan(0);

    doomed.process.kill('SIGKILL');
    await exited(doomed.process);
    await reader.read().catch(() => undefined);
    expect(await quota.getAccount('doomed')).toMatchObject({ open: 1, spent: 0 });
    // Then it lapses on Redis's clock, 3 s after the call began: wait for that rather than for a fixed time.
    for (let waited = 0; waited < 15_000 && (await quota.getAccount('doomed')).open > 0; waited += 100)
      await sleep(100);
    expect(await quota.getAccount('doomed')).toEqual({
      balance: 1000,
      reserved: 0,
      spent: 0,
      available: 1000,
      open: 0,
    });
  });

  itStopsRedis(
    'Redis stopped: every instance answers 503 in the OpenAI envelope at once, without hanging',
    async () => {
      await redis.stop();
      for (const instance of instances) {
        const started = performance.now();
        const response = await chat(
          instance,
          KEY,
          { model: 'rosetta-echo', messages: [{ role: 'user', content: 'is anyone there?' }] },
          AbortSignal.timeout(5000),
        );
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(await readJson(response)).toEqual({
          error: {
            message: 'The key store is unavailable; try again later.',
            type: 'server_error',
            param: null,
            code: null,
          },
        });
        expect(performance.now() - started).toBeLessThan(1500);
      }
    },
  );
});

describe('the rosetta-gateway/redis entry point of the built package', () => {
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });

  it('the main entry never loads ioredis, from CommonJS or ESM', () => {
    expect(
      run([
        '-e',
        "require('rosetta-gateway'); console.log(Object.keys(require.cache).some((path) => path.includes('node_modules/ioredis')))",
      ]).trim(),
    ).toBe('false');
    const esm =
      "import 'rosetta-gateway'; import { createRequire } from 'node:module'; console.log(Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('node_modules/ioredis')));";
    expect(run(['--input-type=module', '-e', esm]).trim()).toBe('false');
  });

  it('loads from CommonJS and ESM as one implementation', () => {
    expect(
      run([
        '-e',
        "const r = require('rosetta-gateway/redis'); console.log(typeof r.RedisKeyStore, typeof r.RedisQuotaStore, typeof r.createRedisClient)",
      ]).trim(),
    ).toBe('function function function');
    const script =
      "import { RedisQuotaStore, FAIL_FAST_REDIS_OPTIONS } from 'rosetta-gateway/redis'; import { createRequire } from 'node:module'; const cjs = createRequire(import.meta.url)('rosetta-gateway/redis'); console.log(cjs.RedisQuotaStore === RedisQuotaStore, FAIL_FAST_REDIS_OPTIONS.enableOfflineQueue);";
    expect(run(['--input-type=module', '-e', script]).trim()).toBe('true false');
  });

  it('declares ioredis an optional peer dependency, never a dependency', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Json;
    expect(manifest.dependencies?.ioredis).toBeUndefined();
    expect(manifest.peerDependencies.ioredis).toEqual(expect.any(String));
    expect(manifest.peerDependenciesMeta.ioredis).toEqual({ optional: true });
    expect(manifest.exports['./redis']).toEqual({
      import: { types: './dist/esm/redis.d.ts', default: './dist/esm/redis.js' },
      require: { types: './dist/cjs/stores/redis/index.d.ts', default: './dist/cjs/stores/redis/index.js' },
    });
  });

  it('TypeScript consumers type-check against the published types, as ESM (.mts) and CommonJS (.cts)', () => {
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, '.tmp', 'redis-types-'));
    const source = `import { createGateway } from 'rosetta-gateway';
      import { createRedisClient, RedisKeyStore, RedisQuotaStore, type RedisQuotaStoreOptions, type RedisAccount } from 'rosetta-gateway/redis';
      const client = createRedisClient('redis://127.0.0.1:6379');
      const options: RedisQuotaStoreOptions = { client, prefix: 'app:', reservationTtlMs: 60_000 };
      const quotaStore = new RedisQuotaStore(options);
      export const gateway = createGateway({ keyStore: new RedisKeyStore({ client }), quotaStore });
      export const account: Promise<RedisAccount> = quotaStore.getAccount('alice');\n`;
    writeFileSync(join(dir, 'esm.mts'), source);
    writeFileSync(join(dir, 'cjs.cts'), source);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    try {
      expect(() =>
        run([join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')]),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
