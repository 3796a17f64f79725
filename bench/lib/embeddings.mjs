/**
 * The bench's embeddings step: `POST /v1/embeddings` with a batch of 16 inputs (256-dimension vectors back), through
 * the gateway (OpenAI embeddings → an OpenAI-compatible upstream: decode, count the inputs, hold, relay, settle,
 * encode), through the Express + undici floor relaying the same call to the same mock upstream (copying the answer's
 * bytes), and through the same relay parsing the answer and sending it again (`JSON.parse` + `JSON.stringify`: what a
 * relay that reads the vectors pays). Its own servers, in interleaved rounds; the gateway's throughput over each
 * relay's is reported, never asserted.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCount, loadRound } from './clients.mjs';
import { GATEWAY_KEY } from './protocols.mjs';
import { median, round } from './stats.mjs';

const servers = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'servers');

/** The `--only` id of this step. */
export const EMBEDDINGS_STEP = 'embeddings';

/** Inputs per call. */
export const EMBEDDINGS_BATCH = 16;

/** The vector encodings measured: the openai SDK's default (base64), and JSON numbers. */
export const EMBEDDING_FORMATS = ['base64', 'float'];

/** The request: 16 short passages, as a retrieval app embeds a page of chunks, in `format`. */
export function embeddingsRequest(format) {
  const input = Array.from(
    { length: EMBEDDINGS_BATCH },
    (_, index) => `Passage ${index}: the harbour light at the end of the pier turns every ten seconds.`,
  );
  return {
    path: '/v1/embeddings',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${GATEWAY_KEY}` },
    body: JSON.stringify({ model: 'mock-embed', input, encoding_format: format }),
    verify: (body) => body.includes('"object":"list"') && body.includes(`"index":${EMBEDDINGS_BATCH - 1}`),
  };
}

/**
 * Runs the step: starts a mock upstream, `processes` floor relays and `processes` gateways (each on the server core),
 * warms each up, then measures `rounds` interleaved rounds. `start` is the bench's server starter, `fail` its problem
 * reporter.
 */
export async function runEmbeddings({ start, options, log, fail, upstreamCore, serverCore }) {
  const upstream = await start({
    name: 'mock-upstream-embeddings',
    script: path.join(servers, 'mock-upstream.mjs'),
    core: upstreamCore,
  });
  const env = { BENCH_UPSTREAM: `${upstream.url}/v1`, BENCH_UPSTREAM_CONNECTIONS: String(options.upstreamConnections) };
  const several = (name, script, extra = {}) =>
    Promise.all(
      Array.from({ length: options.processes }, (_, index) =>
        start({
          name: `${name}-${index + 1}`,
          script: path.join(servers, script),
          core: serverCore,
          env: { ...env, ...extra },
        }),
      ),
    );
  const targets = [
    {
      id: 'relay-undici',
      label: 'Express + undici Pool (floor)',
      processes: await several('embed-relay-undici', 'relay.mjs', { BENCH_CLIENT: 'undici' }),
    },
    {
      id: 'relay-parse',
      label: 'Express + undici Pool, parsing the answer and sending it again',
      processes: await several('embed-relay-parse', 'relay.mjs', { BENCH_CLIENT: 'undici', BENCH_EMBED_PARSE: '1' }),
    },
    {
      id: 'gateway-embeddings',
      label: 'gateway: OpenAI embeddings → OpenAI',
      processes: await several('embed-gateway', 'gateway.cjs'),
    },
  ];
  const measure = async (target, index, format, seconds) => {
    const result = await loadRound({
      url: target.processes[index].url,
      request: embeddingsRequest(format),
      connections: options.connections,
      durationSeconds: seconds,
    });
    const errors = errorCount(result.errors);
    if (errors > 0)
      fail(
        `embeddings ${target.id} ${format}: ${errors} errors${result.errorSamples?.length ? ` — e.g. ${result.errorSamples.join(' | ')}` : ''}`,
      );
    return result;
  };
  log(
    `\nembeddings: a batch of ${EMBEDDINGS_BATCH} per call (${EMBEDDING_FORMATS.join(', ')}), ${options.rounds} interleaved rounds × ${options.processes} process(es) × ${options.durationSeconds}s`,
  );
  for (const target of targets)
    for (let index = 0; index < options.processes; index++)
      for (const format of EMBEDDING_FORMATS) await measure(target, index, format, options.warmupSeconds);
  const samples = new Map();
  for (const target of targets)
    for (const format of EMBEDDING_FORMATS)
      samples.set(`${target.id}/${format}`, { rps: [], p50: [], ratios: [], parseRatios: [] });
  for (let roundIndex = 1; roundIndex <= options.rounds; roundIndex++) {
    for (const format of EMBEDDING_FORMATS) {
      const line = [];
      const floorRps = [];
      const parseRps = [];
      for (const target of targets) {
        const measured = [];
        for (let index = 0; index < options.processes; index++) {
          const result = await measure(target, index, format, options.durationSeconds);
          const entry = samples.get(`${target.id}/${format}`);
          entry.rps.push(result.rps);
          entry.p50.push(result.p50);
          if (target.id === 'relay-undici') floorRps[index] = result.rps;
          else entry.ratios.push(result.rps / floorRps[index]);
          if (target.id === 'relay-parse') parseRps[index] = result.rps;
          else if (target.id !== 'relay-undici') entry.parseRatios.push(result.rps / parseRps[index]);
          measured.push(Math.round(result.rps));
        }
        line.push(`${target.id} ${measured.join('/')}`);
      }
      log(`  round ${roundIndex} ${format.padEnd(6)} req/s: ${line.join(' · ')}`);
    }
  }
  for (const target of targets) for (const server of target.processes) await server.stop();
  await upstream.stop();
  return EMBEDDING_FORMATS.flatMap((format) =>
    targets.map((target) => {
      const entry = samples.get(`${target.id}/${format}`);
      return {
        id: target.id,
        label: target.label,
        format,
        rps: round(median(entry.rps), 0),
        p50Ms: round(median(entry.p50), 2),
        xFloor: entry.ratios.length ? round(median(entry.ratios), 3) : 1,
        xParse: entry.parseRatios.length ? round(median(entry.parseRatios), 3) : undefined,
      };
    }),
  );
}

/** The step's table for the report. */
export function renderEmbeddings(rows) {
  return [
    `#### Embeddings (POST /v1/embeddings, a batch of ${EMBEDDINGS_BATCH}, 256-dimension vectors)`,
    '',
    '| Target | encoding_format | req/s | p50 ms | × floor (copies bytes) | × parsing relay |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.format} | ${row.rps} | ${row.p50Ms} | ${row.xFloor.toFixed(3)} | ${row.xParse === undefined ? '—' : row.xParse.toFixed(3)} |`,
    ),
  ];
}
