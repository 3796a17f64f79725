/**
 * The bench's held-stream step: what one held stream keeps alive in the gateway, measured by
 * bench/servers/held-streams.cjs in a child process with --expose-gc (live heap after full
 * collections), and the figures set against their targets (reported, never asserted).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round } from './stats.mjs';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'servers', 'held-streams.cjs');

/** The `--only` id of this step. */
export const HELD_STREAM_STEP = 'held-stream';

/** The two probes: a large prompt per stream, then many streams with text deltas. */
const PROMPT = { streams: 16, promptKb: 200 };
const DELTAS = { streams: 200, promptKb: 1, deltas: 200 };

/**
 * Targets of the step. Heap per held stream over its prompt size: the decoded request lives until
 * the stream ends (a provider may count it), plus the client's, gateway's and upstream's
 * per-connection state; below 0.9 the probe missed the prompt itself, above 1.7 a copy of the
 * upstream body is being kept (it was 2.3 when the JSON string sent upstream was). Memory outside
 * the heap per stream over its prompt size: undici kept the Buffer of the body it sent until the
 * response ended (1.0). Bytes of live heap per streamed text delta of 12 characters: the gateway's
 * meter keeps the text once, joined every 16 deltas; 55 when the text was kept twice; below 2 the
 * probe did not see the text.
 */
export const HELD_STREAM_TARGETS = {
  heapPerPrompt: { min: 0.9, max: 1.7 },
  externalPerPrompt: { max: 0.25 },
  bytesPerDelta: { min: 2, max: 35 },
};

/** Runs the probe once; `{ error }` when it failed. */
function probe({ streams, promptKb, deltas }, { pin, core }) {
  const nodeArgs = ['--expose-gc', script, String(streams), String(promptKb), ...(deltas ? [String(deltas)] : [])];
  const [command, args] = pin
    ? ['taskset', ['-c', String(core), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const env = { ...process.env };
  delete env.DEBUG;
  const result = spawnSync(command, args, { encoding: 'utf8', env, timeout: 120_000 });
  if (result.status !== 0)
    return {
      error: `exit ${result.status ?? result.signal}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`,
    };
  try {
    const output = JSON.parse(result.stdout);
    if (output.open !== streams) return { error: `only ${output.open} of ${streams} streams were held open` };
    return output;
  } catch {
    return { error: `unreadable output: ${result.stdout.slice(0, 200)}` };
  }
}

/**
 * Runs both probes `rounds` times, alternating, and reports the medians.
 * @param {{ rounds: number, pin: boolean, core: number, log: Function, fail: Function }} options
 */
export function runHeldStream({ rounds, pin, core, log, fail }) {
  const promptBytes = PROMPT.promptKb * 1024;
  log(
    `\nheld-stream: ${rounds} round(s) of two probes in a fresh process each (node --expose-gc${pin ? `, core ${core}` : ''}): ${PROMPT.streams} streams with a ${PROMPT.promptKb} KB prompt; ${DELTAS.streams} streams with ${DELTAS.deltas} text deltas each`,
  );
  const samples = [];
  for (let index = 0; index < rounds; index++) {
    const prompt = probe(PROMPT, { pin, core });
    const deltas = probe(DELTAS, { pin, core });
    if (prompt.error) fail(`held-stream prompt probe: ${prompt.error}`);
    if (deltas.error) fail(`held-stream delta probe: ${deltas.error}`);
    const sample = {
      heapPerPrompt: prompt.error ? NaN : prompt.perStream.heap / promptBytes,
      externalPerPrompt: prompt.error ? NaN : prompt.perStream.external / promptBytes,
      bytesPerDelta: deltas.error ? NaN : deltas.perDelta,
    };
    samples.push(sample);
    log(
      `  round ${index + 1}: heap ${round(sample.heapPerPrompt, 3)} × prompt, external ${round(sample.externalPerPrompt, 3)} × prompt per held stream; ${round(sample.bytesPerDelta, 1)} bytes per delta`,
    );
  }
  const of = (field) => median(samples.map((sample) => sample[field]));
  return {
    rounds,
    prompt: { ...PROMPT, promptBytes },
    deltas: DELTAS,
    heapPerPrompt: of('heapPerPrompt'),
    externalPerPrompt: of('externalPerPrompt'),
    bytesPerDelta: of('bytesPerDelta'),
    samples,
  };
}

/** A PASS / FAIL verdict line per figure, in the shape of the bench's other targets. */
export function heldStreamVerdicts(result) {
  const wanted = ({ min, max }, unit) => (min === undefined ? `≤ ${max}${unit}` : `${min}–${max}${unit}`);
  const verdict = (name, field, digits, unit) => {
    const value = result[field];
    const { min = -Infinity, max } = HELD_STREAM_TARGETS[field];
    const pass = Number.isFinite(value) && value >= min && value <= max;
    const line = `${pass ? 'PASS' : 'FAIL'}  ${name}: ${round(value, digits)}${unit} (target ${wanted(HELD_STREAM_TARGETS[field], unit)})`;
    return { name, value, limit: HELD_STREAM_TARGETS[field], pass, line };
  };
  return [
    verdict(`held stream, live heap / its prompt (${result.prompt.promptKb} KB)`, 'heapPerPrompt', 3, ' ×'),
    verdict(
      `held stream, memory outside the heap / its prompt (${result.prompt.promptKb} KB)`,
      'externalPerPrompt',
      3,
      ' ×',
    ),
    verdict('held stream, live heap per text delta of 12 characters', 'bytesPerDelta', 1, ' bytes'),
  ];
}

/** The step's markdown block. */
export function renderHeldStream(result) {
  const figures = (field, digits) => result.samples.map((sample) => round(sample[field], digits)).join(' / ');
  return [
    `#### Held streams: what one keeps alive (median of ${result.rounds} round(s); client, gateway and upstream in one process, live memory after full collections)`,
    '',
    '| figure | median | each round | target |',
    '|---|---:|---:|---:|',
    `| live heap per held stream / its prompt (${result.prompt.streams} streams, ${result.prompt.promptKb} KB prompts) | ${round(result.heapPerPrompt, 3)} | ${figures('heapPerPrompt', 3)} | ${HELD_STREAM_TARGETS.heapPerPrompt.min}–${HELD_STREAM_TARGETS.heapPerPrompt.max} |`,
    `| memory outside the heap per held stream / its prompt | ${round(result.externalPerPrompt, 3)} | ${figures('externalPerPrompt', 3)} | ≤ ${HELD_STREAM_TARGETS.externalPerPrompt.max} |`,
    `| live heap bytes per text delta (${result.deltas.streams} streams × ${result.deltas.deltas} deltas of 12 characters) | ${round(result.bytesPerDelta, 1)} | ${figures('bytesPerDelta', 1)} | ${HELD_STREAM_TARGETS.bytesPerDelta.min}–${HELD_STREAM_TARGETS.bytesPerDelta.max} |`,
  ];
}
