/** Test helper: a real redis-server on a free loopback port (no persistence), started by a test file and stopped after it. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running redis-server. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL) and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>;
}

/** Throws a clear error when redis-server is missing: the Redis tests must fail, never skip. */
export function requireRedisServer(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'redis-server is not installed, and the Redis store tests need a real one. Install it (Debian/Ubuntu: ' +
        'apt-get install -y redis-server; macOS: brew install redis) and run the tests again. CI installs it in .ci/run.',
    );
  }
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
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
      return { port, url: `redis://127.0.0.1:${port}`, process: child, stop };
    }
    await sleep(25);
  }
  child.kill('SIGKILL');
  return `redis-server did not answer PING on port ${port} within 10 s: ${output.slice(-500)}`;
}

/** Starts redis-server on a free loopback port and waits until it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  requireRedisServer();
  let failure = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await startOn(await freePort());
    if (typeof started !== 'string') return started;
    failure = started;
  }
  throw new Error(failure);
}
