/** Jest runs the TypeScript sources through ts-jest (TypeScript 5.9; see docs/development.md). */
const { REDIS_TEST_DIR, redisForTests, SKIPPED_LINE, REQUIRED_MESSAGE } = require('./__tests__/helpers/redis-availability.cjs');
const browser = require('./__tests__/helpers/browser-availability.cjs');

// The Redis suites run when a Redis is at hand; otherwise they are left out with one line saying so,
// and REQUIRE_REDIS=1 (CI) makes that a failure (docs/development.md, "Redis").
const redis = redisForTests(process.env);
if (redis === undefined) {
  if (process.env.REQUIRE_REDIS === '1') throw new Error(REQUIRED_MESSAGE);
  console.log(SKIPPED_LINE);
}
// The browser suites likewise: Chromium at hand, or one line on stderr; REQUIRE_BROWSER=1 (CI) makes that a failure.
const chromium = browser.chromiumPath(process.env);
if (chromium === undefined) {
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(browser.REQUIRED_MESSAGE);
  process.stderr.write(`${browser.SKIPPED_LINE}\n`);
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(redis === undefined ? [`/__tests__/${REDIS_TEST_DIR}`] : []),
    ...(chromium === undefined ? [`/__tests__/${browser.BROWSER_TEST_DIR}`] : []),
  ],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  testTimeout: 30000,
};
