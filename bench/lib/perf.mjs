/**
 * CPU cycles and instructions of a process, counted by Linux `perf stat` while a round runs. Unlike
 * requests per second, a count per request barely moves with what else the machine is doing, so
 * it tells a real change from drift between runs. Optional: without `perf` (or where the machine
 * does not expose counters) nothing is counted and the tables leave the columns empty.
 */
import { spawn, spawnSync } from 'node:child_process';

const EVENTS = ['cycles:u', 'cycles:k', 'instructions:u'];

/** Whether `perf stat` can count cycles here. */
export function perfAvailable() {
  const probe = spawnSync('perf', ['stat', '-x,', '-e', EVENTS.join(','), 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return false;
  const counts = parse(probe.stderr);
  return Number.isFinite(counts['cycles:u']) && Number.isFinite(counts['instructions:u']);
}

function parse(text) {
  const counts = {};
  for (const line of text.trim().split('\n')) {
    const fields = line.split(',');
    if (fields.length > 2 && EVENTS.includes(fields[2])) counts[fields[2]] = Number(fields[0]);
  }
  return counts;
}

/**
 * Starts counting for `pid`; `stop()` resolves to `{ cycles, instructions }` (user + kernel cycles, user instructions),
 * or undefined.
 */
export async function countCpu(pid) {
  const child = spawn('perf', ['stat', '-x,', '-e', EVENTS.join(','), '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  // perf attaches asynchronously; give it a moment so the round's first requests are counted.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return {
    async stop() {
      child.kill('SIGINT');
      await exited;
      const counts = parse(stderr);
      if (!Number.isFinite(counts['cycles:u'])) return undefined;
      return { cycles: counts['cycles:u'] + (counts['cycles:k'] || 0), instructions: counts['instructions:u'] };
    },
  };
}
