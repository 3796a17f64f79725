/** rosetta-gateway/redis: the optional Redis-backed key and quota stores (needs the `ioredis` peer dependency). */
export { RedisKeyStore, type RedisKeyStoreOptions, type RedisKeyEntry } from './redis-key-store';
export { RedisQuotaStore, type RedisQuotaStoreOptions, type RedisAccount } from './redis-quota-store';
export { createRedisClient, FAIL_FAST_REDIS_OPTIONS, type RedisConnectionOptions } from './connection';
export { QUOTA_SCRIPTS, KEY_SCRIPTS, type ScriptDefinition } from './scripts';
