// Which headless browser the browser test suites can use: Debian's chromium (or CHROMIUM_PATH), or none.
// Plain CommonJS, so that jest.config.js (which leaves the suites out when there is none) can load it.
'use strict';
const { existsSync } = require('node:fs');

/**
 * Where the browser suites live, relative to __tests__/: every test file in this folder needs a browser and nothing
 * else does, so a new browser suite is left out without one by where it is, never by a list.
 */
const BROWSER_TEST_DIR = 'browser/';

/** The places a Chromium is looked for, CHROMIUM_PATH first. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium the suites drive (through playwright-core), or undefined when there is none. */
function chromiumPath(env = process.env) {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/** The flags the suites launch it with: headless, no sandbox (CI containers run as root), nothing fetched. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const HOW_TO_RUN =
  'install Chromium (Debian/Ubuntu: apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH';

/** The one line jest prints (on stderr) when the browser suites do not run. */
const SKIPPED_LINE = `Browser tests did not run (every suite in __tests__/${BROWSER_TEST_DIR}): no Chromium found; to run them, ${HOW_TO_RUN}.`;

/** The message jest fails with when REQUIRE_BROWSER=1 and there is no browser. */
const REQUIRED_MESSAGE = `REQUIRE_BROWSER=1 but no Chromium is available for the browser tests: ${HOW_TO_RUN}.`;

module.exports = { BROWSER_TEST_DIR, CHROMIUM_ARGS, chromiumPath, SKIPPED_LINE, REQUIRED_MESSAGE };
