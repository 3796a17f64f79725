/**
 * Test helper: the Redis a Redis test file runs on. With redis-server on the PATH, a real one on a
 * free loopback port (no persistence), started by the test file and stopped after it; otherwise the
 * Redis named by REDIS_URL (jest.config.js leaves the Redis suites out when there is neither).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisServerOnPath } from './redis-availability.cjs';

/** A Redis for a test file. */
export interface RedisServer {
  host: string;
  port: number;
  /** `redis://127.0.0.1:<port>`, or REDIS_URL */
  url: string;
  /** Connection options for createRedisClient (host, port and any credentials or db from the URL). */
  options: { host: string; port: number; username?: string; password?: string; db?: number };
  /** The redis-server this helper started; undefined for REDIS_URL, which the tests may not stop. */
  process?: ChildProcess;
  /**
   * Stops a server this helper started (SIGTERM, then SIGKILL) and waits for it to exit; nothing for REDIS_URL. Safe to
   * call twice.
   */
  stop(): Promise<void>;
}

/** Whether the tests start their own redis-server (and so may stop it): `it` then, `it.skip` on a REDIS_URL. */
export const itStopsRedis: jest.It = redisServerOnPath() ? it : it.skip;

/**
 * A prefix unique to this test process, for every Redis key a test writes: on a shared REDIS_URL,
 * runs must not see each other's keys or a previous run's.
 */
export const RUN_PREFIX = `t${process.pid.toString(36)}${Date.now().toString(36)}:`;

function fromUrl(url: string): RedisServer {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined;
  const options = {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db !== undefined ? { db } : {}),
  };
  return { host: options.host, port: options.port, url, options, stop: async () => undefined };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something on the port answers PING with +PONG. */
export function ping(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      if (answer.includes('\r\n')) finish(answer.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startOn(port: number): Promise<RedisServer | string> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return `redis-server exited (${child.exitCode}): ${output.slice(-500)}`;
    if (await ping(port)) {
      const stop = async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited(child);
        clearTimeout(killed);
      };
      return { ...fromUrl(`redis://127.0.0.1:${port}`), process: child, stop };
    }
    await sleep(25);
  }
  child.kill('SIGKILL');
  return `redis-server did not answer PING on port ${port} within 10 s: ${output.slice(-500)}`;
}

/** The Redis for a test file: its own redis-server when one is on the PATH, else REDIS_URL. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerOnPath() && process.env.REDIS_URL) return fromUrl(process.env.REDIS_URL);
  return startOwnRedisServer();
}

/** Starts redis-server on a free loopback port and waits until it answers PING (for the tests that stop it). */
export async function startOwnRedisServer(): Promise<RedisServer> {
  if (!redisServerOnPath())
    throw new Error(
      'redis-server is not on the PATH (install it: apt-get install -y redis-server, brew install redis).',
    );
  let failure = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await startOn(await freePort());
    if (typeof started !== 'string') return started;
    failure = started;
  }
  throw new Error(failure);
}
