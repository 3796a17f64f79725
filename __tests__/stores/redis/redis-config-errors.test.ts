/** The Redis stores' configuration errors: GatewayConfigErrors with ERR_GATEWAY_* codes naming the store and option. */
import type { Redis } from 'ioredis';
import { GatewayConfigError } from '../../../lib';
import {
  createRedisClient,
  RedisDeploymentStore,
  RedisKeyStore,
  RedisQuotaStore,
  RedisRateLimitStore,
  RedisResponseStore,
  RedisUsageStream,
} from '../../../lib/stores/redis';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server';

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

async function expectConfigError(make: () => unknown, code: string, owner: string, what: string): Promise<void> {
  let thrown: unknown;
  try {
    await make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GatewayConfigError);
  expect(thrown).toMatchObject({ code, message: expect.stringContaining(owner) });
  expect((thrown as Error).message).toContain(what);
}

it.each([
  [
    'RedisKeyStore',
    () => new RedisKeyStore({ client, prefx: 'x' } as never),
    'ERR_GATEWAY_UNKNOWN_OPTION',
    "did you mean 'prefix'",
  ],
  [
    'RedisQuotaStore',
    () => new RedisQuotaStore({ client, reservationTtlMs: 0 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'reservationTtlMs',
  ],
  [
    'RedisRateLimitStore',
    () => new RedisRateLimitStore({ client, windowMs: -5 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'windowMs',
  ],
  [
    'RedisDeploymentStore',
    () => new RedisDeploymentStore({ client, cacheMs: 'soon' } as never),
    'ERR_GATEWAY_INVALID_OPTION',
    'cacheMs',
  ],
  [
    'RedisResponseStore',
    () => new RedisResponseStore({ client, prefix: 5 } as never),
    'ERR_GATEWAY_INVALID_OPTION',
    'prefix',
  ],
  [
    'RedisUsageStream',
    () => new RedisUsageStream({ client, connection: 'redis://127.0.0.1:1' } as never),
    'ERR_GATEWAY_OPTION_CONFLICT',
    'connection',
  ],
] as const)('%s: bad options', async (owner, make, code, what) => {
  await expectConfigError(make, code, owner, what);
});

it('the Redis stores refuse bad arguments to their admin methods with ERR_GATEWAY_INVALID_ARGUMENT', async () => {
  const quota = new RedisQuotaStore({ client, prefix: 'config-errors:' });
  await quota.init();
  await expectConfigError(
    () => quota.setBalance('k', -1),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'RedisQuotaStore',
    'balance of k',
  );
  await expectConfigError(
    () => quota.addBalance('k', Number.NaN),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'RedisQuotaStore',
    'credits',
  );
  await expectConfigError(() => quota.getAccount(''), 'ERR_GATEWAY_INVALID_ARGUMENT', 'RedisQuotaStore', 'key id');
  const keys = new RedisKeyStore({ client, prefix: 'config-errors:' });
  await keys.init();
  await expectConfigError(() => keys.add({ key: '' }), 'ERR_GATEWAY_INVALID_ARGUMENT', 'RedisKeyStore', 'key');
  await expectConfigError(
    () => keys.add({ key: 'sk-config-0000000000', metadata: 5 as never }),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'RedisKeyStore',
    'metadata',
  );
});
