// Which Chromium to drive and how to start it, for everything here that opens the dashboard in a browser: the browser
// test suites (__tests__/helpers/browser-availability.cjs), the bench's dashboard step and scripts/dashboard-screenshot.mjs.
// Plain CommonJS, so that jest.config.js can load it too.
'use strict';
const { existsSync } = require('node:fs');

/** The places a Chromium is looked for after CHROMIUM_PATH: Debian's package, then Ubuntu's name for it. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium to drive (through playwright-core): CHROMIUM_PATH if it exists, else Debian's; undefined when none. */
function chromiumPath(env = process.env) {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * The flags it is launched with: headless, no sandbox (CI containers run as root), and nothing fetched in the
 * background (on a machine without internet those connections are refused, many at a time).
 */
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

module.exports = { CHROMIUM_ARGS, chromiumPath };
