/**
 * The bench's dashboard step: how long the dashboard takes to answer over a usage log of 100,000 records (the issue's
 * target: within a second). Its own server process (bench/servers/dashboard.cjs, the built package) with a
 * MemoryUsageLog, and one with a RedisUsageStream when redis-server is on the PATH; each answer timed from this
 * process, one request at a time: the summary of each window (its first read, past the 2 s a summary is reused), the
 * latest calls unfiltered and filtered by model and outcome (the window read and sifted), and, with a Chromium at hand,
 * the page as a browser loads it (HTML, scripts, the three API calls, the charts drawn). Reported, never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import chromiumLaunch from '../../scripts/chromium.cjs';
import { median, round } from './stats.mjs';

const { CHROMIUM_ARGS, chromiumPath } = chromiumLaunch;

const servers = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'servers');

/** The `--only` id of this step. */
export const DASHBOARD_STEP = 'dashboard';

/** Records in the log. */
export const DASHBOARD_RECORDS = 100_000;

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of its own on a free port (no persistence), or undefined when there is none on the PATH. */
async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let wait = 0; wait < 100; wait++) {
    const up = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG';
    if (up) return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
    await sleep(50);
  }
  child.kill('SIGKILL');
  return undefined;
}

async function timed(url) {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, bytes: body.length };
}

/** Times the page in a browser: `rounds` fresh pages, from navigation to its first render of the data. */
async function timePage(url, rounds) {
  const executablePath = chromiumPath();
  if (!executablePath) return undefined;
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return undefined;
  }
  const browser = await chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
  });
  try {
    const times = [];
    for (let round = 0; round < rounds; round++) {
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(url);
      await page.waitForSelector('body[data-loaded]');
      times.push(performance.now() - started);
      await page.close();
      await sleep(2_100); // past the summary's reuse
    }
    return times;
  } finally {
    await browser.close();
  }
}

/** One log's measurements: each request `rounds` times (its first answer dropped as warm-up), medians in ms. */
async function measureLog({ start, label, env, rounds, log, fail }) {
  const server = await start({
    name: `dashboard-${label}`,
    script: path.join(servers, 'dashboard.cjs'),
    env,
    timeoutMs: 180_000,
  });
  const base = `${server.url}/admin`;
  const requests = [
    ['summary, last hour', '/api/summary?window=1h'],
    ['summary, last 24 hours', '/api/summary?window=24h'],
    ['latest 100 calls', '/api/calls?window=1h'],
    ['latest calls of one model, failed', '/api/calls?window=1h&model=model-4&outcome=error'],
    ['latest calls of one key', '/api/calls?window=1h&key=key-7'],
  ];
  const rows = [];
  for (const [name, path] of requests) {
    const times = [];
    let bytes = 0;
    for (let round = 0; round <= rounds; round++) {
      const result = await timed(`${base}${path}`);
      if (result.status !== 200) fail(`dashboard ${label} ${path}: HTTP ${result.status}`);
      if (round > 0) times.push(result.ms);
      bytes = result.bytes;
      if (path.includes('summary')) await sleep(2_100); // past the summary's reuse: every one is computed
    }
    rows.push({ log: label, name, medianMs: round(median(times), 1), maxMs: round(Math.max(...times), 1), bytes });
    log(
      `  dashboard ${label}: ${name} ${round(median(times), 1)} ms (max ${round(Math.max(...times), 1)}), ${bytes} bytes`,
    );
  }
  const page = await timePage(`${base}/`, rounds);
  if (page) {
    rows.push({
      log: label,
      name: 'page in Chromium (HTML, scripts, API, charts)',
      medianMs: round(median(page), 1),
      maxMs: round(Math.max(...page), 1),
      bytes: 0,
    });
    log(`  dashboard ${label}: page ${round(median(page), 1)} ms (max ${round(Math.max(...page), 1)})`);
  }
  await server.stop();
  return rows;
}

/** Runs the step: the memory log, then the Redis stream if redis-server is on the PATH. */
export async function runDashboard({ start, options, log, fail }) {
  const rounds = Math.max(3, options.rounds);
  log(`\ndashboard: ${DASHBOARD_RECORDS.toLocaleString('en')} records in the log, each request ${rounds} times`);
  const rows = await measureLog({ start, label: 'MemoryUsageLog', env: {}, rounds, log, fail });
  const redis = await startRedis();
  if (!redis) log('  dashboard: no redis-server on the PATH, RedisUsageStream not measured');
  else {
    try {
      rows.push(
        ...(await measureLog({
          start,
          label: 'RedisUsageStream',
          env: { BENCH_DASHBOARD_REDIS: redis.url },
          rounds,
          log,
          fail,
        })),
      );
    } finally {
      redis.stop();
    }
  }
  return rows;
}

export function renderDashboard(rows) {
  return [
    `#### Dashboard over ${DASHBOARD_RECORDS.toLocaleString('en')} usage records (one request at a time; target: within 1 s)`,
    '',
    '| Log | Request | median ms | max ms | bytes |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.log} | ${row.name} | ${row.medianMs} | ${row.maxMs} | ${row.bytes || '—'} |`),
  ];
}
