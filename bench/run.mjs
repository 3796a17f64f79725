#!/usr/bin/env node
/**
 * `npm run bench` — what the gateway costs over a direct call and over the thinnest relay in its own
 * stack. See docs/performance.md for what each number means.
 *
 * Processes and cores (2-core machine, defaults):
 *   core 0: this process — the load generator (autocannon, the sequential and slow-stream clients)
 *           and the mock upstream that the relays and the gateway call;
 *   core 1: the servers under test, each in its own processes — the "direct" mock (a second instance
 *           of the mock upstream), Express + undici (the floor), Express + got, Express + fetch,
 *           and the gateway (built package; each gateway target in processes of its own that serve its one
 *           caller protocol from their first request, or with --shared-gateway processes serving all four).
 * Targets are measured in interleaved rounds (A B C … A B C …), each round visiting every process
 * of every target, and reported as medians over rounds and processes.
 *
 * Options (flag or environment variable):
 *   --quick                    BENCH_QUICK=1          ~1-minute smoke run
 *   --duration <s>             BENCH_DURATION         seconds per target, process and round (4; quick 1)
 *   --rounds <n>               BENCH_ROUNDS           interleaved rounds (3; quick 2)
 * --processes <n>            BENCH_PROCESSES        server processes per target, each measured every round (3; quick
 *   1);
 *                                                     see docs/performance.md, "One process is one draw"
 *   --connections <n>          BENCH_CONNECTIONS      autocannon connections (32)
 *   --warmup <s>               BENCH_WARMUP           warm-up seconds per target, process and mode (3; quick 0.75)
 *   --sequential <n>           BENCH_SEQUENTIAL       sequential requests per target and mode (300; quick 60)
 *   --streams <n>              BENCH_STREAMS          concurrent slow streams (1000)
 * --stream-seconds <s>       BENCH_STREAM_SECONDS   how long the slow streams are held open together, a chunk per 100
 *   ms (5; quick 2)
 * --hold-rounds <n>          BENCH_HOLD_ROUNDS      interleaved rounds of the slow-stream hold, a fresh process each;
 *   median reported (3; quick 1)
 * --only <ids>               BENCH_ONLY             comma-separated target ids (direct and the floor are always kept)
 *   and
 *                                                     steps (held-stream, embeddings, dashboard); without a target id no target server is started
 * --held-stream-rounds <n>   BENCH_HELD_STREAM_ROUNDS  rounds of the held-stream memory probes; medians reported (3;
 *   quick 1)
 * --profile                  BENCH_PROFILE=1        also profile the gateway (node --cpu-prof) on a same-protocol round
 *   --profile-dir <dir>        BENCH_PROFILE_DIR      where the .cpuprofile files go (/tmp/rosetta-bench-profile)
 *   --no-build                 BENCH_NO_BUILD=1       do not run `npm run build` first
 *   --no-pin                   BENCH_NO_PIN=1         do not pin processes with taskset
 *   --shared-gateway           BENCH_SHARED_GATEWAY=1 the four protocol targets share gateway processes serving all four
 *   --load-core / --server-core / --upstream-core <n>   (0 / 1 / 0)
 *   --upstream-connections <n> BENCH_UPSTREAM_CONNECTIONS  upstream pool size of the gateway and the relays (1024)
 * --memory-reducer           BENCH_MEMORY_REDUCER=1 keep V8's memory reducer in the load and sequential phases
 *   (default:
 * --no-memory-reducer; the slow-stream hold always runs with V8's defaults;
 *                                                     see docs/performance.md, "Idle spells and V8's memory reducer")
 *   --out <file>               BENCH_OUT              JSON results (bench/results/latest.json)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCount, loadRound, sequential, singleConnectionAgent, slowStreams, timedRequest } from './lib/clients.mjs';
import { killAll, pinSelf, startServer, tasksetAvailable } from './lib/processes.mjs';
import { requestFor } from './lib/protocols.mjs';
import { countCpu, perfAvailable } from './lib/perf.mjs';
import { median, percentile, round } from './lib/stats.mjs';
import { HELD_STREAM_STEP, heldStreamVerdicts, renderHeldStream, runHeldStream } from './lib/held-stream.mjs';
import { EMBEDDINGS_STEP, renderEmbeddings, runEmbeddings } from './lib/embeddings.mjs';
import { DASHBOARD_STEP, renderDashboard, runDashboard } from './lib/dashboard.mjs';
import { formatSummary, summariseProfile } from './profile-summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(import.meta.url);

// ─── options ────────────────────────────────────────────────────────────────────────────────────

function parseArgs(argv) {
  const flags = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (!arg.startsWith('--')) continue;
    const [name, inline] = arg.slice(2).split('=', 2);
    if (inline !== undefined) flags[name] = inline;
    else if (argv[index + 1] !== undefined && !argv[index + 1].startsWith('--')) flags[name] = argv[++index];
    else flags[name] = true;
  }
  return flags;
}

const flags = parseArgs(process.argv.slice(2));
const env = process.env;
/** What a `gateway-operated` target other than `gateway-operated` itself adds, as its verdict line says it. */
const OPERATED_VERDICTS = {
  'gateway-traced': 'with an OpenTelemetry SDK recording spans',
  'gateway-baseline': 'the baseline build',
};
const truthy = (value) => value !== undefined && value !== false && value !== '0' && value !== 'false' && value !== '';
const quick = truthy(flags.quick) || truthy(env.BENCH_QUICK);

function numberOption(flag, variable, full, quickValue) {
  const raw = flags[flag] ?? env[variable];
  if (raw === undefined || raw === true) return quick ? quickValue : full;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${flag} / ${variable} must be a number, not ${raw}`);
  return value;
}

const options = {
  quick,
  durationSeconds: numberOption('duration', 'BENCH_DURATION', 4, 1),
  rounds: Math.max(1, Math.round(numberOption('rounds', 'BENCH_ROUNDS', 3, 2))),
  processes: Math.max(1, Math.round(numberOption('processes', 'BENCH_PROCESSES', 3, 1))),
  connections: Math.max(1, Math.round(numberOption('connections', 'BENCH_CONNECTIONS', 32, 32))),
  warmupSeconds: numberOption('warmup', 'BENCH_WARMUP', 3, 0.75),
  sequentialRequests: Math.max(10, Math.round(numberOption('sequential', 'BENCH_SEQUENTIAL', 300, 60))),
  streams: Math.max(1, Math.round(numberOption('streams', 'BENCH_STREAMS', 1000, 1000))),
  streamSeconds: numberOption('stream-seconds', 'BENCH_STREAM_SECONDS', 5, 2),
  holdRounds: Math.max(1, Math.round(numberOption('hold-rounds', 'BENCH_HOLD_ROUNDS', 3, 1))),
  heldStreamRounds: Math.max(1, Math.round(numberOption('held-stream-rounds', 'BENCH_HELD_STREAM_ROUNDS', 3, 1))),
  streamIntervalMs: 100,
  only: (flags.only ?? env.BENCH_ONLY)
    ?.split(',')
    .map((id) => id.trim())
    .filter(Boolean),
  profile: truthy(flags.profile) || truthy(env.BENCH_PROFILE),
  profileDir: path.resolve(
    flags['profile-dir'] ?? env.BENCH_PROFILE_DIR ?? path.join(os.tmpdir(), 'rosetta-bench-profile'),
  ),
  build: !(truthy(flags['no-build']) || truthy(env.BENCH_NO_BUILD)),
  pin: !(truthy(flags['no-pin']) || truthy(env.BENCH_NO_PIN)),
  loadCore: numberOption('load-core', 'BENCH_LOAD_CORE', 0, 0),
  serverCore: numberOption('server-core', 'BENCH_SERVER_CORE', 1, 1),
  upstreamCore: numberOption('upstream-core', 'BENCH_UPSTREAM_CORE', 0, 0),
  upstreamConnections: Math.round(numberOption('upstream-connections', 'BENCH_UPSTREAM_CONNECTIONS', 1024, 1024)),
  memoryReducer: truthy(flags['memory-reducer']) || truthy(env.BENCH_MEMORY_REDUCER),
  sharedGateway: truthy(flags['shared-gateway']) || truthy(env.BENCH_SHARED_GATEWAY),
  out: path.resolve(flags.out ?? env.BENCH_OUT ?? path.join(here, 'results', 'latest.json')),
};

/** Which parts run: the servers under test (any target id, or no --only) and the held-stream step. */
const steps = {
  targets:
    !options.only ||
    options.only.some((id) => id !== HELD_STREAM_STEP && id !== EMBEDDINGS_STEP && id !== DASHBOARD_STEP),
  heldStream: !options.only || options.only.includes(HELD_STREAM_STEP),
  embeddings: !options.only || options.only.includes(EMBEDDINGS_STEP),
  dashboard: !options.only || options.only.includes(DASHBOARD_STEP),
};

/** Sequential requests are split into interleaved rounds of this size. */
const SEQUENTIAL_BLOCK = 30;
const MODES = ['nonstream', 'stream'];
const TARGETS_WANTED = {
  /** Issue 36: the same-protocol gateway at least the floor non-streamed, 1.15 × it streamed; cross protocol 0.9 ×. */
  sameProtocolRatio: { nonstream: 1.0, stream: 1.15 },
  crossProtocolRatio: { nonstream: 0.9, stream: 0.9 },
  /** Embeddings: at least 0.7 × the relay that copies the upstream's bytes (issue 36). */
  embeddingsRatio: 0.7,
  rssWithStreamsMB: 150,
  /** The gateway with a usage sink and a rate limit, against the same gateway without them (issue 22: within 5 %). */
  operatedRatio: 0.95,
  /**
   * A model written as one deployment, and one over three deployments with session affinity, against the plain
   * gateway (issue 25: one deployment within noise, three within 5 %).
   */
  deploymentsRatio: 0.95,
};

/**
 * Node flags of every server the bench starts. An idle spell (a process waits while the other
 * targets run their rounds) lets V8's memory reducer run a full collection that drops the hidden
 * classes no live object uses; the optimized code that embedded them is thrown away, and a process
 * hit by it stays ~10–25% slower for the rest of the run. Whether it fires in a given process is
 * chance, so each target's numbers would depend on its luck, not its code. Off by default in the
 * throughput and sequential phases; the slow-stream hold (memory) runs with V8's defaults.
 */
const SERVER_NODE_ARGS = options.memoryReducer ? [] : ['--no-memory-reducer'];

const log = (...parts) => console.log(...parts);
const mb = (bytes) => round(bytes / 1024 / 1024, 1);

// ─── preparation ───────────────────────────────────────────────────────────────────────────────

function build() {
  log('› npm run build');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed (run with --no-build to use the dist/ already there)');
}

function gitCommit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'lib'], { cwd: root, encoding: 'utf8' });
  return `${result.stdout.trim()}${dirty.stdout?.trim() ? ' (+ uncommitted changes in lib/)' : ''}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ─── main ──────────────────────────────────────────────────────────────────────────────────────

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  log(`rosetta-gateway bench${quick ? ' (quick)' : ''} — ${startedAt.toISOString()}`);
  log(
    `load average before: ${loadBefore.map((value) => value.toFixed(2)).join(' ')}${loadBefore[0] >= 0.5 ? '  ⚠ the machine is busy: numbers will be noisy' : ''}`,
  );

  if (options.build) build();
  let packageEntry;
  try {
    packageEntry = require.resolve('rosetta-gateway');
  } catch (error) {
    throw new Error(`the built package is missing (${error.message}); run npm run build`);
  }

  const pin = options.pin && tasksetAvailable();
  const perf = perfAvailable();
  log(
    perf
      ? 'perf stat: counting CPU cycles per request of each server'
      : 'perf stat unavailable here: no cycle counts (the × floor by cycles column stays empty)',
  );
  if (options.pin && !pin)
    log('⚠ taskset (util-linux) is not available: every process runs UNPINNED and shares all cores');
  if (pin) pinSelf(options.loadCore);
  const layout = !pin
    ? { pinned: false, note: 'taskset unavailable or --no-pin: all processes unpinned' }
    : !steps.targets
      ? {
          pinned: true,
          [`core ${options.serverCore}`]: [
            ...(steps.heldStream ? ['the held-stream probes (client, gateway and upstream in one process)'] : []),
            ...(steps.embeddings ? ['the embeddings step: its floor relays and gateways'] : []),
            ...(steps.dashboard ? ['the dashboard step: its server over 100,000 records'] : []),
          ].join(', then '),
        }
      : {
          pinned: true,
          [`core ${options.loadCore}`]: `load generator (this process: autocannon, sequential and slow-stream clients)${options.upstreamCore === options.loadCore ? ' + mock upstream called by the relays and the gateway' : ''}`,
          [`core ${options.serverCore}`]: `servers under test, one under load at a time (direct mock; ${options.processes} process(es) each of Express+undici, Express+got, Express+fetch, gateway)${options.upstreamCore === options.serverCore ? ' + mock upstream called by the relays and the gateway' : ''}${steps.heldStream ? '; before them, the held-stream probes' : ''}`,
        };
  if (pin && steps.targets && options.upstreamCore !== options.loadCore && options.upstreamCore !== options.serverCore)
    layout[`core ${options.upstreamCore}`] = 'mock upstream called by the relays and the gateway';
  for (const [core, what] of Object.entries(layout)) if (core !== 'pinned') log(`  ${core}: ${what}`);

  const problems = [];
  const fail = (message) => {
    problems.push(message);
    log(`✗ ${message}`);
  };
  const report = { startedAt, loadBefore, pin, layout, problems };

  // First, while no server of the bench runs: it measures one process's live heap.
  const heldStream = steps.heldStream
    ? runHeldStream({ rounds: options.heldStreamRounds, pin, core: options.serverCore, log, fail })
    : undefined;

  const mockEnv = { BENCH_SLOW_INTERVAL_MS: String(options.streamIntervalMs) };
  const servers = [];
  const start = async (spec) => {
    const server = await startServer({ pin, nodeArgs: SERVER_NODE_ARGS, ...spec });
    servers.push(server);
    return server;
  };
  // The embeddings step: its own mock upstream, floor relays and gateways, stopped before the targets start.
  report.embeddings = steps.embeddings
    ? await runEmbeddings({
        start: (spec) => startServer({ pin, nodeArgs: SERVER_NODE_ARGS, ...spec }),
        options,
        log,
        fail,
        upstreamCore: options.upstreamCore,
        serverCore: options.serverCore,
      })
    : undefined;
  // The dashboard step: its own server process over a usage log of 100,000 records, timed one request at a time.
  report.dashboard = steps.dashboard
    ? await runDashboard({
        start: (spec) => startServer({ pin, core: options.serverCore, ...spec }),
        options,
        log,
        fail,
      })
    : undefined;
  if (!steps.targets) {
    const verdicts = [...embeddingsVerdicts(report.embeddings), ...(heldStream ? heldStreamVerdicts(heldStream) : [])];
    finish({ ...report, heldStream, verdicts });
    return;
  }

  const upstream = await start({
    name: 'mock-upstream',
    script: path.join(here, 'servers/mock-upstream.mjs'),
    core: options.upstreamCore,
    env: mockEnv,
  });
  const upstreamEnv = {
    BENCH_UPSTREAM: `${upstream.url}/v1`,
    BENCH_UPSTREAM_CONNECTIONS: String(options.upstreamConnections),
  };
  const directMock = await start({
    name: 'mock-direct',
    script: path.join(here, 'servers/mock-upstream.mjs'),
    core: options.serverCore,
    env: mockEnv,
  });

  /** Every target: what it is, which process serves it, which protocol it speaks. */
  const catalogue = [
    { id: 'direct', label: 'direct → mock upstream', kind: 'direct', protocol: 'openai', start: () => directMock },
    {
      id: 'relay-undici',
      label: 'Express + undici Pool (floor)',
      kind: 'floor',
      protocol: 'openai',
      script: 'relay.mjs',
      env: { BENCH_CLIENT: 'undici' },
    },
    {
      id: 'relay-got',
      label: 'Express + got',
      kind: 'relay',
      protocol: 'openai',
      script: 'relay.mjs',
      env: { BENCH_CLIENT: 'got' },
    },
    {
      id: 'relay-fetch',
      label: 'Express + fetch',
      kind: 'relay',
      protocol: 'openai',
      script: 'relay.mjs',
      env: { BENCH_CLIENT: 'fetch' },
    },
    {
      id: 'relay-dispatch',
      label: 'Express + undici dispatch (reference)',
      kind: 'relay',
      protocol: 'openai',
      script: 'relay.mjs',
      env: { BENCH_CLIENT: 'undici-dispatch' },
    },
    {
      id: 'gateway-openai',
      label: 'gateway: OpenAI chat → OpenAI (same protocol)',
      kind: 'gateway-same',
      protocol: 'openai',
      server: 'gateway',
    },
    {
      id: 'gateway-operated',
      label: 'gateway: OpenAI chat → OpenAI, with a usage sink and a rate limit',
      kind: 'gateway-operated',
      protocol: 'openai',
      script: 'gateway.cjs',
      env: { BENCH_OPERATED: '1' },
    },
    {
      id: 'gateway-traced',
      label: 'gateway: OpenAI chat → OpenAI, an OpenTelemetry SDK registered (spans recorded, export dropped)',
      kind: 'gateway-operated',
      protocol: 'openai',
      script: 'gateway.cjs',
      env: { BENCH_TRACES: 'sdk' },
    },
    {
      id: 'gateway-one-deployment',
      label: 'gateway: OpenAI chat → OpenAI, the model written as one deployment',
      kind: 'gateway-deployments',
      protocol: 'openai',
      script: 'gateway.cjs',
      env: { BENCH_DEPLOYMENTS: '1' },
    },
    {
      id: 'gateway-deployments',
      label: 'gateway: OpenAI chat → OpenAI, three deployments weighted 1:2:1, session affinity on',
      kind: 'gateway-deployments',
      protocol: 'openai',
      script: 'gateway.cjs',
      env: { BENCH_DEPLOYMENTS: '3' },
    },
    {
      id: 'gateway-anthropic',
      label: 'gateway: Anthropic messages → OpenAI (cross)',
      kind: 'gateway-cross',
      protocol: 'anthropic',
      server: 'gateway',
    },
    {
      id: 'gateway-gemini',
      label: 'gateway: Gemini generateContent → OpenAI (cross)',
      kind: 'gateway-cross',
      protocol: 'gemini',
      server: 'gateway',
    },
    {
      id: 'gateway-responses',
      label: 'gateway: OpenAI Responses → OpenAI chat (cross)',
      kind: 'gateway-cross',
      protocol: 'responses',
      server: 'gateway',
    },
  ];
  // Another build of the package to compare with, measured in the same interleaved rounds (BENCH_BASELINE: the path
  // of its dist/cjs/index.js, e.g. the main branch built in another directory).
  if (env.BENCH_BASELINE)
    catalogue.push({
      id: 'gateway-baseline',
      label: `gateway: OpenAI chat → OpenAI, the baseline build (${env.BENCH_BASELINE})`,
      kind: 'gateway-operated',
      protocol: 'openai',
      script: 'gateway.cjs',
      env: { BENCH_GATEWAY_MODULE: path.resolve(env.BENCH_BASELINE) },
    });
  const targets = catalogue.filter(
    (target) =>
      !options.only || target.kind === 'direct' || target.kind === 'floor' || options.only.includes(target.id),
  );
  // Each target gets `options.processes` server processes (the direct mock stays one: it is the
  // reference for added latency and runs no JIT-heavy code). A gateway target's processes serve its one
  // caller protocol from their first request (nothing warms them with the others: a process's first
  // requests set its cost, docs/performance.md open question 1); with --shared-gateway the four protocol
  // targets share processes that serve all four. `target.process` is the first, used by the sequential phase.
  let gateways;
  const several = (make) => Promise.all(Array.from({ length: options.processes }, (_, index) => make(index)));
  for (const target of targets) {
    if (target.start) target.processes = [target.start()];
    else if (target.server === 'gateway' && !options.sharedGateway) {
      target.processes = await several((index) =>
        start({
          name: `${target.id}-${index + 1}`,
          script: path.join(here, 'servers/gateway.cjs'),
          core: options.serverCore,
          env: upstreamEnv,
        }),
      );
    } else if (target.server === 'gateway') {
      gateways ??= await several((index) =>
        start({
          name: `gateway-${index + 1}`,
          script: path.join(here, 'servers/gateway.cjs'),
          core: options.serverCore,
          env: upstreamEnv,
        }),
      );
      target.processes = gateways;
    } else {
      target.processes = await several((index) =>
        start({
          name: `${target.id}-${index + 1}`,
          script: path.join(here, 'servers', target.script),
          core: options.serverCore,
          env: { ...upstreamEnv, ...target.env },
        }),
      );
    }
    target.process = target.processes[0];
  }
  const floor = targets.find((target) => target.kind === 'floor');
  const direct = targets.find((target) => target.kind === 'direct');
  log(
    `servers: ${servers.map((server) => `${server.name}(pid ${server.pid}${server.core !== null ? `, core ${server.core}` : ''})`).join(', ')}`,
  );
  log(
    `gateway: ${path.relative(root, packageEntry)}; DEBUG unset; upstream pool ${options.upstreamConnections} connections`,
  );

  // Pre-flight: every process of every target answers every mode correctly.
  for (const target of targets) {
    for (const server of target.processes) {
      for (const mode of MODES) {
        const request = requestFor(target.protocol, mode);
        const outcome = await timedRequest({ agent: false, port: server.port, request });
        if (!outcome.ok) throw new Error(`pre-flight: ${target.id} (${server.name}) ${mode} failed — ${outcome.error}`);
      }
    }
  }
  log('pre-flight: every target answers both modes correctly');

  // ── throughput under load, interleaved ───────────────────────────────────────────────────────
  const runs = [];
  // `processIndex` picks one of the target's load-phase processes; without it, `target.process` (the
  // slow-stream hold and the profile pass targets with a fresh process of their own there).
  const measure = async (target, mode, seconds, phase, roundIndex, processIndex) => {
    const request = requestFor(target.protocol, mode);
    const server = processIndex === undefined ? target.process : target.processes[processIndex];
    const [serverBefore, upstreamBefore] = await Promise.all([server.stats(), upstream.stats()]);
    const counter = perf && phase === 'load' ? await countCpu(server.pid) : undefined;
    const result = await loadRound({
      url: server.url,
      request,
      connections: options.connections,
      durationSeconds: seconds,
    });
    const counted = await counter?.stop();
    const [serverAfter, upstreamAfter] = await Promise.all([server.stats(), upstream.stats()]);
    const run = {
      phase,
      round: roundIndex,
      process: processIndex ?? 0,
      target: target.id,
      mode,
      ...result,
      serverCpu: (serverAfter.cpuMicros - serverBefore.cpuMicros) / 1e6 / result.elapsedSeconds,
      upstreamCpu:
        target.kind === 'direct'
          ? 0
          : (upstreamAfter.cpuMicros - upstreamBefore.cpuMicros) / 1e6 / result.elapsedSeconds,
      // New TCP connections the upstream accepted per upstream request: ~0 when keep-alive works.
      upstreamRequests: target.kind === 'direct' ? 0 : upstreamAfter.served - upstreamBefore.served,
      upstreamNewConnections: target.kind === 'direct' ? 0 : upstreamAfter.connections - upstreamBefore.connections,
      serverRss: serverAfter.rss,
      // CPU cycles (user + kernel) and user instructions of the server process per request, when perf counts them.
      cyclesPerRequest: counted && result.requests > 0 ? counted.cycles / result.requests : undefined,
      instructionsPerRequest: counted && result.requests > 0 ? counted.instructions / result.requests : undefined,
    };
    const errors = errorCount(result.errors);
    if (errors > 0)
      fail(
        `${phase} ${target.id} ${mode}: ${errors} errors ${JSON.stringify(result.errors)}${result.errorSamples.length ? ` — e.g. ${result.errorSamples.join(' | ')}` : ''}`,
      );
    runs.push(run);
    return run;
  };

  // In the summary, a target's process p is compared with the floor's process p of the same round
  // (and with the direct mock's one run of that round).
  const processIndexes = (target) => target.processes.map((_, index) => index);
  log(`\nwarm-up: ${options.warmupSeconds}s per target, process and mode`);
  for (const target of targets)
    for (const index of processIndexes(target))
      for (const mode of MODES) await measure(target, mode, options.warmupSeconds, 'warmup', 0, index);

  log(
    `\nload: ${options.rounds} interleaved rounds × ${targets.length} targets × ${options.processes} process(es) × ${MODES.length} modes × ${options.durationSeconds}s, ${options.connections} connections`,
  );
  for (let roundIndex = 1; roundIndex <= options.rounds; roundIndex++) {
    for (const mode of MODES) {
      const line = [];
      for (const target of targets) {
        const measured = [];
        for (const index of processIndexes(target)) {
          measured.push(
            Math.round((await measure(target, mode, options.durationSeconds, 'load', roundIndex, index)).rps),
          );
        }
        line.push(`${target.id} ${measured.join('/')}`);
      }
      log(`  round ${roundIndex} ${mode.padEnd(9)} req/s: ${line.join(' · ')}`);
    }
  }

  // ── sequential: one connection, one request at a time ────────────────────────────────────────
  log(
    `\nsequential: ${options.sequentialRequests} requests per target and mode on one keep-alive connection, interleaved in blocks of ${SEQUENTIAL_BLOCK}`,
  );
  const sequentialSamples = new Map();
  const agents = new Map(targets.map((target) => [target.id, singleConnectionAgent()]));
  for (const target of targets)
    for (const mode of MODES)
      sequentialSamples.set(`${target.id}/${mode}`, { totals: [], firstBytes: [], failures: [] });
  // A short unmeasured warm-up of each connection.
  for (const target of targets)
    for (const mode of MODES)
      await sequential({
        agent: agents.get(target.id),
        port: target.process.port,
        request: requestFor(target.protocol, mode),
        count: 10,
      });
  for (let done = 0; done < options.sequentialRequests; done += SEQUENTIAL_BLOCK) {
    const count = Math.min(SEQUENTIAL_BLOCK, options.sequentialRequests - done);
    for (const target of targets) {
      for (const mode of MODES) {
        const result = await sequential({
          agent: agents.get(target.id),
          port: target.process.port,
          request: requestFor(target.protocol, mode),
          count,
        });
        const bucket = sequentialSamples.get(`${target.id}/${mode}`);
        bucket.totals.push(...result.totals);
        bucket.firstBytes.push(...result.firstBytes);
        bucket.failures.push(...result.failures);
      }
    }
  }
  for (const agent of agents.values()) agent.destroy();
  for (const [key, bucket] of sequentialSamples)
    if (bucket.failures.length)
      fail(`sequential ${key}: ${bucket.failures.length} failures, e.g. ${bucket.failures[0]}`);

  // ── 1,000 concurrent slow streams ────────────────────────────────────────────────────────────
  // Opened over `rampMs` (100 at a time), then held: the steady state (every stream open, none
  // ended) is measured on its own, inside the server process, besides the whole phase.
  // Each hold gets a FRESH server process (warmed up, but without the heap the throughput rounds
  // left behind), so its RSS is what holding the streams costs. A process's peak RSS depends on when
  // V8 happens to collect its old generation (±6 MB between identical runs), so the holds are
  // repeated in interleaved rounds (gateway, floor, gateway, floor, …) and the median round reported.
  const slow = [];
  const slowSpecs = [
    catalogue.find((target) => target.id === 'gateway-openai'),
    catalogue.find((target) => target.kind === 'floor'),
  ];
  const freshProcess = (spec, round) => {
    const script = spec.server === 'gateway' ? 'gateway.cjs' : spec.script;
    // V8's defaults here: this phase measures memory as a deployment runs, and the memory reducer
    // is part of what a process's RSS is. (Its effect on the held peak is within the ±7 MB the
    // rounds spread: with it off the floor held 151–161 MB in three runs, with it on 151–155 MB.)
    return start({
      name: `${spec.id}-streams-${round + 1}`,
      script: path.join(here, 'servers', script),
      core: options.serverCore,
      env: { ...upstreamEnv, ...spec.env },
      nodeArgs: [],
    });
  };
  const batch = 100;
  const rampMs = 1000;
  const batchGapMs = options.streams > batch ? rampMs / Math.ceil(options.streams / batch - 1) : 0;
  const openTimeoutMs = 30_000;
  log(
    `\nslow streams: ${options.streams} concurrent connections opened over ~${rampMs} ms (100 at a time); once all are open they are held ${options.streamSeconds}s (a chunk every ${options.streamIntervalMs} ms), then released; ${options.holdRounds} interleaved round(s), a fresh server process each`,
  );
  /** Opens the streams, holds them all open for streamSeconds, releases them; hooks bracket the hold. */
  const heldStreams = async (target, hooks = {}) => {
    for (const mode of MODES) await measure(target, mode, Math.min(options.warmupSeconds, 2), 'streams-warmup', 0);
    const request = requestFor(target.protocol, 'stream', 'mock-slow');
    await upstream.ask('slow-reset');
    const [before, upstreamBefore] = await Promise.all([target.process.stats(), upstream.stats()]);
    const cpuBefore = process.cpuUsage();
    await target.process.ask('monitor-start', { name: 'phase' });
    let signalAllOpen;
    const allOpen = new Promise((resolve) => {
      signalAllOpen = resolve;
    });
    const live = { open: 0 };
    const running = slowStreams({
      live,
      port: target.process.port,
      request,
      count: options.streams,
      batch,
      batchGapMs,
      deadlineMs: openTimeoutMs + options.streamSeconds * 1000 + 60_000,
      onAllOpen: () => signalAllOpen(true),
    });
    // Hold: every stream open, none ended, for streamSeconds — measured inside the server process.
    // If they are not all open within openTimeoutMs, the hold is measured anyway and flagged.
    const opened = await Promise.race([allOpen, sleep(openTimeoutMs).then(() => false)]);
    const openAtHoldStart = live.open;
    await hooks.onHoldStart?.();
    const [startedHold, mock] = await Promise.all([
      target.process.ask('monitor-start', { name: 'steady' }),
      upstream.stats(),
    ]);
    const counter = perf ? await countCpu(target.process.pid) : undefined;
    const holdStarted = performance.now();
    await sleep(options.streamSeconds * 1000);
    const counted = await counter?.stop();
    const stopped = await target.process.ask('monitor-stop', { name: 'steady' });
    await hooks.onHoldEnd?.();
    const seconds = (performance.now() - holdStarted) / 1000;
    const steady = {
      allOpen: Boolean(opened),
      openAtHoldStart,
      seconds,
      rssAtStart: startedHold.stats.rss,
      heapAtStart: startedHold.stats.heapUsed,
      // The breakdown (heap used / committed, external, array buffers) at the start and the end of the hold.
      memoryAtStart: startedHold.stats,
      memoryAtEnd: stopped.stats,
      rssPeak: stopped.rssPeak,
      upstreamStreams: mock.slowActive,
      eventLoopDelay: stopped.eventLoopDelay,
      serverCpu: (stopped.stats.cpuMicros - startedHold.stats.cpuMicros) / 1e6 / seconds,
      // CPU cycles per chunk relayed while held (every stream gets a chunk per interval), when perf counts them.
      cyclesPerChunk: counted
        ? counted.cycles /
          ((options.streams * ((performance.now() - holdStarted) / 1000) * 1000) / options.streamIntervalMs)
        : undefined,
    };
    await upstream.ask('slow-release');
    const result = await running;
    const monitor = await target.process.ask('monitor-stop', { name: 'phase' });
    const upstreamAfter = await upstream.stats();
    const wallSeconds = result.wallMs / 1000;
    const loadCpu = process.cpuUsage(cpuBefore);
    const entry = {
      target: target.id,
      ...result,
      steady,
      rssBefore: before.rss,
      rssPeak: monitor.rssPeak,
      upstreamPeakStreams: upstreamAfter.slowPeak,
      eventLoopDelay: monitor.eventLoopDelay,
      serverCpu: (monitor.stats.cpuMicros - before.cpuMicros) / 1e6 / wallSeconds,
      upstreamCpu: (upstreamAfter.cpuMicros - upstreamBefore.cpuMicros) / 1e6 / wallSeconds,
      loadGeneratorCpu: (loadCpu.user + loadCpu.system) / 1e6 / wallSeconds,
    };
    return entry;
  };

  const holds = new Map(slowSpecs.map((spec) => [spec.id, []]));
  for (let holdRound = 0; holdRound < options.holdRounds; holdRound++) {
    for (const spec of slowSpecs) {
      const target = { ...spec, process: await freshProcess(spec, holdRound) };
      const entry = await heldStreams(target);
      const result = entry;
      const steady = entry.steady;
      holds.get(spec.id).push(entry);
      await target.process.stop();
      if (result.failed > 0)
        fail(`slow streams ${target.id}: ${result.failed} of ${result.count} failed, e.g. ${result.failureSamples[0]}`);
      if (!steady.allOpen)
        fail(
          `slow streams ${target.id}: the ${options.streams} streams were not all open within ${openTimeoutMs / 1000}s (${steady.openAtHoldStart} were; peak ${result.peakOpen})`,
        );
      const eld = (value) =>
        `${round(value?.p50Ms ?? NaN)} / ${round(value?.p99Ms ?? NaN)} / ${round(value?.maxMs ?? NaN)} ms`;
      log(
        `  ${target.id} (round ${holdRound + 1}): ${result.ok}/${result.count} ok; all open after ${round((result.allOpenAfterMs ?? NaN) / 1000, 1)}s (upstream ${steady?.upstreamStreams ?? '?'}); held: RSS peak ${mb(steady?.rssPeak ?? NaN)} MB, event-loop delay p50/p99/max ${eld(steady?.eventLoopDelay)}, CPU ${Math.round((steady?.serverCpu ?? NaN) * 100)}%; whole phase: RSS peak ${mb(entry.rssPeak)} MB, event-loop delay ${eld(entry.eventLoopDelay)}, CPU server ${Math.round(entry.serverCpu * 100)}% / upstream ${Math.round(entry.upstreamCpu * 100)}% / load generator ${Math.round(entry.loadGeneratorCpu * 100)}%`,
      );
    }
  }
  // The round with the median held RSS peak stands for each server; every round's peak is kept.
  for (const [id, entries] of holds) {
    const ordered = [...entries].sort((a, b) => a.steady.rssPeak - b.steady.rssPeak);
    const representative = ordered[Math.floor((ordered.length - 1) / 2)];
    slow.push({
      ...representative,
      target: id,
      rounds: entries.length,
      heldRssPeaks: entries.map((entry) => entry.steady.rssPeak),
    });
  }

  // ── CPU profile of the gateway (optional) ────────────────────────────────────────────────────
  const profiles = [];
  if (options.profile) {
    rmSync(options.profileDir, { recursive: true, force: true });
    mkdirSync(options.profileDir, { recursive: true });
    const same = targets.find((target) => target.id === 'gateway-openai') ?? {
      id: 'gateway-openai',
      protocol: 'openai',
      kind: 'gateway-same',
    };
    const scenarios = [
      ...MODES.map((mode) => ({
        id: mode,
        title: `same protocol, ${mode === 'stream' ? 'stream' : 'non-stream'}, ${options.connections} connections`,
      })),
      { id: 'held-streams', title: `${options.streams} slow streams held open` },
    ];
    for (const scenario of scenarios) {
      const name = `gateway-${scenario.id}.cpuprofile`;
      log(`\nprofile: gateway under node --cpu-prof — ${scenario.title}`);
      const profiled = await startServer({
        name: `gateway-profiled-${scenario.id}`,
        script: path.join(here, 'servers/gateway.cjs'),
        core: options.serverCore,
        pin,
        env: upstreamEnv,
        nodeArgs: [
          ...SERVER_NODE_ARGS,
          '--cpu-prof',
          '--cpu-prof-dir',
          options.profileDir,
          '--cpu-prof-name',
          name,
          '--cpu-prof-interval',
          '250',
        ],
      });
      const target = { ...same, process: profiled };
      let from;
      let to;
      let rps;
      let held;
      if (scenario.id === 'held-streams') {
        held = await heldStreams(target, {
          onHoldStart: async () => {
            from = await profiled.ask('mark');
          },
          onHoldEnd: async () => {
            to = await profiled.ask('mark');
          },
        });
      } else {
        await measure(target, scenario.id, Math.max(options.warmupSeconds, 2), 'profile-warmup', 0);
        from = await profiled.ask('mark');
        rps = (await measure(target, scenario.id, options.durationSeconds, 'profile', 1)).rps;
        to = await profiled.ask('mark');
      }
      await profiled.stop();
      const file = path.join(options.profileDir, name);
      if (!readdirSync(options.profileDir).includes(name)) {
        fail(`profile ${file} was not written`);
        continue;
      }
      if (!from || !to) {
        fail(`profile ${file}: the measured window was never reached`);
        continue;
      }
      if (held && !held.steady.allOpen)
        log(
          `  ⚠ under the profiler only ${held.steady.openAtHoldStart} of ${options.streams} streams were open when the window started`,
        );
      // Only the measured window counts: start-up (module loading, schema compilation) and warm-up are left out.
      const window = { fromMicros: from.micros, toMicros: to.micros };
      writeFileSync(`${file}.window.json`, `${JSON.stringify(window)}\n`);
      const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { top: 20, ...window });
      profiles.push({ scenario: scenario.id, title: scenario.title, file, rpsUnderProfiler: rps, summary });
      log(`  ${file}${rps ? `: ${Math.round(rps)} req/s under the profiler` : ''}; top self time:`);
      for (const entry of summary.topSelf.slice(0, 8)) log(`    ${String(entry.pctOfBusy).padStart(5)}%  ${entry.fn}`);
    }
  }

  for (const server of servers) await server.stop();

  // ── summary ──────────────────────────────────────────────────────────────────────────────────
  const loadRuns = runs.filter((run) => run.phase === 'load');
  const runOf = (id, mode, roundIndex, processIndex) =>
    loadRuns.find(
      (run) => run.target === id && run.mode === mode && run.round === roundIndex && run.process === processIndex,
    );
  const rows = [];
  for (const mode of MODES) {
    for (const target of targets) {
      const mine = loadRuns.filter((run) => run.target === target.id && run.mode === mode);
      // Each run against the same round's direct run and the floor's run by the process of the same index.
      const perRound = (fn) =>
        median(
          mine.map((run) =>
            fn(run, runOf(direct.id, mode, run.round, 0), runOf(floor.id, mode, run.round, run.process)),
          ),
        );
      rows.push({
        target: target.id,
        label: target.label,
        kind: target.kind,
        mode,
        rps: median(mine.map((run) => run.rps)),
        p50Ms: median(mine.map((run) => run.p50)),
        p99Ms: median(mine.map((run) => run.p99)),
        addedP50Ms: target.kind === 'direct' ? 0 : perRound((run, base) => run.p50 - base.p50),
        ratioToFloor: perRound((run, _base, floorRun) => run.rps / floorRun.rps),
        cyclesPerRequest: median(mine.map((run) => run.cyclesPerRequest ?? NaN)),
        instructionsPerRequest: median(mine.map((run) => run.instructionsPerRequest ?? NaN)),
        // The floor's cycles per request over this target's: the throughput ratio one core would give without drift.
        cycleRatioToFloor: perRound(
          (run, _base, floorRun) => (floorRun.cyclesPerRequest ?? NaN) / (run.cyclesPerRequest ?? NaN),
        ),
        errors: runs
          .filter((run) => run.target === target.id && run.mode === mode)
          .reduce((sum, run) => sum + errorCount(run.errors), 0),
        serverCpu: median(mine.map((run) => run.serverCpu)),
        loadGeneratorCpu: median(mine.map((run) => run.loadGeneratorCpu)),
        upstreamCpu: median(mine.map((run) => run.upstreamCpu)),
        rssMB: mb(Math.max(...mine.map((run) => run.serverRss))),
        upstreamConnectionsPer1k:
          target.kind === 'direct'
            ? NaN
            : (1000 * mine.reduce((sum, run) => sum + run.upstreamNewConnections, 0)) /
              Math.max(
                1,
                mine.reduce((sum, run) => sum + run.upstreamRequests, 0),
              ),
        rounds: mine.map((run) => round(run.rps, 0)),
        roundRatiosToFloor: mine.map((run) => round(run.rps / runOf(floor.id, mode, run.round, run.process).rps, 3)),
        // Per server process: its median requests/s and its median cycles and instructions per request.
        processes: processIndexes(target).map((index) => {
          const its = mine.filter((run) => run.process === index);
          return {
            rps: round(median(its.map((run) => run.rps)), 0),
            cyclesPerRequest: round(median(its.map((run) => run.cyclesPerRequest ?? NaN)), 0),
            instructionsPerRequest: round(median(its.map((run) => run.instructionsPerRequest ?? NaN)), 0),
          };
        }),
      });
    }
  }

  const sequentialRows = targets.map((target) => {
    const plain = sequentialSamples.get(`${target.id}/nonstream`);
    const streamed = sequentialSamples.get(`${target.id}/stream`);
    const directPlain = sequentialSamples.get(`${direct.id}/nonstream`);
    const directStreamed = sequentialSamples.get(`${direct.id}/stream`);
    const p50 = percentile(plain.totals, 50);
    const firstByte = percentile(streamed.firstBytes, 50);
    return {
      target: target.id,
      kind: target.kind,
      requests: plain.totals.length + streamed.totals.length,
      failures: plain.failures.length + streamed.failures.length,
      p50Ms: p50,
      p99Ms: percentile(plain.totals, 99),
      addedP50Ms: p50 - percentile(directPlain.totals, 50),
      firstByteP50Ms: firstByte,
      firstByteP99Ms: percentile(streamed.firstBytes, 99),
      addedFirstByteMs: firstByte - percentile(directStreamed.firstBytes, 50),
      streamP50Ms: percentile(streamed.totals, 50),
    };
  });

  // Targets: reported, never asserted.
  const verdicts = [];
  const verdict = (name, value, limit, better, unit = '') => {
    const pass = Number.isFinite(value) && (better === 'higher' ? value >= limit : value <= limit);
    const shown = unit === '%' ? `${round(value * 100, 1)}%` : `${round(value, 3)}${unit}`;
    const wanted = unit === '%' ? `${round(limit * 100, 0)}%` : `${limit}${unit}`;
    verdicts.push({
      name,
      value,
      limit,
      pass,
      line: `${pass ? 'PASS' : 'FAIL'}  ${name}: ${shown} (target ${better === 'higher' ? '≥' : '≤'} ${wanted})`,
    });
  };
  for (const row of rows) {
    if (row.kind === 'gateway-same')
      verdict(
        `same-protocol throughput, ${row.mode} (${row.target} / floor)`,
        row.ratioToFloor,
        TARGETS_WANTED.sameProtocolRatio[row.mode],
        'higher',
        '%',
      );
    if (row.kind === 'gateway-cross')
      verdict(
        `cross-protocol throughput, ${row.mode} (${row.target} / floor)`,
        row.ratioToFloor,
        TARGETS_WANTED.crossProtocolRatio[row.mode],
        'higher',
        '%',
      );
    if ((row.kind === 'gateway-same' || row.kind === 'gateway-cross') && Number.isFinite(row.cycleRatioToFloor)) {
      const wanted = (
        row.kind === 'gateway-same' ? TARGETS_WANTED.sameProtocolRatio : TARGETS_WANTED.crossProtocolRatio
      )[row.mode];
      verdict(
        `  the same by CPU cycles per request, ${row.mode} (floor's cycles / ${row.target}'s)`,
        row.cycleRatioToFloor,
        wanted,
        'higher',
        '%',
      );
    }
  }
  // A usage sink and a rate limit cost a host little: the operated gateway against the plain one, same protocol.
  for (const row of rows.filter((candidate) => candidate.kind === 'gateway-operated')) {
    const plain = rows.find((candidate) => candidate.target === 'gateway-openai' && candidate.mode === row.mode);
    if (!plain) continue;
    verdict(
      `${OPERATED_VERDICTS[row.target] ?? 'with a usage sink and a rate limit'}, ${row.mode} (${row.target} / gateway-openai)`,
      row.rps / plain.rps,
      TARGETS_WANTED.operatedRatio,
      'higher',
      '%',
    );
    if (Number.isFinite(row.cyclesPerRequest) && Number.isFinite(plain.cyclesPerRequest))
      verdict(
        `  the same by CPU cycles per request, ${row.mode} (gateway-openai's cycles / ${row.target}'s)`,
        plain.cyclesPerRequest / row.cyclesPerRequest,
        TARGETS_WANTED.operatedRatio,
        'higher',
        '%',
      );
  }
  // Deployments cost little: a model over one or three deployments against the plain gateway, same protocol.
  for (const row of rows.filter((candidate) => candidate.kind === 'gateway-deployments')) {
    const plain = rows.find((candidate) => candidate.target === 'gateway-openai' && candidate.mode === row.mode);
    if (!plain) continue;
    verdict(
      `deployments, ${row.mode} (${row.target} / gateway-openai)`,
      row.rps / plain.rps,
      TARGETS_WANTED.deploymentsRatio,
      'higher',
      '%',
    );
  }
  // One call's added latency: no more than the floor relay adds in the same run (issue 36).
  const floorSequential = sequentialRows.find((row) => row.kind === 'floor');
  for (const row of sequentialRows) {
    if (!row.kind.startsWith('gateway') || !floorSequential) continue;
    verdict(
      `sequential added p50 over direct (${row.target}; the floor relay's in this run)`,
      row.addedP50Ms,
      round(floorSequential.addedP50Ms, 3),
      'lower',
      ' ms',
    );
    verdict(
      `added time to first streamed byte over direct (${row.target}; the floor relay's in this run)`,
      row.addedFirstByteMs,
      round(floorSequential.addedFirstByteMs, 3),
      'lower',
      ' ms',
    );
  }
  const gatewaySlow = slow.find((entry) => entry.target === 'gateway-openai');
  if (gatewaySlow) {
    const held = gatewaySlow.steady;
    const streams = held.allOpen ? `${gatewaySlow.count}` : `only ${held.openAtHoldStart} of ${gatewaySlow.count}`;
    verdict(
      `gateway RSS with ${streams} concurrent streams held open (peak, median of ${gatewaySlow.rounds} round(s))`,
      held.rssPeak / 1024 / 1024,
      TARGETS_WANTED.rssWithStreamsMB,
      'lower',
      ' MB',
    );
  }
  // Not targets: the gateway against a relay that calls undici as the gateway does (dispatch, no Readable per call).
  const reference = rows.filter((row) => row.target === 'relay-dispatch');
  for (const row of rows) {
    if (!row.kind.startsWith('gateway')) continue;
    const relay = reference.find((candidate) => candidate.mode === row.mode);
    if (!relay) continue;
    const ratio = row.rps / relay.rps;
    const cycles = relay.cyclesPerRequest / row.cyclesPerRequest;
    verdicts.push({
      name: `reference ${row.target} ${row.mode}`,
      value: ratio,
      info: true,
      line: `INFO  ${row.target} / Express + undici dispatch, ${row.mode}: ${round(ratio * 100, 1)}% by throughput${Number.isFinite(cycles) ? `, ${round(cycles * 100, 1)}% by cycles` : ''} (a reference, not a target)`,
    });
  }
  verdicts.push(...embeddingsVerdicts(report.embeddings));
  if (heldStream) verdicts.push(...heldStreamVerdicts(heldStream));
  finish({ ...report, rows, sequentialRows, slow, heldStream, verdicts, profiles, runs });
}

/** The embeddings step's verdicts: the gateway against the byte-copying floor (a target), and against the parsing relay. */
function embeddingsVerdicts(rows = []) {
  return rows
    .filter((row) => row.id === 'gateway-embeddings')
    .flatMap((row) => {
      const pass = row.xFloor >= TARGETS_WANTED.embeddingsRatio;
      return [
        {
          name: `embeddings, ${row.format} (gateway / floor)`,
          value: row.xFloor,
          limit: TARGETS_WANTED.embeddingsRatio,
          pass,
          line: `${pass ? 'PASS' : 'FAIL'}  embeddings, ${row.format} (gateway / floor that copies bytes): ${round(row.xFloor * 100, 1)}% (target ≥ ${round(TARGETS_WANTED.embeddingsRatio * 100, 0)}%)`,
        },
        {
          name: `embeddings ${row.format} against the parsing relay`,
          value: row.xParse,
          info: true,
          line: `INFO  embeddings, ${row.format}: ${round(row.xParse * 100, 1)}% of a relay that parses the answer and sends it again`,
        },
      ];
    });
}

/** Adds the errors verdict, prints the report, writes the results files and sets the exit code. */
function finish({
  startedAt,
  loadBefore,
  pin,
  layout,
  problems,
  rows = [],
  sequentialRows = [],
  slow = [],
  heldStream,
  embeddings,
  dashboard,
  verdicts,
  profiles = [],
  runs = [],
}) {
  const loadAfter = os.loadavg();
  verdicts.push({
    name: 'errors',
    value: problems.length,
    limit: 0,
    pass: problems.length === 0,
    line: `${problems.length === 0 ? 'PASS' : 'FAIL'}  errors (non-2xx, socket errors, timeouts, bad bodies): ${problems.length === 0 ? 'none' : problems.length}`,
  });

  const environment = {
    date: startedAt.toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    loadAverageBefore: loadBefore.map((value) => round(value, 2)),
    loadAverageAfter: loadAfter.map((value) => round(value, 2)),
    commit: gitCommit(),
    taskset: pin,
    serverNodeArgs: rows.length ? SERVER_NODE_ARGS : [],
    layout,
  };
  const markdown = renderMarkdown({
    rows,
    sequentialRows,
    slow,
    heldStream,
    embeddings,
    dashboard,
    verdicts,
    profiles,
    environment,
  });
  log(`\n${markdown}`);

  mkdirSync(path.dirname(options.out), { recursive: true });
  const results = {
    options,
    environment,
    targets: TARGETS_WANTED,
    rows,
    sequential: sequentialRows,
    slowStreams: slow,
    heldStream,
    embeddings,
    dashboard,
    verdicts,
    profiles,
    problems,
    runs,
    markdown,
  };
  writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(options.out.replace(/\.json$/, '.md'), `${markdown}\n`);
  log(`\nresults: ${path.relative(process.cwd(), options.out)} (and .md)`);

  if (problems.length > 0) {
    console.error(
      `\n✗✗✗ BENCH FAILED: ${problems.length} problem(s) — a benchmark with errors measures the wrong thing:`,
    );
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exitCode = 1;
  }
}

// ─── report ────────────────────────────────────────────────────────────────────────────────────

function fmt(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

function signed(value, digits = 2) {
  if (!Number.isFinite(value)) return '—';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

function renderMarkdown({
  rows,
  sequentialRows,
  slow,
  heldStream,
  embeddings,
  dashboard,
  verdicts,
  profiles,
  environment,
}) {
  const blocks = [];
  if (rows.length) blocks.push(renderTargets(rows, sequentialRows));
  if (slow.length) blocks.push(renderSlowStreams(slow));
  if (heldStream) blocks.push(renderHeldStream(heldStream));
  if (embeddings) blocks.push(renderEmbeddings(embeddings));
  if (dashboard) blocks.push(renderDashboard(dashboard));
  blocks.push(['#### Targets', '', '```', ...verdicts.map((entry) => entry.line), '```']);
  for (const profile of profiles)
    blocks.push([
      formatSummary(profile.summary, `Profile: gateway, ${profile.title} (${path.basename(profile.file)})`),
    ]);
  blocks.push([
    `_${environment.date}, Node ${environment.node}, ${environment.cpu} × ${environment.cores}, load average ${environment.loadAverageBefore.join(' ')} before / ${environment.loadAverageAfter.join(' ')} after, ${environment.taskset ? 'pinned with taskset' : 'UNPINNED'}, servers run with ${environment.serverNodeArgs.length > 0 ? `${environment.serverNodeArgs.join(' ')} (the slow-stream hold with V8's defaults)` : "V8's defaults (memory reducer on)"}, commit ${environment.commit ?? '?'}._`,
  ]);
  return blocks.map((block) => block.join('\n')).join('\n\n');
}

function renderTargets(rows, sequentialRows) {
  const lines = [];
  lines.push(
    `#### Under load (medians over interleaved rounds and server processes; ${options.connections} connections, ${options.processes} process(es) per target, ${options.rounds} × ${options.durationSeconds}s per target, process and mode)`,
    '',
  );
  lines.push(
    '| target | mode | req/s | req/s by process | p50 ms | p99 ms | added p50 vs direct | × floor | errors | server CPU | RSS MB | new upstream conns / 1k req | k cycles / req | k cycles / req by process | × floor by cycles |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const byProcess = (field, scale = 1) =>
      row.processes
        .map((entry) => (Number.isFinite(entry[field]) ? Math.round(entry[field] / scale) : '—'))
        .join(' / ');
    lines.push(
      `| ${row.label} | ${row.mode === 'stream' ? 'stream' : 'non-stream'} | ${Math.round(row.rps)} | ${byProcess('rps')} | ${fmt(row.p50Ms)} | ${fmt(row.p99Ms)} | ${row.kind === 'direct' ? '—' : signed(row.addedP50Ms)} | ${fmt(row.ratioToFloor)} | ${row.errors} | ${Math.round(row.serverCpu * 100)}% | ${row.rssMB} | ${fmt(row.upstreamConnectionsPer1k, 1)} | ${Number.isFinite(row.cyclesPerRequest) ? Math.round(row.cyclesPerRequest / 1000) : '—'} | ${byProcess('cyclesPerRequest', 1000)} | ${row.kind === 'direct' ? '—' : fmt(row.cycleRatioToFloor)} |`,
    );
  }
  lines.push('', `#### Sequential (one connection, ${options.sequentialRequests} requests per target and mode)`, '');
  lines.push(
    '| target | p50 ms | p99 ms | added p50 vs direct | first streamed byte p50 ms | added first byte vs direct | stream complete p50 ms |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of sequentialRows) {
    lines.push(
      `| ${row.target} | ${fmt(row.p50Ms, 3)} | ${fmt(row.p99Ms, 3)} | ${row.kind === 'direct' ? '—' : signed(row.addedP50Ms, 3)} | ${fmt(row.firstByteP50Ms, 3)} | ${row.kind === 'direct' ? '—' : signed(row.addedFirstByteMs, 3)} | ${fmt(row.streamP50Ms, 3)} |`,
    );
  }
  return lines;
}

function renderSlowStreams(slow) {
  const lines = [];
  lines.push(
    `#### ${options.streams} concurrent slow streams (opened over ~1 s, then all held open ${options.streamSeconds}s with a chunk every ${options.streamIntervalMs} ms; measured inside the server process)`,
    '',
    `"Held" is the window in which every stream is open (none has ended); "phase" also covers opening the connections and finishing the streams. Each server held the streams ${options.holdRounds} time(s), interleaved, in a fresh process each; the row is the round with the median held RSS peak.`,
    '',
  );
  lines.push(
    '| server | ok | all open after s | upstream streams open | RSS before MB | RSS held (peak) MB, median round | each round | CPU held | k cycles / chunk held | event-loop delay held p50 / p99 / max ms | RSS peak, phase MB | event-loop delay, phase p50 / p99 / max ms | first byte p50 / p99 ms |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const entry of slow) {
    const eld = (value) => (value ? `${fmt(value.p50Ms)} / ${fmt(value.p99Ms)} / ${fmt(value.maxMs)}` : '—');
    const held = entry.steady;
    lines.push(
      `| ${entry.target} | ${entry.ok}/${entry.count} | ${fmt((entry.allOpenAfterMs ?? NaN) / 1000, 1)} | ${held?.upstreamStreams ?? '—'} | ${mb(entry.rssBefore)} | ${held ? mb(held.rssPeak) : '—'} | ${(entry.heldRssPeaks ?? []).map(mb).join(' / ')} | ${held ? `${Math.round(held.serverCpu * 100)}%` : '—'} | ${Number.isFinite(held?.cyclesPerChunk) ? fmt(held.cyclesPerChunk / 1000, 1) : '—'} | ${eld(held?.eventLoopDelay)} | ${mb(entry.rssPeak)} | ${eld(entry.eventLoopDelay)} | ${fmt(entry.firstByteP50Ms, 0)} / ${fmt(entry.firstByteP99Ms, 0)} |`,
    );
  }
  return lines;
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});

main().catch((error) => {
  console.error(`\n✗✗✗ BENCH ABORTED: ${error.stack ?? error}`);
  killAll();
  process.exit(1);
});
