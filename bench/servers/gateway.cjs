'use strict';
/**
 * The gateway under test, imported from the BUILT package (`require('rosetta-gateway')` → dist/cjs),
 * mounted at the root of an Express app, with one key whose balance is unmetered and one
 * OpenAI-compatible upstream: the mock (chat models, and the embedding model `mock-embed`). DEBUG is unset by the
 * parent. With BENCH_OPERATED=1 (the
 * `gateway-operated` target) the gateway also has what a host that sells access runs: a usage sink (a
 * MemoryUsageLog) and a rate limit on the key, high enough never to refuse, so every call is admitted and
 * settled in the limiter and its record delivered. For finding where a cost is: BENCH_OPERATED=sink (the sink
 * only) or =limits (the rate limit only), and BENCH_METRICS=off (the gateway's metrics off). With BENCH_DEPLOYMENTS=1
 * (`gateway-one-deployment`) `mock-model` is written as a list of one deployment (the same path as the shorthand: no
 * router); with =3 (`gateway-deployments`) it has three deployments, three providers (upstream accounts) on the mock
 * with keys of their own, weighted 1:2:1 with session affinity on (the default): every call is chosen by the router,
 * its session read and written in the MemoryDeploymentStore. With BENCH_TRACES=sdk an OpenTelemetry SDK is registered
 * before the gateway is made (a BasicTracerProvider with a SimpleSpanProcessor and an exporter that drops every span,
 * the AsyncLocalStorage context manager and the W3C propagator): what recording every call's spans costs, export aside.
 * With BENCH_GATEWAY_MODULE (target gateway-baseline, BENCH_BASELINE=<another build's dist/cjs/index.js>) that build is
 * the gateway, for a comparison in the same interleaved rounds.
 */
const http = require('node:http');
const express = require('express');
if (process.env.BENCH_TRACES === 'sdk') {
  const { context, propagation, trace } = require('@opentelemetry/api');
  const { BasicTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core');
  const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] }));
}
// BENCH_GATEWAY_MODULE: another build to load instead (bench target gateway-baseline).
const { createGateway, MemoryUsageLog, OpenAIProvider } = require(
  process.env.BENCH_GATEWAY_MODULE || 'rosetta-gateway',
);
const { serve } = require('./instrument.cjs');

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream)
  throw new Error('BENCH_UPSTREAM is required (the mock upstream base URL, e.g. http://127.0.0.1:1234/v1)');
const connections = process.env.BENCH_UPSTREAM_CONNECTIONS ? Number(process.env.BENCH_UPSTREAM_CONNECTIONS) : undefined;

const operated = process.env.BENCH_OPERATED === '1';
const sinkOnly = process.env.BENCH_OPERATED === 'sink';
const limitsOnly = process.env.BENCH_OPERATED === 'limits';
const rateLimits = { requestsPerMinute: 1_000_000_000, tokensPerMinute: 1_000_000_000_000, concurrent: 1_000_000 };

const deploymentCount = Number(process.env.BENCH_DEPLOYMENTS ?? 0);
const accounts = deploymentCount > 1 ? ['a', 'b', 'c'].slice(0, deploymentCount) : [];
const accountProviders = accounts.map(
  (account) =>
    new OpenAIProvider({
      name: `account-${account}`,
      baseUrl: upstream,
      apiKey: `sk-upstream-bench-${account}`,
      ...(connections ? { connections } : {}),
    }),
);
const mockModel =
  deploymentCount === 1
    ? { id: 'mock-model', deployments: [{ provider: 'openai', upstreamModel: 'mock-model' }] }
    : deploymentCount > 1
      ? {
          id: 'mock-model',
          upstreamModel: 'mock-model',
          deployments: accounts.map((account, index) => ({
            provider: `account-${account}`,
            weight: index === 1 ? 2 : 1,
          })),
        }
      : { id: 'mock-model', provider: 'openai', upstreamModel: 'mock-model' };

const gateway = createGateway({
  // No balance: unmetered (the MemoryQuotaStore still reserves and settles on every call).
  keys: [{ key: 'sk-bench-key', id: 'bench', ...(operated || limitsOnly ? { rateLimits } : {}) }],
  ...(operated || sinkOnly ? { usageSink: new MemoryUsageLog() } : {}),
  ...(process.env.BENCH_METRICS === 'off' ? { metrics: false } : {}),
  providers: [
    new OpenAIProvider({ baseUrl: upstream, apiKey: 'sk-upstream-bench', ...(connections ? { connections } : {}) }),
    ...accountProviders,
  ],
  models: [
    mockModel,
    { id: 'mock-slow', provider: 'openai', upstreamModel: 'mock-slow' },
    { id: 'mock-embed', provider: 'openai', type: 'embedding', upstreamModel: 'mock-embed' },
  ],
});

const app = express();
app.disable('x-powered-by');
app.use(gateway);

gateway.ready.then(
  () => serve(http.createServer(app), { name: 'gateway' }),
  (error) => {
    console.error('gateway failed to initialize', error);
    process.exit(1);
  },
);
