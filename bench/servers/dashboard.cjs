'use strict';
/**
 * The dashboard under test (the bench's `dashboard` step), from the BUILT package (`rosetta-gateway/dashboard`): a
 * usage log of BENCH_DASHBOARD_RECORDS records (default 100,000) spread over the last hour (40 keys, 6 models, one call
 * in ten failed, half of them streamed), mounted at /admin with no auth. BENCH_DASHBOARD_REDIS=redis://… puts the
 * records in a RedisUsageStream there instead of a MemoryUsageLog (written with its record(): the entries and the tallies
 * its summaries are made from).
 */
const http = require('node:http');
const express = require('express');
const { MemoryUsageLog } = require('rosetta-gateway');
const { createDashboard } = require('rosetta-gateway/dashboard');
const { serve } = require('./instrument.cjs');

const count = Number(process.env.BENCH_DASHBOARD_RECORDS ?? 100_000);
const redisUrl = process.env.BENCH_DASHBOARD_REDIS;

/** The record of call `index` of `count`, ending `now` at the latest. */
function recordOf(index, now) {
  const ended = now - Math.floor(((count - index) / count) * 3_500_000);
  const model = `model-${index % 6}`;
  const failed = index % 10 === 0;
  return {
    requestId: `req_bench_${index.toString(36).padStart(8, '0')}`,
    keyId: `key-${index % 40}`,
    protocol: index % 3 === 0 ? 'anthropic-messages' : 'openai-chat',
    operation: 'generate',
    stream: index % 2 === 0,
    requestedModel: model,
    model,
    provider: 'mock',
    upstreamModel: model,
    attempts: [{ model, provider: 'mock', upstreamModel: model }],
    outcome: failed ? 'error' : 'ok',
    status: failed ? 502 : 200,
    ...(failed ? { error: { kind: 'upstream', status: 502, message: 'The upstream failed.' } } : {}),
    usage: { inputTokens: 100 + (index % 500), outputTokens: 20 + (index % 300) },
    usageSource: 'upstream',
    credits: { held: 2_000, charged: 120 + (index % 800), settlement: 'completed' },
    timings: { received: ended - 200 - (index % 900), firstByte: ended - 150, ended },
  };
}

async function fill() {
  const now = Date.now();
  if (!redisUrl) {
    const log = new MemoryUsageLog({ capacity: count });
    for (let index = 0; index < count; index++) log.record(recordOf(index, now));
    return log;
  }
  const { RedisUsageStream, createRedisClient } = require('rosetta-gateway/redis');
  const client = createRedisClient(redisUrl);
  const log = new RedisUsageStream({ client, prefix: `bench${process.pid}:`, maxLength: count * 2 });
  await log.init();
  await client.del(log.key);
  // Through record(), as a gateway writes them: the entry and the tallies of its buckets. Entry ids are Redis's clock:
  // the records are added now, so every one is inside the last hour; the tallies bucket them by their timings.ended.
  for (let from = 0; from < count; from += 1_000) {
    const batch = [];
    for (let index = from; index < Math.min(count, from + 1_000); index++) batch.push(log.record(recordOf(index, now)));
    await Promise.all(batch);
  }
  return log;
}

fill().then((usage) => {
  const app = express();
  app.use('/admin', createDashboard({ usage, allowUnauthenticated: true }));
  serve(http.createServer(app), { name: process.env.BENCH_NAME ?? 'dashboard' });
});
