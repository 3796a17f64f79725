/**
 * The load side (runs in the parent, pinned to the load generator's core):
 * - `loadRound`: autocannon (programmatic API) for a fixed duration; latency is recorded from
 *   autocannon's per-response timings (floats — its own histogram keeps whole milliseconds);
 * - `sequential`: one keep-alive connection, one request at a time (latency and time to the first
 *   body byte);
 * - `slowStreams`: N concurrent streaming requests, each on its own connection, held open.
 * Every loop is bounded in count and in time; every request goes to 127.0.0.1.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { percentile } from './stats.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

/** One autocannon run against `url` + request; returns throughput, latency and every kind of error. */
export async function loadRound({ url, request, connections, durationSeconds, timeoutSeconds = 10 }) {
  const latencies = [];
  const samples = [];
  const verifyBody = (body) => {
    const ok = request.verify(body);
    if (!ok && samples.length < 3) samples.push(`bad body: ${body.slice(0, 300)}`);
    return ok;
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const instance = autocannon({
    url: `${url}${request.path}`,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections,
    pipelining: 1,
    duration: durationSeconds,
    timeout: timeoutSeconds,
    verifyBody,
  });
  instance.on('reqError', (error) => {
    if (samples.length < 3) samples.push(`socket error: ${error?.code ?? ''} ${error?.message ?? error}`);
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const ok = latencies.length;
  return {
    requests: result.requests.total,
    ok,
    rps: ok / elapsedSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: {
      socket: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      mismatches: result.mismatches,
      resets: result.resets ?? 0,
    },
    errorSamples: samples,
    elapsedSeconds,
    loadGeneratorCpu: (cpu.user + cpu.system) / 1e6 / elapsedSeconds,
  };
}

export function errorCount(errors) {
  return errors.socket + errors.timeouts + errors.non2xx + errors.mismatches;
}

/**
 * One request with timings: `firstByteMs` is the first byte of the BODY (for a stream, the first
 * streamed byte), `totalMs` the end of the response. Bounded by `timeoutMs`.
 */
export function timedRequest({ agent, port, request, timeoutMs = 10_000 }) {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstByteMs;
    let settled = false;
    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        path: request.path,
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => {
          if (firstByteMs === undefined) firstByteMs = performance.now() - started;
          chunks.push(chunk);
        });
        response.on('end', () => {
          const totalMs = performance.now() - started;
          const body = Buffer.concat(chunks).toString('utf8');
          const ok = response.statusCode >= 200 && response.statusCode < 300 && request.verify(body);
          finish({
            ok,
            status: response.statusCode,
            firstByteMs,
            totalMs,
            error: ok ? undefined : `status ${response.statusCode}: ${body.slice(0, 300)}`,
          });
        });
        response.on('error', (error) => finish({ ok: false, status: response.statusCode, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    outgoing.on('error', (error) => finish({ ok: false, error: error.message }));
    outgoing.end(request.body);
  });
}

/** A keep-alive agent holding exactly one connection. */
export function singleConnectionAgent() {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

/** `count` requests one after another on `agent`; returns the timings of the successful ones and the failures. */
export async function sequential({ agent, port, request, count }) {
  const totals = [];
  const firstBytes = [];
  const failures = [];
  for (let index = 0; index < count; index++) {
    const outcome = await timedRequest({ agent, port, request });
    if (outcome.ok) {
      totals.push(outcome.totalMs);
      firstBytes.push(outcome.firstByteMs);
    } else failures.push(outcome.error);
  }
  return { totals, firstBytes, failures };
}

/**
 * `count` concurrent streaming requests, each on its own connection, opened in batches of `batch`
 * every `batchGapMs` (opening 1,000 connections at once mostly measures the kernel and the client).
 * `onAllOpen` is called once every stream has received its first byte while none has ended (all
 * held open at once); the caller decides when the upstream lets them finish. `live.open` follows the
 * number of streams open. Bounded by `deadlineMs`.
 */
export async function slowStreams({
  port,
  request,
  count,
  batch = 100,
  batchGapMs = 100,
  deadlineMs = 60_000,
  onAllOpen,
  live = {},
}) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const started = performance.now();
  let open = 0;
  let peakOpen = 0;
  let firstBytes = 0;
  let allOpenAt;
  let ended = 0;
  const outcomes = [];
  const inFlight = new Set();
  const deadline = setTimeout(() => {
    for (const outgoing of inFlight) outgoing.destroy(new Error(`slow-stream deadline of ${deadlineMs} ms passed`));
  }, deadlineMs);

  const one = () =>
    new Promise((resolve) => {
      const begun = performance.now();
      let firstByteMs;
      let counted = false;
      const leave = () => {
        if (!counted) return;
        counted = false;
        open--;
        live.open = open;
      };
      const outgoing = http.request(
        {
          host: '127.0.0.1',
          port,
          path: request.path,
          method: 'POST',
          agent,
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => {
            if (firstByteMs === undefined) {
              firstByteMs = performance.now() - begun;
              open++;
              live.open = open;
              counted = true;
              peakOpen = Math.max(peakOpen, open);
              if (++firstBytes === count && ended === 0) {
                allOpenAt = performance.now() - started;
                onAllOpen?.();
              }
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            leave();
            ended++;
            const body = Buffer.concat(chunks).toString('utf8');
            const ok = response.statusCode === 200 && request.verify(body);
            resolve({
              ok,
              firstByteMs,
              totalMs: performance.now() - begun,
              error: ok ? undefined : `status ${response.statusCode}: ${body.slice(-300)}`,
            });
          });
          response.on('error', (error) => {
            leave();
            resolve({ ok: false, firstByteMs, error: error.message });
          });
        },
      );
      inFlight.add(outgoing);
      outgoing.on('close', () => inFlight.delete(outgoing));
      outgoing.on('error', (error) => {
        leave();
        resolve({ ok: false, firstByteMs, error: error.message });
      });
      outgoing.end(request.body);
    });

  const pending = [];
  for (let index = 0; index < count; index += batch) {
    for (let inner = index; inner < Math.min(count, index + batch); inner++)
      pending.push(one().then((outcome) => outcomes.push(outcome)));
    if (index + batch < count) await new Promise((resolve) => setTimeout(resolve, batchGapMs));
  }
  await Promise.all(pending);
  clearTimeout(deadline);
  agent.destroy();
  const good = outcomes.filter((outcome) => outcome.ok);
  const failures = outcomes.filter((outcome) => !outcome.ok);
  return {
    count,
    ok: good.length,
    failed: failures.length,
    failureSamples: [...new Set(failures.map((failure) => failure.error))].slice(0, 5),
    peakOpen,
    allOpenAfterMs: allOpenAt,
    firstByteP50Ms: percentile(
      good.map((outcome) => outcome.firstByteMs),
      50,
    ),
    firstByteP99Ms: percentile(
      good.map((outcome) => outcome.firstByteMs),
      99,
    ),
    durationP50Ms: percentile(
      good.map((outcome) => outcome.totalMs),
      50,
    ),
    wallMs: performance.now() - started,
  };
}
