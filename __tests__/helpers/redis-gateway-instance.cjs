// One gateway instance for the multi-instance test: the BUILT package on the Redis stores (key, quota, rate limits),
// served on 127.0.0.1.
// Env: REDIS_URL, REDIS_PREFIX, RESERVATION_TTL_MS (optional), TOKEN_DELAY_MS (optional). Prints one JSON line: { port,
// pid }.
// Commands get 15 s, not the fail-fast 2 s: on a loaded 2-core CI machine, 300 concurrent calls can queue a
// command past 2 s, and a 503 then is right but is not what the overspend test measures. A stopped Redis
// still fails at once (no offline queue).
'use strict';
const { runInstance } = require('./serve-instance.cjs');
const { createGateway, LocalProvider } = require('rosetta-gateway');
const { createRedisClient, RedisKeyStore, RedisQuotaStore, RedisRateLimitStore } = require('rosetta-gateway/redis');

runInstance(() => {
  const url = new URL(process.env.REDIS_URL);
  const client = createRedisClient({
    host: url.hostname,
    port: Number(url.port || 6379),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
    commandTimeout: 15_000,
  });
  const prefix = process.env.REDIS_PREFIX;
  const ttl = process.env.RESERVATION_TTL_MS ? { reservationTtlMs: Number(process.env.RESERVATION_TTL_MS) } : {};
  const gateway = createGateway({
    keyStore: new RedisKeyStore({ client, prefix }),
    quotaStore: new RedisQuotaStore({ client, prefix, ...ttl }),
    rateLimitStore: new RedisRateLimitStore({ client, prefix }),
    providers: [new LocalProvider({ tokenDelayMs: Number(process.env.TOKEN_DELAY_MS ?? 0) })],
  });
  return { gateway, client };
});
