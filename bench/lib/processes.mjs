/**
 * Server child processes: each in its own process, pinned with `taskset -c <core>` when taskset is
 * available, talking to the parent over an IPC channel (ready/port, stats, event-loop monitoring,
 * shutdown). Only processes started here are ever stopped, by their own pid.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';

/** Whether `taskset` (util-linux) is usable here. */
export function tasksetAvailable() {
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
  return probe.status === 0;
}

/** Pins this process and all its threads (-a) to one core. */
export function pinSelf(core) {
  const result = spawnSync('taskset', ['-a', '-cp', String(core), String(process.pid)], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`taskset could not pin the load generator to core ${core}: ${result.stderr}`);
}

const children = new Set();

/** Kills every child this module started (by pid), e.g. on an abort. */
export function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * Starts a server script and waits for its port.
 * @returns {Promise<{ name: string, port: number, url: string, pid: number, core: number|null, ask: Function, stats:
 * Function, stop: Function, exited: Promise<number|null> }>}
 */
export async function startServer({ name, script, core, pin, env = {}, nodeArgs = [], timeoutMs = 30_000 }) {
  const childEnv = { ...process.env, ...env, BENCH_NAME: name };
  delete childEnv.DEBUG; // the gateway must run with its debug logging off
  const args = [...nodeArgs, script];
  const [command, commandArgs] =
    pin && core !== null && core !== undefined
      ? ['taskset', ['-c', String(core), process.execPath, ...args]]
      : [process.execPath, args];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: childEnv });
  children.add(child);
  const exited = once(child, 'exit').then(([code]) => {
    children.delete(child);
    return code;
  });

  const pending = new Map();
  let nextId = 1;
  child.on('message', (message) => {
    if (message && message.id !== undefined && pending.has(message.id)) {
      const { resolve, timer } = pending.get(message.id);
      clearTimeout(timer);
      pending.delete(message.id);
      resolve(message);
    }
  });
  child.on('exit', (code, signal) => {
    for (const { reject, timer } of pending.values()) {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) while the bench was waiting for it`));
    }
    pending.clear();
  });

  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', function onReady(message) {
      if (message?.type === 'ready') {
        clearTimeout(timer);
        child.off('message', onReady);
        resolve(message);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready`));
    });
  });

  /** Sends a message and waits for the answer with the same id. */
  const ask = (type, extra = {}, waitMs = 10_000) =>
    new Promise((resolve, reject) => {
      if (!child.connected) {
        reject(new Error(`${name} is not running`));
        return;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name} did not answer '${type}' within ${waitMs} ms`));
      }, waitMs);
      pending.set(id, { resolve, reject, timer });
      child.send({ ...extra, id, type });
    });

  return {
    name,
    port: ready.port,
    url: `http://127.0.0.1:${ready.port}`,
    pid: child.pid,
    core: pin ? core : null,
    ask,
    stats: async () => (await ask('stats')).stats,
    exited,
    /** Asks the child to exit normally (so a --cpu-prof profile is written); kills it if it does not. */
    async stop(waitMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'shutdown' });
      const timer = setTimeout(() => child.kill('SIGKILL'), waitMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
