/**
 * Gateway processes for the multi-instance tests: a script of `__tests__/helpers/` (one that serves the built package
 * through serve-instance.cjs) started with its environment, waited on until it prints where it serves, and stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(__dirname, '..', '..');

/** A gateway process and where it serves. */
export interface GatewayProcess {
  url: string;
  process: ChildProcess;
}

/** Resolves once `child` has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `script` (a file in this folder) with `env` over this process's, and waits until it serves (15 s at most). */
export async function startGatewayProcess(script: string, env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [join(__dirname, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start within 15 s: ${stderr}`)), 15_000);
    createInterface({ input: child.stdout! }).once('line', (first) => {
      clearTimeout(timer);
      resolve(first);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited (${code}) before serving: ${stderr}`));
    });
  });
  const { port } = JSON.parse(line) as { port: number };
  return { url: `http://127.0.0.1:${port}`, process: child };
}

/** Stops a gateway process: SIGTERM, then SIGKILL after 3 s. */
export async function stopGatewayProcess(instance: GatewayProcess): Promise<void> {
  if (instance.process.exitCode !== null || instance.process.signalCode !== null) return;
  instance.process.kill('SIGTERM');
  const killed = setTimeout(() => instance.process.kill('SIGKILL'), 3000);
  await exited(instance.process);
  clearTimeout(killed);
}
