/**
 * A machine without Redis passes the test run with one line saying the Redis suites did not run; REQUIRE_REDIS=1 (CI)
 * makes that a failure. A Redis suite is known by where it lives (REDIS_TEST_DIR), so a new one cannot be forgotten:
 * these tests run jest over every suite in that folder without a Redis, and fail if a suite that needs Redis lives
 * anywhere else.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REDIS_TEST_DIR, REQUIRED_MESSAGE, SKIPPED_LINE } from '../helpers/redis-availability.cjs';

const root = join(__dirname, '..', '..');
const testsRoot = join(root, '__tests__');

/** Runs jest with `args` on a PATH that holds node and nothing else (so no redis-server), and no REDIS_URL. */
function jestWithoutRedis(args: string[], env: Record<string, string> = {}) {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const bin = mkdtempSync(join(root, '.tmp', 'node-only-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  const { REDIS_URL: _url, REQUIRE_REDIS: _required, ...inherited } = process.env;
  try {
    const result = spawnSync(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), '--ci', ...args], {
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

/** Every test file under __tests__/, relative to it with forward slashes. */
function testFiles(dir = testsRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(testsRoot, path).split(sep).join('/')] : [];
  });
}

/** What a test file that needs a Redis imports: the server helper, the client library or the Redis stores. */
const NEEDS_REDIS = /^import [^;]*from '([./]*helpers\/redis-server|ioredis|[./]*lib\/stores\/redis(\/[\w-]+)?)';/m;

const redisSuites = testFiles().filter((file) => file.startsWith(REDIS_TEST_DIR));
const ordinarySuite = '__tests__/gateway/mounting.test.ts';

describe('the Redis suites', () => {
  it('all live in the Redis folder: no suite elsewhere starts or imports a Redis', () => {
    expect(redisSuites.length).toBeGreaterThanOrEqual(6);
    const unrecognised = redisSuites.filter((file) => !NEEDS_REDIS.test(readFileSync(join(testsRoot, file), 'utf8')));
    expect(unrecognised).toEqual([]);
    const elsewhere = testFiles()
      .filter((file) => !file.startsWith(REDIS_TEST_DIR))
      .filter((file) => NEEDS_REDIS.test(readFileSync(join(testsRoot, file), 'utf8')));
    expect(elsewhere).toEqual([]);
  });

  it('are every suite jest leaves out without a Redis, and none it leaves out with one', () => {
    const listed = (env: Record<string, string>) =>
      new Set(
        jestWithoutRedis(['--listTests'], env)
          .output.split('\n')
          .filter((line) => line.endsWith('.test.ts'))
          .map((line) => relative(testsRoot, line.trim()).split(sep).join('/')),
      );
    const without = listed({});
    const withUrl = listed({ REDIS_URL: 'redis://127.0.0.1:1' });
    const all = testFiles();
    expect([...withUrl].sort()).toEqual([...all].sort());
    expect(all.filter((file) => !without.has(file)).sort()).toEqual([...redisSuites].sort());
  }, 120_000);
});

describe('the Redis suites without a Redis', () => {
  it('are left out, every one, with one line saying how to run them, and the run passes', () => {
    const { status, output } = jestWithoutRedis([`__tests__/${REDIS_TEST_DIR}`, ordinarySuite]);
    expect(output.split(SKIPPED_LINE).length - 1).toBe(1);
    expect(output).toContain('REDIS_URL');
    expect(output).toMatch(/Test Suites: 1 passed, 1 total/);
    expect(status).toBe(0);
  }, 120_000);

  it('fail the run when REQUIRE_REDIS=1', () => {
    const { status, output } = jestWithoutRedis([`__tests__/${REDIS_TEST_DIR}`, ordinarySuite], { REQUIRE_REDIS: '1' });
    expect(output).toContain(REQUIRED_MESSAGE);
    expect(output).not.toMatch(/Test Suites: .*passed/);
    expect(status).not.toBe(0);
  }, 120_000);
});
