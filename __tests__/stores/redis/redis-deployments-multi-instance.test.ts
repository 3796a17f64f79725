import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GatewayProcess,
  startGatewayProcess,
  stopGatewayProcess as stopInstance,
} from '../../helpers/gateway-process';
import { type MockAccounts, startMockAccounts } from '../../helpers/mock-accounts';
import { RUN_PREFIX, type RedisServer, startRedisServer } from '../../helpers/redis-server';

const root = join(__dirname, '..', '..', '..');
const PREFIX = `${RUN_PREFIX}deployments-multi:`;
const GATEWAY_KEY = 'sk-deployments-multi-0123456789';
const ACCOUNT_KEYS = ['sk-multi-acct-0-0123456789', 'sk-multi-acct-1-0123456789', 'sk-multi-acct-2-0123456789'];

type Instance = GatewayProcess;

let redis: RedisServer;
let mock: MockAccounts;
const instances: Instance[] = [];

function startInstance(): Promise<Instance> {
  return startGatewayProcess('redis-deployment-instance.cjs', {
    REDIS_URL: redis.url,
    REDIS_PREFIX: PREFIX,
    UPSTREAM_URL: mock.url,
    ACCOUNT_KEYS: ACCOUNT_KEYS.join(','),
    GATEWAY_KEY,
  });
}

async function chat(instance: Instance, text: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${instance.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'pool', messages: [{ role: 'user', content: text }] }),
    signal: AbortSignal.timeout(20_000),
  });
  await response.text();
  return response.status;
}

const calls = (index: number) => mock.calls.get(ACCOUNT_KEYS[index]!) ?? 0;

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'cjs', 'stores', 'redis', 'index.js')))
    throw new Error(
      'This test runs the built package (rosetta-gateway/redis): run `npm run build` first (npm test does).',
    );
  redis = await startRedisServer();
  mock = await startMockAccounts();
  instances.push(...(await Promise.all([startInstance(), startInstance(), startInstance()])));
}, 60_000);

afterAll(async () => {
  await Promise.all(instances.map(stopInstance));
  await mock?.close();
  await redis?.stop();
});

describe('three gateway processes on one Redis deployment store', () => {
  it('share a cooldown: failures seen by one instance keep the deployment out of all of them', async () => {
    mock.reset();
    mock.setMode(ACCOUNT_KEYS[1]!, { status: 500 });
    // Only the first instance is called until account 1 has failed twice (the threshold): each failure is retried.
    // Each call opens its own conversation (its own session), so the draws reach account 1.
    for (let call = 0; calls(1) < 2 && call < 200; call++)
      expect(await chat(instances[0]!, `fail me ${call}`)).toBe(200);
    expect(calls(1)).toBe(2);
    for (let call = 0; call < 45; call++) expect(await chat(instances[call % 3]!, `after ${call}`)).toBe(200);
    expect(calls(1)).toBe(2);
    expect(calls(0) + calls(2)).toBeGreaterThanOrEqual(45);
  });

  it('share affinity: a session stays on one deployment whichever instance serves each turn', async () => {
    mock.reset();
    for (let session = 0; session < 6; session++) {
      const before = ACCOUNT_KEYS.map((_, index) => calls(index));
      for (let turn = 0; turn < 9; turn++)
        expect(await chat(instances[turn % 3]!, `turn ${turn}`, { 'x-session-id': `multi-${session}` })).toBe(200);
      const served = ACCOUNT_KEYS.map((_, index) => calls(index) - before[index]!);
      expect(served.filter((count) => count > 0)).toEqual([9]);
    }
  });
});
