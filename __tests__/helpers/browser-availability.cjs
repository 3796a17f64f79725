// Which headless browser the browser test suites can use: Debian's chromium (or CHROMIUM_PATH), or none.
// Plain CommonJS, so that jest.config.js (which leaves the suites out when there is none) can load it.
'use strict';
const { CHROMIUM_ARGS, chromiumPath } = require('../../scripts/chromium.cjs');

/**
 * Where the browser suites live, relative to __tests__/: every test file in this folder needs a browser and nothing
 * else does, so a new browser suite is left out without one by where it is, never by a list.
 */
const BROWSER_TEST_DIR = 'browser/';

const HOW_TO_RUN =
  'install Chromium (Debian/Ubuntu: apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH';

/** The one line jest prints (on stderr) when the browser suites do not run. */
const SKIPPED_LINE = `Browser tests did not run (every suite in __tests__/${BROWSER_TEST_DIR}): no Chromium found; to run them, ${HOW_TO_RUN}.`;

/** The message jest fails with when REQUIRE_BROWSER=1 and there is no browser. */
const REQUIRED_MESSAGE = `REQUIRE_BROWSER=1 but no Chromium is available for the browser tests: ${HOW_TO_RUN}.`;

module.exports = { BROWSER_TEST_DIR, CHROMIUM_ARGS, chromiumPath, SKIPPED_LINE, REQUIRED_MESSAGE };
