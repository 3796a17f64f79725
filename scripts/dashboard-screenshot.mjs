#!/usr/bin/env node
// Takes docs/dashboard.png, the README's picture of the dashboard: starts the example server (the built package:
// run `npm run build` first) with ADMIN_KEY, four keys, an OpenAI upstream that is down and a model `pool` over two
// accounts (one a small mock here, one down: it cools down), sends a minute and a half of mixed calls (answered,
// streamed, refused 401 / 403 / 429, failed upstream), then opens /admin/ in headless Chromium (playwright-core;
// CHROMIUM_PATH or /usr/bin/chromium) and screenshots the page (squeezed with pngquant when it is installed).
//   node scripts/dashboard-screenshot.mjs [out.png] [seconds of traffic, default 90]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import chromiumLaunch from './chromium.cjs';

const { CHROMIUM_ARGS, chromiumPath } = chromiumLaunch;

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'dashboard.png'));
const seconds = Number(process.argv[3] ?? 90);
const ADMIN_KEY = 'screenshot-admin-key-0001';
const KEYS = ['team-a-key-0000000001', 'team-b-key-0000000002', 'team-c-key-0000000003', 'team-d-key-0000000004'];

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An OpenAI-compatible account that answers every chat call (whole or streamed) after a short think. */
function startMockAccount() {
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      const { stream } = JSON.parse(body || '{}');
      const text = 'The pool answered.';
      const usage = {
        prompt_tokens: 40 + Math.floor(Math.random() * 400),
        completion_tokens: 20 + Math.floor(Math.random() * 200),
      };
      await sleep(40 + Math.random() * 160);
      const base = { id: 'chatcmpl-mock', created: 1, model: 'pooled' };
      if (!stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (choices, extra = {}) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
      response.write(chunk([{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }]));
      await sleep(60);
      response.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
      response.end(`${chunk([], { usage })}data: [DONE]\n\n`);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const port = await freePort();
const deadPort = await freePort();
const account = await startMockAccount();
const dir = mkdtempSync(path.join(tmpdir(), 'rosetta-screenshot-'));
writeFileSync(
  path.join(dir, 'upstreams.json'),
  JSON.stringify([
    {
      name: 'acct-a',
      protocol: 'openai',
      baseUrl: `http://127.0.0.1:${account.address().port}/v1`,
      key: 'env:ACCOUNT_KEY',
    },
    { name: 'acct-b', protocol: 'openai', baseUrl: `http://127.0.0.1:${deadPort}/v1`, key: 'env:ACCOUNT_KEY' },
  ]),
);
writeFileSync(
  path.join(dir, 'models.json'),
  JSON.stringify([
    { id: 'rosetta-echo', provider: 'local' },
    { id: 'gpt-4o-mini', provider: 'openai' },
    {
      id: 'pool',
      upstreamModel: 'pooled',
      deployments: [
        { provider: 'acct-a', name: 'pool-a' },
        { provider: 'acct-b', name: 'pool-b' },
      ],
    },
  ]),
);
const child = spawn(process.execPath, [path.join(root, 'examples/server/index.mjs')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    ADMIN_KEY,
    // key1 and key2 well funded, key3 with a 10-request-per-minute limit, key4 with nothing to spend.
    GATEWAY_KEYS: `${KEYS[0]}:5000000,${KEYS[1]}:5000000,${KEYS[2]}:5000000;rpm=10,${KEYS[3]}:0`,
    OPENAI_API_KEY: 'sk-screenshot-upstream-key',
    ROSETTA_OPENAI_BASE_URL: `http://127.0.0.1:${deadPort}/v1`,
    LOCAL_TOKEN_DELAY_MS: '8',
    UPSTREAMS_FILE: path.join(dir, 'upstreams.json'),
    MODELS_FILE: path.join(dir, 'models.json'),
    ACCOUNT_KEY: 'sk-screenshot-account-key',
  },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const base = `http://127.0.0.1:${port}`;
for (let wait = 0; ; wait++) {
  if (
    await fetch(base).then(
      (response) => response.ok,
      () => false,
    )
  )
    break;
  if (wait > 100) throw new Error('the example server did not start');
  await sleep(100);
}

const prompts = ['Summarise the release notes', 'Write a haiku about queues', 'Explain token buckets', 'Hello'];
async function call(index) {
  const key =
    index % 17 === 0 ? 'sk-not-a-key-000000000' : KEYS[index % 11 === 0 ? 3 : index % 5 === 0 ? 2 : index % 3];
  const model = index % 13 === 0 ? 'gpt-4o-mini' : index % 3 === 0 ? 'pool' : 'rosetta-echo';
  const content = `${prompts[index % prompts.length]} ${'please '.repeat(index % 9)}`;
  const stream = index % 2 === 0;
  if (index % 7 === 3) {
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 200, stream, messages: [{ role: 'user', content }] }),
    });
    await response.text();
    return;
  }
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content }] }),
  });
  await response.text();
}

const until = Date.now() + seconds * 1000;
let index = 0;
while (Date.now() < until) {
  // A rate that rises and falls, so the charts have a shape.
  const phase = (until - Date.now()) / (seconds * 1000);
  const burst = 1 + Math.round(3 * Math.abs(Math.sin(phase * Math.PI * 2)));
  await Promise.all(Array.from({ length: burst }, () => call(index++)));
  await sleep(600);
}
console.log(`${index} calls sent`);

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: CHROMIUM_ARGS,
});
try {
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    extraHTTPHeaders: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  const page = await context.newPage();
  await page.goto(`${base}/admin/`);
  await page.waitForSelector('body[data-loaded]');
  await page.selectOption('#window', '15m');
  await page.waitForFunction(() => document.body.dataset.loaded === '2');
  // The page down to the first dozen of the latest calls.
  const height = await page.evaluate(
    () => document.querySelector('#calls tbody tr:nth-child(12)').getBoundingClientRect().bottom + 16,
  );
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1360, height: Math.ceil(height) } });
  // A palette PNG is a third of the size and looks the same: with pngquant on the PATH, the file is squeezed.
  const squeezed = spawnSync('pngquant', ['--quality=70-90', '--speed', '1', '--force', '--output', out, '--', out]);
  console.log(`wrote ${out}${squeezed.status === 0 ? ' (pngquant)' : ''}`);
} finally {
  await browser.close();
  child.kill('SIGTERM');
  account.close();
  rmSync(dir, { recursive: true, force: true });
}
