/**
 * The dashboard as a person sees it, in a real headless Chromium (playwright-core): after calls of every outcome
 * through a gateway with the dashboard mounted behind an auth middleware, the page counts them, draws its charts, lists
 * them, narrows the list by key, model and outcome, opens a call's whole record, logs no console error and shows no
 * key; and over a log of 100,000 records it loads (its API and the page) well within a loose bound.
 * Left out with one line on stderr when there is no Chromium (jest.config.js; REQUIRE_BROWSER=1 makes that a failure).
 */
import express from 'express';
import { type Browser, chromium, type Page } from 'playwright-core';
import {
  createGateway,
  type Gateway,
  GatewayError,
  LocalProvider,
  MemoryUsageLog,
  type Provider,
  type UsageRecord,
} from '../../lib';
import { createDashboard } from '../../lib/dashboard';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/browser-availability.cjs';
import { type Json, listen, type RunningServer } from '../helpers/app';

const ALICE = 'sk-dashboard-alice-0123456789';
const BOB = 'sk-dashboard-bob-0123456789';
const BROKE = 'sk-dashboard-broke-0123456789';
const LIMITED = 'sk-dashboard-limited-0123456789';
const WRONG = 'sk-dashboard-wrong-0123456789';
const ADMIN = 'admin-secret-for-the-dashboard';
const ALL_KEYS = [ALICE, BOB, BROKE, LIMITED, WRONG, ADMIN];

/** An upstream that always fails (a 502 `upstream` to the caller). */
const down: Provider = {
  specificationVersion: 'v1',
  name: 'down',
  generate() {
    throw new GatewayError('upstream', 'The upstream failed.');
  },
};

let browser: Browser;
let server: RunningServer;
let gateway: Gateway;
const usage = new MemoryUsageLog();
const big = new MemoryUsageLog({ capacity: 100_000 });

beforeAll(async () => {
  gateway = createGateway({
    keys: [
      { key: ALICE, id: 'alice', balance: 1_000_000 },
      { key: BOB, id: 'bob', balance: 1_000_000 },
      { key: BROKE, id: 'broke', balance: 0 },
      { key: LIMITED, id: 'limited', balance: 1_000_000, rateLimits: { requestsPerMinute: 1 } },
    ],
    providers: [new LocalProvider({ tokenDelayMs: 0 }), down],
    models: [
      { id: 'rosetta-echo', provider: 'local' },
      { id: 'flaky', provider: 'down', upstreamModel: 'flaky' },
    ],
    observability: { usageSink: usage },
  });
  fillLog(big, 100_000);
  const requireAdmin: express.RequestHandler = (request, response, next) => {
    if (request.get('authorization') === `Bearer ${ADMIN}`) return next();
    response.status(401).json({ error: 'admin only' });
  };
  const app = express();
  app.use('/admin', createDashboard({ usage, gateway, auth: requireAdmin }));
  app.use('/big', createDashboard({ usage: big, auth: requireAdmin }));
  app.use(gateway);
  server = await listen(app);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await gateway?.close();
});

/** `count` synthetic records spread over the last hour, of 40 keys and 6 models, one in ten failed. */
function fillLog(log: MemoryUsageLog, count: number): void {
  const now = Date.now();
  for (let index = 0; index < count; index++) {
    const ended = now - Math.floor(((count - index) / count) * 3_500_000);
    const model = `model-${index % 6}`;
    const failed = index % 10 === 0;
    log.record({
      requestId: `req_big_${index}`,
      keyId: `key-${index % 40}`,
      protocol: 'openai-chat',
      operation: 'generate',
      stream: index % 2 === 0,
      requestedModel: model,
      model,
      provider: 'local',
      upstreamModel: model,
      attempts: [{ model, provider: 'local', upstreamModel: model }],
      outcome: failed ? 'error' : 'ok',
      status: failed ? 502 : 200,
      ...(failed ? { error: { kind: 'upstream', status: 502, message: 'The upstream failed.' } } : {}),
      usage: { inputTokens: 100 + (index % 50), outputTokens: 20 + (index % 30) },
      usageSource: 'upstream',
      credits: { held: 400, charged: 120 + (index % 80), settlement: 'completed' },
      timings: { received: ended - 200 - (index % 300), firstByte: ended - 150, ended },
    } as UsageRecord);
  }
}

async function chat(key: string, model: string, stream = false): Promise<number> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hello, dashboard' }] }),
  });
  await response.text();
  return response.status;
}

/** A page of a browser context that sends the admin key, gathering the console errors and uncaught errors. */
async function openPage(path: string): Promise<{ page: Page; errors: string[]; bodies: string[] }> {
  const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${ADMIN}` } });
  const page = await context.newPage();
  const errors: string[] = [];
  const bodies: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', async (response) => {
    if (response.url().includes('/api/')) bodies.push(await response.text().catch(() => ''));
  });
  await page.goto(`${server.url}${path}`);
  await page.waitForSelector('body[data-loaded]');
  return { page, errors, bodies };
}

/** Waits (up to 5 s) until `read` answers `expected`, and expects it to. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  let value = await read();
  for (let wait = 0; value !== expected && wait < 100; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  expect(value).toBe(expected);
}

/** The rows of the latest-calls table (none when it says that no call matches). */
const callRows = (page: Page) => page.locator('#calls tbody tr.call');

/** How many pixels of a chart's canvas are close to `rgb` (the colour a series is drawn in). */
function pixelsOf(page: Page, chart: string, rgb: [number, number, number]): Promise<number> {
  return page.evaluate(
    ([id, [r, g, b]]) => {
      // The page's DOM, untyped: tsconfig has no DOM types.
      const canvas: any = (globalThis as any).document.querySelector(`#${id} canvas`);
      if (!canvas || canvas.width === 0) return 0;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let found = 0;
      for (let at = 0; at < data.length; at += 4)
        if (
          data[at + 3]! > 0 &&
          Math.abs(data[at]! - r) < 40 &&
          Math.abs(data[at + 1]! - g) < 40 &&
          Math.abs(data[at + 2]! - b) < 40
        )
          found++;
      return found;
    },
    [chart, rgb] as const,
  );
}

const BLUE: [number, number, number] = [0x2f, 0x6f, 0xdf];
const RED: [number, number, number] = [0xd6, 0x45, 0x45];

describe('the dashboard in a browser', () => {
  it('shows the calls of every outcome, draws them, filters them, opens one, and shows no key', async () => {
    const statuses = [
      await chat(ALICE, 'rosetta-echo'),
      await chat(ALICE, 'rosetta-echo', true),
      await chat(ALICE, 'rosetta-echo', true),
      await chat(BOB, 'rosetta-echo'),
      await chat(BOB, 'flaky'),
      await chat(ALICE, 'flaky'),
      await chat(WRONG, 'rosetta-echo'),
      await chat(BROKE, 'rosetta-echo'),
      await chat(LIMITED, 'rosetta-echo'),
      await chat(LIMITED, 'rosetta-echo'),
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 502, 502, 401, 403, 200, 429]);
    const calls = statuses.length;
    const errors = statuses.filter((status) => status !== 200).length;
    // The records reach the log on the next turn of the event loop.
    for (let wait = 0; usage.size < calls && wait < 100; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(usage.size).toBe(calls);

    // Without the admin key the auth middleware answers, not the dashboard.
    expect((await fetch(`${server.url}/admin/`)).status).toBe(401);
    expect((await fetch(`${server.url}/admin/api/summary`)).status).toBe(401);

    const { page, errors: consoleErrors, bodies } = await openPage('/admin');
    expect(new URL(page.url()).pathname).toBe('/admin/');
    await expect(page.locator('#calls-total').textContent()).resolves.toBe(String(calls));
    await expect(page.locator('#errors-total').textContent()).resolves.toBe(String(errors));
    expect(await callRows(page).count()).toBe(calls);

    // Each chart drew a canvas, and the calls chart its bars: calls in blue, errors in red.
    for (const chart of ['chart-calls', 'chart-tokens', 'chart-credits', 'chart-latency'])
      expect(await page.locator(`#${chart} canvas`).count()).toBe(1);
    expect(await pixelsOf(page, 'chart-calls', BLUE)).toBeGreaterThan(20);
    expect(await pixelsOf(page, 'chart-calls', RED)).toBeGreaterThan(5);
    expect(await pixelsOf(page, 'chart-latency', BLUE)).toBeGreaterThan(0);

    // Top keys by spend: the two keys that were served, a row for the refused key's calls.
    const topKeys = await page.locator('#top-keys tbody tr td:first-child').allTextContents();
    expect(topKeys).toEqual(expect.arrayContaining(['alice', 'bob', 'limited', 'broke', '(no key: refused)']));
    const topModels = await page.locator('#top-models tbody tr td:first-child').allTextContents();
    expect(topModels).toEqual(expect.arrayContaining(['rosetta-echo', 'flaky']));
    const errorKinds = await page.locator('#error-kinds tbody tr td:first-child').allTextContents();
    expect(errorKinds.sort()).toEqual(['authentication', 'insufficient_quota', 'rate_limit', 'upstream']);

    // The filters narrow the list: errors only, then alice's, then one model.
    await page.selectOption('#filter-outcome', 'error');
    await until(() => callRows(page).count(), errors);
    for (const badge of await page.locator('#calls tbody .badge').allTextContents()) expect(badge).toMatch(/^error /);
    await page.selectOption('#filter-outcome', '');
    await page.fill('#filter-key', 'alice');
    await page.click('#filters button[type=submit]');
    await until(() => callRows(page).count(), 4);
    await page.fill('#filter-model', 'flaky');
    await page.click('#filters button[type=submit]');
    await until(() => callRows(page).count(), 1);
    await page.click('#filter-clear');
    await until(() => callRows(page).count(), calls);

    // A row opens its whole record, as the log holds it.
    const [newest] = usage.query({ limit: 1 });
    await callRows(page).first().click();
    expect(await page.locator('#record').evaluate((dialog: any) => dialog.open)).toBe(true);
    expect(JSON.parse((await page.locator('#record-json').textContent())!)).toEqual(newest);
    await page.click('#record-close');
    expect(await page.locator('#record').evaluate((dialog: any) => dialog.open)).toBe(false);

    // No key anywhere: not in the page, not in any answer of its API.
    const html = await page.content();
    for (const key of ALL_KEYS) {
      expect(html).not.toContain(key);
      for (const body of bodies) expect(body).not.toContain(key);
    }
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("loads over 100,000 records, aggregated on the server (measured; the speed target is the bench's)", async () => {
    const headers = { authorization: `Bearer ${ADMIN}` };
    // The API first (warmed on another window: a window's summary is reused for 2 s), then the page as a person opens
    // it: its HTML, scripts and three API calls.
    await fetch(`${server.url}/big/api/summary?window=24h`, { headers });
    let started = performance.now();
    const summary = await fetch(`${server.url}/big/api/summary?window=6h`, { headers });
    const summaryMs = performance.now() - started;
    const body = (await summary.json()) as Json;
    expect(body.totals.calls).toBe(100_000);
    expect(body.scanned).toBe(100_000);
    expect(JSON.stringify(body).length).toBeLessThan(50_000);

    started = performance.now();
    const { page, errors } = await openPage('/big/');
    const pageMs = performance.now() - started;
    await expect(page.locator('#calls-total').textContent()).resolves.toBe('100,000');
    expect(await callRows(page).count()).toBe(100);
    process.stderr.write(
      `dashboard over 100,000 records: /api/summary ${Math.round(summaryMs)} ms, page loaded ${Math.round(pageMs)} ms\n`,
    );
    // Reported, not asserted: how long this takes is the machine's as much as the code's (a browser on a busy CI machine
    // can take seconds), and the speed target (within 1 s) is the bench's: `npm run bench -- --only dashboard`. What is
    // asserted above is what makes it fast: the server aggregates (100,000 scanned, an answer under 50 kB, 100 rows).
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
