/**
 * A machine without Redis passes the test run with one line saying the Redis suites did not run; REQUIRE_REDIS=1 (CI)
 * makes that a failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_MESSAGE, SKIPPED_LINE } from '../../helpers/redis-availability.cjs';

const root = join(__dirname, '..', '..', '..');

/** Runs jest on `files` with a PATH that holds node and nothing else (so no redis-server), and no REDIS_URL. */
function jestWithoutRedis(files: string[], env: Record<string, string> = {}) {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const bin = mkdtempSync(join(root, '.tmp', 'node-only-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  const { REDIS_URL: _url, REQUIRE_REDIS: _required, ...inherited } = process.env;
  try {
    const result = spawnSync(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), '--ci', ...files], {
      cwd: root,
      env: { ...inherited, PATH: bin, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

const files = [
  '__tests__/stores/redis/redis-store.test.ts',
  '__tests__/stores/redis/redis-multi-instance.test.ts',
  '__tests__/gateway/mounting.test.ts',
];

describe('the Redis suites without a Redis', () => {
  it('are left out with one line saying how to run them, and the run passes', () => {
    const { status, output } = jestWithoutRedis(files);
    expect(output.split(SKIPPED_LINE).length - 1).toBe(1);
    expect(output).toContain('REDIS_URL');
    expect(output).toMatch(/Test Suites: 1 passed, 1 total/);
    expect(status).toBe(0);
  }, 120_000);

  it('fail the run when REQUIRE_REDIS=1', () => {
    const { status, output } = jestWithoutRedis(files, { REQUIRE_REDIS: '1' });
    expect(output).toContain(REQUIRED_MESSAGE);
    expect(output).not.toMatch(/Test Suites: .*passed/);
    expect(status).not.toBe(0);
  }, 120_000);
});
