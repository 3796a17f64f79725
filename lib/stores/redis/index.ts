/**
 * rosetta-gateway/redis: the optional Redis-backed key, quota, rate-limit, deployment, response and thread stores and
 * usage stream (needs the `ioredis` peer dependency).
 */
export { RedisKeyStore, type RedisKeyStoreOptions, type RedisKeyEntry } from './redis-key-store';
export { RedisQuotaStore, type RedisQuotaStoreOptions, type RedisAccount } from './redis-quota-store';
export {
  createRedisClient,
  FAIL_FAST_REDIS_OPTIONS,
  type RedisConnectionOptions,
  type RedisStoreBase,
} from './connection';
export { QUOTA_SCRIPTS, KEY_SCRIPTS, RATE_LIMIT_SCRIPTS, type ScriptDefinition } from './scripts';
export { USAGE_SCRIPTS } from './usage-tally-batch';
export { RedisResponseStore, type RedisResponseStoreOptions } from './redis-response-store';
export { RedisThreadStore, type RedisThreadStoreOptions } from './redis-thread-store';
export { RedisUsageStream, type RedisUsageStreamOptions } from './redis-usage-stream';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store';
export {
  RedisDeploymentStore,
  DEPLOYMENT_SCRIPTS,
  type RedisDeploymentStoreOptions,
} from './redis-deployment-store';
export { createRedisStores, type RedisStores, type RedisStoresOptions } from './create-stores';
