/**
 * Every store slot of a gateway on one Redis: `createGateway({ ...createRedisStores({ client }), providers, models })`
 * (docs/scaling.md).
 */
import type { Redis } from 'ioredis';
import { RedisDeploymentStore, type RedisDeploymentStoreOptions } from './redis-deployment-store';
import { RedisKeyStore } from './redis-key-store';
import { RedisQuotaStore, type RedisQuotaStoreOptions } from './redis-quota-store';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store';
import { RedisResponseStore, type RedisResponseStoreOptions } from './redis-response-store';
import { RedisThreadStore, type RedisThreadStoreOptions } from './redis-thread-store';

/** A store's own options, less how it reaches Redis (the shared client and prefix). */
type Own<Options> = Omit<Options, 'client' | 'connection' | 'prefix'>;

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  /** The ioredis client every store shares (`createRedisClient(url)`); you close it after `gateway.close()`. */
  client: Redis;
  /** Prepended to every Redis key of every store. Default `rosetta:`. */
  prefix?: string;
  /** The quota store's own options (`reservationTtlMs`, `unitsPerCredit`, `defaultBalance`, …). */
  quota?: Own<RedisQuotaStoreOptions>;
  /** The rate-limit store's own options. */
  rateLimits?: Own<RedisRateLimitStoreOptions>;
  /** The deployment store's own options. */
  deployments?: Own<RedisDeploymentStoreOptions>;
  /** The response store's own options; `false` keeps no Responses answers (a `previous_response_id` is then a 400). */
  responses?: Own<RedisResponseStoreOptions> | false;
  /** The thread store's own options; `false` keeps no message threads (a `thread` is then a 400). */
  threads?: Own<RedisThreadStoreOptions> | false;
}

/** What {@link createRedisStores} gives: `keyStore` and `stores`, as `createGateway` takes them. */
export interface RedisStores {
  keyStore: RedisKeyStore;
  stores: {
    quota: RedisQuotaStore;
    rateLimits: RedisRateLimitStore;
    deployments: RedisDeploymentStore;
    responses?: RedisResponseStore;
    threads?: RedisThreadStore;
  };
}

/** The key store and every store slot on one shared client, spread into `createGateway`'s options. */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  const { client, prefix } = options;
  const shared = prefix === undefined ? { client } : { client, prefix };
  return {
    keyStore: new RedisKeyStore(shared),
    stores: {
      quota: new RedisQuotaStore({ ...options.quota, ...shared }),
      rateLimits: new RedisRateLimitStore({ ...options.rateLimits, ...shared }),
      deployments: new RedisDeploymentStore({ ...options.deployments, ...shared }),
      ...(options.responses === false
        ? {}
        : { responses: new RedisResponseStore({ ...options.responses, ...shared }) }),
      ...(options.threads === false ? {} : { threads: new RedisThreadStore({ ...options.threads, ...shared }) }),
    },
  };
}
