// Which Redis the Redis test suites can use: a redis-server binary on the PATH, a REDIS_URL, or none.
// Plain CommonJS, so that jest.config.js (which leaves the suites out when there is none) can load it.
'use strict';
const { spawnSync } = require('node:child_process');

/**
 * Where the Redis suites live, relative to __tests__/: every test file in this folder needs a Redis and
 * nothing else does, so a new Redis suite is left out without Redis by where it is, never by a list.
 */
const REDIS_TEST_DIR = 'stores/redis/';

/** Whether `redis-server --version` runs from the PATH. */
function redisServerOnPath() {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return !probe.error && probe.status === 0;
}

/** 'server' (the suites start their own redis-server), 'url' (they use REDIS_URL), or undefined (no Redis). */
function redisForTests(env = process.env) {
  if (redisServerOnPath()) return 'server';
  if (env.REDIS_URL) return 'url';
  return undefined;
}

const HOW_TO_RUN =
  'install redis-server (Debian/Ubuntu: apt-get install -y redis-server; macOS: brew install redis) or set REDIS_URL=redis://host:port';

/** The one line jest prints when the Redis suites do not run. */
const SKIPPED_LINE = `Redis tests did not run (every suite in __tests__/${REDIS_TEST_DIR}): no redis-server on the PATH and no REDIS_URL; to run them, ${HOW_TO_RUN}.`;

/** The message jest fails with when REQUIRE_REDIS=1 and there is no Redis. */
const REQUIRED_MESSAGE = `REQUIRE_REDIS=1 but no Redis is available for the Redis tests: ${HOW_TO_RUN}.`;

module.exports = { REDIS_TEST_DIR, redisServerOnPath, redisForTests, SKIPPED_LINE, REQUIRED_MESSAGE };
