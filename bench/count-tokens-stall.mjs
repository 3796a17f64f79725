// Event-loop stall from count_tokens. The gateway runs in a child process; this process sends 4
// concurrent count_tokens calls of 30 MB of text (from a key with zero balance, then from a funded
// key) while it times a cheap call (GET /v1/models, a new connection each time) every 20 ms.
// Prints the count calls' statuses, the gateway process's longest event-loop block, how long the
// calls took, and the cheap call's median and worst latency.
// Usage: npm run build && node bench/count-tokens-stall.mjs
import { fork } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const RICH = 'sk-stall-rich-0123456789';
const EMPTY = 'sk-stall-empty-0123456789';

if (process.argv[2] === 'server') {
  const require = createRequire(import.meta.url);
  const express = require('express');
  const { createGateway } = require('../dist/cjs/index.js');
  const app = express();
  app.use(
    createGateway({
      keys: [
        { key: RICH, balance: 1e12 },
        { key: EMPTY, balance: 0 },
      ],
      maxBodyBytes: 64 * 1024 * 1024,
    }),
  );
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  // The longest the event loop was blocked during a round, on request.
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', () => {
    process.send({ loopMaxMs: Math.round(delay.max / 1e6) });
    delay.reset();
  });
} else {
  const child = fork(fileURLToPath(import.meta.url), ['server']);
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  const loopMax = () =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(message.loopMaxMs));
      child.send('report');
    });
  const base = `http://127.0.0.1:${port}`;

  const words = 'the quick brown fox jumps over the lazy dog 0123456789 ';
  const text = words.repeat(Math.ceil((30 * 1024 * 1024) / words.length)).slice(0, 30 * 1024 * 1024);
  const body = JSON.stringify({ model: 'rosetta-echo', messages: [{ role: 'user', content: text }] });

  const count = async (key, payload) => {
    const response = await fetch(`${base}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: payload,
    });
    const answer = await response.json();
    return `${response.status}${answer.input_tokens !== undefined ? ` (${answer.input_tokens} tokens)` : ` ${answer.error?.type}`}`;
  };

  const round = async (key) => {
    const latencies = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        await new Promise((resolve, reject) => {
          http
            .get(`${base}/v1/models`, { agent: false, headers: { authorization: `Bearer ${RICH}` } }, (response) =>
              response.resume().on('end', resolve),
            )
            .on('error', reject);
        });
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await loopMax();
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 4 }, () => count(key, body)));
    const elapsed = performance.now() - started;
    running = false;
    await probe;
    latencies.sort((a, b) => a - b);
    return {
      statuses,
      serverLoopMaxDelayMs: await loopMax(),
      elapsedMs: Math.round(elapsed),
      probeMedianMs: Math.round(latencies[Math.floor(latencies.length / 2)]),
      probeMaxMs: Math.round(latencies.at(-1)),
    };
  };

  // The tokenizer's rank table loads on first use: not counted.
  await count(RICH, JSON.stringify({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'warm up' }] }));
  for (const [name, key] of [
    ['zero balance', EMPTY],
    ['funded', RICH],
  ])
    console.log(name, JSON.stringify(await round(key)));
  child.kill();
}
