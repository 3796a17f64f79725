#!/usr/bin/env node
/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top functions by SELF time, self time
 * by package / area, and the gateway's own functions by INCLUSIVE time.
 *
 *   node bench/profile-summary.mjs /tmp/rosetta-bench-profile/gateway-nonstream.cpuprofile [--top 25] [--json]
 *   node bench/profile-summary.mjs /tmp/rosetta-bench-profile   # the newest .cpuprofile in the folder
 *
 * When `<file>.window.json` exists (bench/run.mjs writes it), only the samples of the measured round
 * are counted; `--all` counts the whole profile, start-up and warm-up included.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function shortUrl(url) {
  if (!url) return '';
  const text = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = text.lastIndexOf('/node_modules/');
  if (modules !== -1) return text.slice(modules + '/node_modules/'.length);
  const dist = text.indexOf('/dist/');
  if (dist !== -1) return text.slice(dist + 1);
  const bench = text.indexOf('/bench/');
  if (bench !== -1) return text.slice(bench + 1);
  return text;
}

/** The area a frame belongs to: a package, a part of Node, the gateway's own code, V8. */
function categoryOf(frame) {
  const name = frame.functionName;
  if (SPECIAL.has(name)) return name;
  const url = frame.url ?? '';
  if (!url) return '(V8 builtins / native)';
  if (url.startsWith('node:')) {
    const rest = url.slice('node:'.length).replace(/^internal\//, '');
    return `node:${rest.split('/')[0]}`;
  }
  const text = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = text.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const parts = text.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (text.includes('/dist/')) return 'rosetta-gateway (dist)';
  if (text.includes('/bench/')) return 'bench harness';
  return text;
}

function frameKey(frame) {
  const name = frame.functionName || '(anonymous)';
  if (SPECIAL.has(name)) return name;
  const where = shortUrl(frame.url);
  return where ? `${name} ${where}:${frame.lineNumber + 1}` : name;
}

/**
 * @param {object} profile a parsed .cpuprofile
 * @param {{ top?: number, fromMicros?: number, toMicros?: number }} options a window (the profile's own
 *   monotonic clock, as `process.hrtime.bigint() / 1000n` in the profiled process) keeps only the
 *   samples taken inside it, e.g. the measured round without start-up and warm-up.
 */
export function summariseProfile(profile, { top = 20, fromMicros = -Infinity, toMicros = Infinity } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Sample i lasts until sample i+1 (DevTools' convention); the last one gets the mean interval.
  const deltas = profile.timeDeltas;
  const totalMicros = deltas.reduce((sum, value) => sum + value, 0);
  const meanDelta = deltas.length ? totalMicros / deltas.length : 0;
  const self = new Map();
  const inclusive = new Map();
  const categories = new Map();
  const frames = new Map();
  let idle = 0;
  let total = 0;
  let kept = 0;
  let timestamp = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    timestamp += deltas[index] ?? 0;
    const duration = index + 1 < deltas.length ? deltas[index + 1] : meanDelta;
    const node = byId.get(profile.samples[index]);
    if (!node || timestamp < fromMicros || timestamp > toMicros) continue;
    kept++;
    total += duration;
    const key = frameKey(node.callFrame);
    frames.set(key, node.callFrame);
    self.set(key, (self.get(key) ?? 0) + duration);
    const category = categoryOf(node.callFrame);
    categories.set(category, (categories.get(category) ?? 0) + duration);
    if (node.callFrame.functionName === '(idle)') {
      idle += duration;
      continue;
    }
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id).callFrame;
      const frameName = frameKey(frame);
      if (seen.has(frameName)) continue;
      seen.add(frameName);
      frames.set(frameName, frame);
      inclusive.set(frameName, (inclusive.get(frameName) ?? 0) + duration);
    }
  }
  const busy = total - idle;
  const ms = (micros) => Math.round(micros / 10) / 100;
  const share = (micros) => (busy > 0 ? Math.round((micros / busy) * 1000) / 10 : 0);
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);

  return {
    totalMs: ms(total),
    idleMs: ms(idle),
    busyMs: ms(busy),
    samples: kept,
    window: Number.isFinite(fromMicros) || Number.isFinite(toMicros) ? { fromMicros, toMicros } : undefined,
    topSelf: sorted(self)
      .filter(([key]) => key !== '(idle)')
      .slice(0, top)
      .map(([fn, micros]) => ({
        fn,
        category: categoryOf(frames.get(fn)),
        selfMs: ms(micros),
        pctOfBusy: share(micros),
      })),
    byCategory: sorted(categories)
      .filter(([key]) => key !== '(idle)')
      .map(([category, micros]) => ({ category, selfMs: ms(micros), pctOfBusy: share(micros) })),
    gatewayInclusive: sorted(inclusive)
      .filter(([key]) => categoryOf(frames.get(key)) === 'rosetta-gateway (dist)')
      .slice(0, top)
      .map(([fn, micros]) => ({ fn, totalMs: ms(micros), pctOfBusy: share(micros) })),
  };
}

/** Markdown for a summary. */
export function formatSummary(summary, title = 'CPU profile') {
  const lines = [];
  lines.push(`### ${title}`, '');
  const window = summary.window ? ' inside the measured window (start-up and warm-up excluded)' : '';
  lines.push(
    `${summary.samples} samples${window}, ${summary.totalMs} ms, ${summary.busyMs} ms busy (not idle); shares below are of busy time.`,
    '',
  );
  lines.push(
    'Top functions by self time:',
    '',
    '| # | function | area | self ms | % of busy |',
    '|---:|---|---|---:|---:|',
  );
  for (const [index, entry] of summary.topSelf.entries())
    lines.push(`| ${index + 1} | \`${entry.fn}\` | ${entry.category} | ${entry.selfMs} | ${entry.pctOfBusy}% |`);
  lines.push('', 'Self time by area:', '', '| area | self ms | % of busy |', '|---|---:|---:|');
  for (const entry of summary.byCategory.slice(0, 15))
    lines.push(`| ${entry.category} | ${entry.selfMs} | ${entry.pctOfBusy}% |`);
  lines.push(
    '',
    "The gateway's own functions by inclusive time (self + callees):",
    '',
    '| function | total ms | % of busy |',
    '|---|---:|---:|',
  );
  for (const entry of summary.gatewayInclusive)
    lines.push(`| \`${entry.fn}\` | ${entry.totalMs} | ${entry.pctOfBusy}% |`);
  return lines.join('\n');
}

function newestProfile(folder) {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(folder, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${folder}`);
  return files[0];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const target = args.find((arg) => !arg.startsWith('--'));
  if (!target) {
    console.error('usage: node bench/profile-summary.mjs <file.cpuprofile | folder> [--top N] [--json] [--all]');
    process.exit(2);
  }
  const topIndex = args.indexOf('--top');
  const top = topIndex === -1 ? 20 : Number(args[topIndex + 1]);
  const file = statSync(target).isDirectory() ? newestProfile(target) : target;
  // bench/run.mjs writes the measured round's window next to the profile.
  let window = {};
  try {
    window = JSON.parse(readFileSync(`${file}.window.json`, 'utf8'));
  } catch {
    // no window: the whole profile
  }
  const all = args.includes('--all');
  const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { top, ...(all ? {} : window) });
  if (args.includes('--json')) console.log(JSON.stringify(summary, null, 2));
  else console.log(formatSummary(summary, path.basename(file)));
}
