// One gateway instance for the three-process deployments test: the BUILT package, a model over three accounts of one
// mock upstream (UPSTREAM_URL, keys in ACCOUNT_KEYS, comma-separated), deployment state in Redis (REDIS_URL,
// REDIS_PREFIX; reads uncached so a test need not wait for a cache). Prints one JSON line: { port, pid }.
'use strict';
const { runInstance } = require('./serve-instance.cjs');
const { createGateway, OpenAIProvider } = require('rosetta-gateway');
const { createRedisClient, RedisDeploymentStore } = require('rosetta-gateway/redis');

runInstance(() => {
  const client = createRedisClient(process.env.REDIS_URL);
  const keys = process.env.ACCOUNT_KEYS.split(',');
  const gateway = createGateway({
    keys: [{ key: process.env.GATEWAY_KEY, id: 'caller' }],
    providers: keys.map(
      (apiKey, index) =>
        new OpenAIProvider({ name: `acct-${index}`, apiKey, baseUrl: process.env.UPSTREAM_URL, retries: { max: 0 } }),
    ),
    models: [{ id: 'pool', deployments: keys.map((_, index) => ({ provider: `acct-${index}`, name: `d${index}` })) }],
    deploymentStore: new RedisDeploymentStore({ client, prefix: process.env.REDIS_PREFIX, cacheMs: 0 }),
    routing: { failures: 2 },
  });
  return { gateway, client };
});
