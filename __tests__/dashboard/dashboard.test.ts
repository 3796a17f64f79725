/**
 * The dashboard's router without a browser (the page itself: __tests__/browser/): its figures over known records, the
 * list's filters, the live state, the auth options and their warnings, its static files and what it leaves to the host.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import request from 'supertest';
import {
  createGateway,
  GatewayConfigError,
  LocalProvider,
  MemoryUsageLog,
  type UsageQuery,
  type UsageRecord,
} from '../../lib';
import { createDashboard, type DashboardOptions } from '../../lib/dashboard';
import { summarize, windowNamed } from '../../lib/dashboard/summary';
import { sampleUsageRecord } from '../helpers/usage-log-contract';

const quiet = { warn: jest.fn() };

/** An app with the dashboard at /admin (and a host route and error handler after it). */
function appWith(options: Partial<DashboardOptions> & Pick<DashboardOptions, 'usage'>) {
  const app = express();
  app.use('/admin', createDashboard({ allowUnauthenticated: true, logger: quiet, ...options } as DashboardOptions));
  app.get('/admin/other', (_request, response) => {
    response.send('host route');
  });
  app.use((error: Error, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
    response.status(500).json({ host: error.message });
  });
  return app;
}

/** A record that ended `agoMs` ago, 100 ms after it was received. */
function endedAgo(agoMs: number, keyId: string | undefined, overrides: Partial<UsageRecord> = {}): UsageRecord {
  const ended = Date.now() - agoMs;
  return sampleUsageRecord(keyId, { timings: { received: ended - 100, ended }, ...overrides });
}

describe('the summary', () => {
  it('adds up calls, errors, tokens and credits per bucket and in total, and ranks keys and models by spend', () => {
    // Half a minute into a one-minute bucket: the calls of the last seconds are in the last bucket (with the wall
    // clock, 1 run in 60 fell within a second of a bucket's start and put them in the one before).
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    const window = windowNamed('1h')!;
    const at = (ago: number) => ({ received: now - ago - 100, ended: now - ago });
    const records: UsageRecord[] = [
      sampleUsageRecord('alice', { timings: at(1_000), credits: { held: 50, charged: 30 } }),
      sampleUsageRecord('alice', { timings: at(2_000), credits: { held: 50, charged: 30 } }),
      sampleUsageRecord('bob', { timings: at(30 * 60_000), credits: { held: 500, charged: 400 }, model: 'big' }),
      sampleUsageRecord(undefined, {
        timings: at(5_000),
        outcome: 'error',
        status: 401,
        attempts: [],
        usage: undefined,
        credits: { held: 0, charged: 0 },
        error: { kind: 'authentication', status: 401, message: 'bad key' },
      }),
      sampleUsageRecord('bob', {
        timings: at(6_000),
        outcome: 'error',
        status: 502,
        usage: undefined,
        credits: { held: 40, charged: 0 },
        error: { kind: 'upstream', status: 502, message: 'down' },
      }),
      // Outside the window: left out.
      sampleUsageRecord('carol', { timings: at(2 * 3_600_000) }),
    ];
    const summary = summarize(records, window, now, false);
    expect(summary.totals).toEqual({ calls: 5, ok: 3, errors: 2, cancelled: 0, tokens: 45, credits: 460 });
    expect(summary.series.time).toHaveLength(60);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(summary.series.calls)).toBe(5);
    expect(sum(summary.series.errors)).toBe(2);
    expect(sum(summary.series.credits)).toBe(460);
    expect(sum(summary.series.inputTokens) + sum(summary.series.outputTokens)).toBe(45);
    // The last bucket holds the calls of the last seconds; bob's big call is half an hour back.
    expect(summary.series.calls.at(-1)).toBeGreaterThanOrEqual(1);
    expect(summary.series.calls[29]! + summary.series.calls[30]!).toBe(1);
    expect(summary.topKeys.map((row) => [row.name, row.calls, row.errors, row.credits])).toEqual([
      ['bob', 2, 1, 400],
      ['alice', 2, 0, 60],
      [null, 1, 1, 0],
    ]);
    expect(summary.topModels.map((row) => row.name)).toEqual(['big', 'rosetta-echo']);
    expect(summary.errorKinds).toEqual([
      { kind: 'authentication', status: 401, count: 1 },
      { kind: 'upstream', status: 502, count: 1 },
    ]);
    // Latency of the four calls an upstream was asked for (not the refusal); no stream, no first token.
    expect(summary.latency).toEqual({ count: 4, p50: 100, p90: 100, p95: 100, p99: 100, max: 100 });
    expect(summary.timeToFirstToken.count).toBe(0);
  });

  it('takes percentiles by nearest rank: latency of every call sent upstream, first token of streamed ones', () => {
    const now = Date.now();
    const records = Array.from({ length: 100 }, (_, index) =>
      sampleUsageRecord('alice', {
        stream: index % 2 === 0,
        timings: {
          received: now - 1_000 - (index + 1),
          firstByte: now - 1_000 - (index + 1) + index,
          ended: now - 1_000,
        },
      }),
    );
    const summary = summarize(records, windowNamed('15m')!, now, false);
    expect(summary.latency).toEqual({ count: 100, p50: 50, p90: 90, p95: 95, p99: 99, max: 100 });
    // Streamed: the even indices, first byte after `index` ms: 0, 2, …, 98.
    expect(summary.timeToFirstToken).toEqual({ count: 50, p50: 48, p90: 88, p95: 94, p99: 98, max: 98 });
  });
});

describe('the API', () => {
  const usage = new MemoryUsageLog();
  const records = [
    endedAgo(50_000, 'alice'),
    endedAgo(40_000, 'bob', { requestedModel: 'echo-alias' }),
    endedAgo(30_000, 'alice', { outcome: 'cancelled', status: 200 }),
    endedAgo(20_000, undefined, {
      outcome: 'error',
      status: 401,
      attempts: [],
      error: { kind: 'authentication', status: 401, message: 'The API key is not valid.' },
    }),
    endedAgo(10_000, 'alice', { model: 'other', requestedModel: 'other' }),
  ];
  for (const record of records) usage.record(record);
  const app = appWith({ usage });
  const ids = (body: { calls: UsageRecord[] }) => body.calls.map((call) => call.requestId);
  const [first, second, third, fourth, fifth] = records.map((record) => record.requestId);

  it('lists the latest calls newest first, each its whole record', async () => {
    const response = await request(app).get('/admin/api/calls').expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body.calls).toEqual([...records].reverse());
  });

  it('filters by key, model (the public id or the id as sent), outcome and limit', async () => {
    expect(ids((await request(app).get('/admin/api/calls?key=alice')).body)).toEqual([fifth, third, first]);
    expect(ids((await request(app).get('/admin/api/calls?model=echo-alias')).body)).toEqual([second]);
    expect(ids((await request(app).get('/admin/api/calls?model=other')).body)).toEqual([fifth]);
    expect(ids((await request(app).get('/admin/api/calls?outcome=error')).body)).toEqual([fourth]);
    expect(ids((await request(app).get('/admin/api/calls?outcome=cancelled&key=alice')).body)).toEqual([third]);
    expect(ids((await request(app).get('/admin/api/calls?key=alice&model=rosetta-echo&limit=1')).body)).toEqual([
      third,
    ]);
    expect(ids((await request(app).get('/admin/api/calls?window=15m&limit=2')).body)).toEqual([fifth, fourth]);
  });

  it('answers a 400 naming the parameter for a window, outcome or limit it does not know', async () => {
    for (const [query, named] of [
      ['window=2h', 'window'],
      ['outcome=fine', 'outcome'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
    ]) {
      const response = await request(app).get(`/admin/api/calls?${query}`).expect(400);
      expect(response.body.error.message).toMatch(new RegExp(`^${named} must be`));
    }
    await request(app).get('/admin/api/summary?window=1y').expect(400);
    await request(app).get('/admin/api/nothing').expect(404);
  });

  it('summarises the window, and marks it truncated when it holds more records than it reads', async () => {
    const summary = (await request(app).get('/admin/api/summary?window=15m').expect(200)).body;
    expect(summary.totals.calls).toBe(5);
    expect(summary.window).toBe('15m');
    expect(summary.truncated).toBe(false);
    const small = appWith({ usage, maxRecords: 3 });
    const truncated = (await request(small).get('/admin/api/summary').expect(200)).body;
    expect(truncated).toMatchObject({ truncated: true, scanned: 3, totals: { calls: 3 } });
  });

  it('reads the log once for every page that asks for the same window within 2 s', async () => {
    const query = jest.fn((query: UsageQuery) => usage.query(query));
    const counted = appWith({ usage: { query } });
    const answers = await Promise.all([1, 2, 3].map(() => request(counted).get('/admin/api/summary?window=1h')));
    await request(counted).get('/admin/api/summary?window=6h');
    expect(answers.map((answer) => answer.body.totals.calls)).toEqual([5, 5, 5]);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('hands a log that fails to the host as an error (next(error))', async () => {
    const failing = appWith({
      usage: {
        query: async () => {
          throw new Error('the log is down');
        },
      },
    });
    expect((await request(failing).get('/admin/api/summary').expect(500)).body).toEqual({ host: 'the log is down' });
  });

  it("answers the deployments of a model routed over several, with each one's health", async () => {
    const gateway = createGateway({
      keys: [{ key: 'sk-dashboard-live-0123456789', id: 'live' }],
      providers: [new LocalProvider({ name: 'acct-a' }), new LocalProvider({ name: 'acct-b' })],
      models: [
        {
          id: 'pool',
          upstreamModel: 'rosetta-echo',
          deployments: [
            { provider: 'acct-a', name: 'pool-a' },
            { provider: 'acct-b', name: 'pool-b' },
          ],
        },
      ],
    });
    try {
      const { live } = (await request(appWith({ usage, gateway })).get('/admin/api/live').expect(200)).body;
      expect(
        live.deployments.map((deployment: { name: string; state: string }) => [deployment.name, deployment.state]),
      ).toEqual([
        ['pool-a', 'healthy'],
        ['pool-b', 'healthy'],
      ]);
      expect(JSON.stringify(live)).not.toContain('sk-dashboard-live');
    } finally {
      await gateway.close();
    }
  });

  it("answers the gateway's live state: open streams, calls in flight, deployments (none here)", async () => {
    const gateway = createGateway({ keys: [{ key: 'sk-dashboard-live-0123456789', id: 'live' }] });
    try {
      const live = (await request(appWith({ usage, gateway })).get('/admin/api/live').expect(200)).body;
      expect(live.live).toEqual({ openStreams: 0, callsInFlight: 0, deployments: [] });
      expect((await request(app).get('/admin/api/live').expect(200)).body.live).toBeNull();
    } finally {
      await gateway.close();
    }
  });
});

describe('the page and its files', () => {
  const app = appWith({ usage: new MemoryUsageLog() });

  it('redirects the mount path to itself with a slash (the page links are relative), keeping the query', async () => {
    const response = await request(app).get('/admin?window=6h').expect(308);
    expect(response.headers.location).toBe('/admin/?window=6h');
  });

  it('serves the page under a strict content security policy, with its script, styles and uPlot', async () => {
    const page = await request(app).get('/admin/').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('<script src="assets/uplot.js" defer></script>');
    const uplot = await request(app).get('/admin/assets/uplot.js').expect(200);
    expect(uplot.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(uplot.text).toBe(readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'));
    expect((await request(app).get('/admin/assets/uplot.css').expect(200)).headers['content-type']).toMatch(
      /^text\/css/,
    );
    expect((await request(app).get('/admin/assets/dashboard.js').expect(200)).text).toContain("getJson('api/live')");
    await request(app).get('/admin/assets/dashboard.css').expect(200);
    await request(app).get('/admin/assets/../index.ts').expect(404);
    await request(app).get('/admin/assets/nothing.js').expect(404);
  });

  it('is read-only, and leaves every other path under the mount to the host', async () => {
    await request(app).post('/admin/api/summary').expect(405);
    await request(app).delete('/admin/').expect(405);
    expect((await request(app).get('/admin/other').expect(200)).text).toBe('host route');
    // A path that looks like a host to a URL parser is still a path: not the page.
    await request(app).get('/admin//example.com/').expect(404);
    await request(app).get('/admin//example.com/api/summary').expect(404);
  });
});

describe('auth', () => {
  const usage = new MemoryUsageLog();

  it('runs the `auth` middleware before each of its routes, and only its own', async () => {
    const auth = jest.fn((req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (req.get('authorization') === 'Bearer admin') next();
      else res.status(401).send('who are you?');
    });
    const app = appWith({ usage, auth, allowUnauthenticated: undefined });
    for (const path of ['/admin/', '/admin/api/summary', '/admin/api/calls', '/admin/assets/uplot.js'])
      expect((await request(app).get(path).expect(401)).text).toBe('who are you?');
    await request(app).get('/admin/api/summary').set('authorization', 'Bearer admin').expect(200);
    const calls = auth.mock.calls.length;
    await request(app).get('/admin/other').expect(200);
    expect(auth.mock.calls.length).toBe(calls);
  });

  it("hands an async auth middleware's rejection to the host's error handler", async () => {
    const app = appWith({
      usage,
      allowUnauthenticated: undefined,
      auth: async () => {
        throw new Error('the session store is down');
      },
    });
    expect((await request(app).get('/admin/').expect(500)).body).toEqual({ host: 'the session store is down' });
  });

  it('warns when created with neither auth nor allowUnauthenticated, and says so on the page', async () => {
    const logger = { warn: jest.fn() };
    const app = express().use('/admin', createDashboard({ usage, logger }));
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/neither `auth` nor `allowUnauthenticated: true`/);
    expect((await request(app).get('/admin/').expect(200)).text).toContain('class="banner"');
  });

  it('is quiet with allowUnauthenticated: true, and with an auth middleware', async () => {
    const logger = { warn: jest.fn() };
    const open = express().use('/admin', createDashboard({ usage, logger, allowUnauthenticated: true }));
    createDashboard({ usage, logger, auth: (_request, _response, next) => next() });
    expect(logger.warn).not.toHaveBeenCalled();
    expect((await request(open).get('/admin/').expect(200)).text).not.toContain('class="banner"');
  });

  it("with auth: 'host', warns once if its first request carries neither an Authorization header nor a cookie", async () => {
    const logger = { warn: jest.fn() };
    const app = express().use('/admin', createDashboard({ usage, logger, auth: 'host' }));
    expect(logger.warn).not.toHaveBeenCalled();
    await request(app).get('/admin/api/live').expect(200);
    await request(app).get('/admin/api/live').expect(200);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/auth: 'host'/);
    const guarded = { warn: jest.fn() };
    const behind = express().use('/admin', createDashboard({ usage, logger: guarded, auth: 'host' }));
    await request(behind).get('/admin/api/live').set('cookie', 'session=1').expect(200);
    await request(behind).get('/admin/api/live').expect(200);
    expect(guarded.warn).not.toHaveBeenCalled();
  });

  it('refuses options it cannot use', () => {
    const bad = (options: unknown) => () => createDashboard(options as DashboardOptions);
    expect(bad({})).toThrow(/option 'usage' must be a usage log/);
    expect(bad({ usage, allowUnauthenticated: true, auth: 'host' })).toThrow(/cannot be true with 'auth'/);
    expect(bad({ usage, auth: 'admin' })).toThrow(/option 'auth' must be a middleware/);
    expect(bad({ usage, gateway: {} })).toThrow(/option 'gateway' must be the gateway/);
    expect(bad({ usage, maxRecords: 0 })).toThrow(/option 'maxRecords' must be a positive integer/);
    expect(bad({ usage, allowUnauthenticate: true })).toThrow(/did you mean 'allowUnauthenticated'/);
    expect(bad({ usage, allowUnauthenticated: 'yes' })).toThrow(GatewayConfigError);
  });
});
