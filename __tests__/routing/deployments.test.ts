/**
 * One model, many deployments (docs/routing.md): weighted spread, retry on another deployment, cooldown and probe,
 * a 429's Retry-After, per-deployment limits, the 429 / 503 when all are out, and what the usage record says. Three
 * accounts on one loopback mock, told apart by their keys; clocks injected, never slept on.
 */
import {
  type GatewayOptions,
  MemoryDeploymentStore,
  MemoryRateLimitStore,
  OpenAIProvider,
  type UsageRecord,
} from '../../lib';
import { Registry } from 'prom-client';
import { pickLeastBusy, pickWeighted } from '../../lib/routing/select';
import { sampleValue } from '../helpers/prometheus';
import { type Json, type RunningGateway, serveGateway, TEST_KEY, testOptions } from '../helpers/app';
import { type MockAccounts, seededRandom, startMockAccounts } from '../helpers/mock-accounts';

const KEYS = {
  a: 'sk-account-a-0123456789abcdef',
  b: 'sk-account-b-0123456789abcdef',
  c: 'sk-account-c-0123456789abcdef',
};

let mock: MockAccounts;
beforeAll(async () => {
  mock = await startMockAccounts();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** The three accounts' providers; without their own retries unless `retries` says otherwise. */
function providers(retries: { max?: number; baseDelayMs?: number } = { max: 0 }): OpenAIProvider[] {
  return (['a', 'b', 'c'] as const).map(
    (account) => new OpenAIProvider({ name: `acct-${account}`, apiKey: KEYS[account], baseUrl: mock.url, retries }),
  );
}

interface Harness {
  gateway: RunningGateway;
  records: UsageRecord[];
  clock: { now: number };
  logs: string[];
}

/** A gateway over the three accounts (weights 1:2:1 unless `models` says otherwise), its records and its clock. */
async function harness(overrides: Partial<GatewayOptions> = {}): Promise<Harness> {
  const records: UsageRecord[] = [];
  const clock = { now: 1_000_000 };
  const logs: string[] = [];
  const gateway = await serveGateway(
    testOptions({
      providers: providers(),
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a' },
            { provider: 'acct-b', upstreamModel: 'up-b', name: 'b', weight: 2 },
            { provider: 'acct-c', upstreamModel: 'up-c', name: 'c' },
          ],
        },
      ],
      deploymentStore: new MemoryDeploymentStore({ now: () => clock.now }),
      rateLimitStore: new MemoryRateLimitStore({ now: () => clock.now }),
      routing: { affinity: false },
      usageSink: (record) => {
        records.push(record);
      },
      ...overrides,
    }),
  );
  return { gateway, records, clock, logs };
}

async function chat(
  gateway: RunningGateway,
  text: string,
  options: { stream?: boolean; headers?: Record<string, string>; model?: string } = {},
): Promise<{ status: number; body: Json | string; headers: Headers }> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({
      model: options.model ?? 'pool',
      messages: [{ role: 'user', content: text }],
      ...(options.stream ? { stream: true } : {}),
    }),
  });
  const raw = await response.text();
  let body: Json | string = raw;
  try {
    body = JSON.parse(raw) as Json;
  } catch {}
  return { status: response.status, body, headers: response.headers };
}

/** Waits for the usage sink (records are delivered off the response path). */
async function settled(records: UsageRecord[], count: number): Promise<void> {
  for (let tries = 0; records.length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 5));
}

const callsOf = (key: string) => mock.calls.get(key) ?? 0;

describe('choosing a deployment', () => {
  it('draws 4,000 calls over weights 1:2:1 within 5 % of each share', () => {
    const random = seededRandom(25);
    const counts = [0, 0, 0];
    const weights = [{ weight: 1 }, { weight: 2 }, { weight: 1 }];
    for (let call = 0; call < 4000; call++) counts[pickWeighted(weights, random)]! += 1;
    const expected = [1000, 2000, 1000];
    for (const [index, count] of counts.entries())
      expect(Math.abs(count - expected[index]!)).toBeLessThanOrEqual(expected[index]! * 0.05);
  });

  it('least-busy picks the fewest calls in flight per unit of weight', () => {
    const weights = [{ weight: 1 }, { weight: 2 }, { weight: 1 }];
    expect(pickLeastBusy(weights, [1, 1, 2])).toBe(1);
    expect(pickLeastBusy(weights, [0, 2, 3])).toBe(0);
  });

  it('spreads calls through the gateway by weight, and the record names the deployment', async () => {
    const { gateway, records } = await harness();
    const random = seededRandom(7);
    const spy = jest.spyOn(Math, 'random').mockImplementation(random);
    try {
      for (let call = 0; call < 200; call++) expect((await chat(gateway, `hi ${call}`)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(callsOf(KEYS.a) + callsOf(KEYS.b) + callsOf(KEYS.c)).toBe(200);
    expect(callsOf(KEYS.b)).toBeGreaterThan(80);
    expect(callsOf(KEYS.b)).toBeLessThan(120);
    expect(callsOf(KEYS.a)).toBeGreaterThan(30);
    expect(callsOf(KEYS.c)).toBeGreaterThan(30);
    await settled(records, 200);
    const served = records.map((record) => record.deployment);
    expect(served.filter((name) => name === 'b')).toHaveLength(callsOf(KEYS.b));
    const record = records[0]!;
    expect(record.attempts).toEqual([
      {
        model: 'pool',
        provider: `acct-${record.deployment}`,
        upstreamModel: `up-${record.deployment}`,
        deployment: record.deployment,
      },
    ]);
    expect(record.provider).toBe(`acct-${record.deployment}`);
    await gateway.close();
  });

  it('a lower tier is used only while every deployment above it is out', async () => {
    const { gateway, records, clock } = await harness({
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a' },
            { provider: 'acct-c', upstreamModel: 'up-c', name: 'backup', priority: 1 },
          ],
        },
      ],
      routing: { affinity: false, failures: 1 },
    });
    for (let call = 0; call < 5; call++) await chat(gateway, 'x');
    expect(callsOf(KEYS.a)).toBe(5);
    expect(callsOf(KEYS.c)).toBe(0);
    mock.setMode(KEYS.a, { status: 500 });
    expect((await chat(gateway, 'y')).status).toBe(200);
    expect(callsOf(KEYS.c)).toBe(1);
    expect((await chat(gateway, 'z')).status).toBe(200);
    expect(callsOf(KEYS.a)).toBe(6);
    expect(callsOf(KEYS.c)).toBe(2);
    await settled(records, 7);
    expect(records[6]!.attempts.map((attempt) => [attempt.deployment, attempt.skipped])).toEqual([
      ['a', 'cooldown'],
      ['backup', undefined],
    ]);
    clock.now += 31_000;
    mock.setMode(KEYS.a, 'ok');
    await chat(gateway, 'w');
    expect(callsOf(KEYS.a)).toBe(7);
    await gateway.close();
  });
});

describe('health and cooldown', () => {
  it('a deployment answering 500 is retried elsewhere, cooled after 3 failures, gets nothing but one probe after', async () => {
    const { gateway, records, clock } = await harness();
    mock.setMode(KEYS.b, { status: 500 });
    const random = seededRandom(3);
    const spy = jest.spyOn(Math, 'random').mockImplementation(random);
    try {
      // Callers see no error: each failure before the first byte is retried on another deployment.
      while (callsOf(KEYS.b) < 3) expect((await chat(gateway, 'q')).status).toBe(200);
      for (let call = 0; call < 40; call++) {
        const stream = call % 2 === 0;
        const answer = await chat(gateway, `after ${call}`, { stream });
        expect(answer.status).toBe(200);
      }
      expect(callsOf(KEYS.b)).toBe(3);
      // After the cooldown, one probe: concurrent callers do not all reach it.
      clock.now += 30_000;
      const answers = await Promise.all(Array.from({ length: 12 }, (_, call) => chat(gateway, `probe ${call}`)));
      for (const answer of answers) expect(answer.status).toBe(200);
      expect(callsOf(KEYS.b)).toBe(4);
      // The probe failed: out again, for another cooldown.
      for (let call = 0; call < 20; call++) await chat(gateway, `again ${call}`);
      expect(callsOf(KEYS.b)).toBe(4);
      // Healthy again: the probe passes and b takes calls again.
      mock.setMode(KEYS.b, 'ok');
      clock.now += 30_000;
      for (let call = 0; call < 40; call++) await chat(gateway, `healed ${call}`);
      expect(callsOf(KEYS.b)).toBeGreaterThan(10);
    } finally {
      spy.mockRestore();
    }
    await settled(records, 3);
    const failed = records.find((record) => record.attempts.some((attempt) => attempt.error))!;
    expect(failed.outcome).toBe('ok');
    expect(failed.attempts[0]).toMatchObject({ deployment: 'b', error: { kind: 'upstream', status: 502 } });
    expect(failed.attempts[1]!.error).toBeUndefined();
    await gateway.close();
  });

  it('a 429 with Retry-After: 7 keeps the deployment out at least 7 s, and no longer than it says', async () => {
    const { gateway, clock } = await harness({
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a' },
            { provider: 'acct-b', upstreamModel: 'up-b', name: 'b' },
          ],
        },
      ],
    });
    mock.setMode(KEYS.a, { status: 429, retryAfter: 7 });
    while (callsOf(KEYS.a) < 1) expect((await chat(gateway, 'q')).status).toBe(200);
    mock.setMode(KEYS.a, 'ok');
    clock.now += 6_900;
    for (let call = 0; call < 30; call++) expect((await chat(gateway, 'r')).status).toBe(200);
    expect(callsOf(KEYS.a)).toBe(1);
    clock.now += 200;
    for (let call = 0; call < 30; call++) await chat(gateway, 's');
    expect(callsOf(KEYS.a)).toBeGreaterThan(1);
    await gateway.close();
  });

  it('a deployment at its own RPM limit is skipped, never called', async () => {
    const { gateway, records } = await harness({
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a', rateLimits: { requestsPerMinute: 3 } },
            { provider: 'acct-b', upstreamModel: 'up-b', name: 'b', priority: 1 },
          ],
        },
      ],
    });
    for (let call = 0; call < 10; call++) expect((await chat(gateway, `n${call}`)).status).toBe(200);
    expect(callsOf(KEYS.a)).toBe(3);
    expect(callsOf(KEYS.b)).toBe(7);
    await settled(records, 10);
    expect(records[9]!.attempts.map((attempt) => [attempt.deployment, attempt.skipped])).toEqual([
      ['a', 'rate_limit'],
      ['b', undefined],
    ]);
    await gateway.close();
  });

  it('every deployment at its limit: a 429 in the caller’s envelope with Retry-After; all cooling: a 503', async () => {
    const { gateway, clock } = await harness({
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a', rateLimits: { requestsPerMinute: 1 } },
            { provider: 'acct-b', upstreamModel: 'up-b', name: 'b', rateLimits: { requestsPerMinute: 2 } },
          ],
        },
      ],
      routing: { affinity: false, failures: 1 },
    });
    for (let call = 0; call < 3; call++) expect((await chat(gateway, 'x')).status).toBe(200);
    const limited = await chat(gateway, 'x');
    expect(limited.status).toBe(429);
    expect((limited.body as Json).error.code).toBe('deployments_at_limit');
    expect(Number(limited.headers.get('retry-after'))).toBe(30);
    const anthropic = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'pool', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(anthropic.status).toBe(429);
    expect(((await anthropic.json()) as Json).type).toBe('error');
    clock.now += 61_000;
    mock.setMode(KEYS.a, { status: 500 });
    mock.setMode(KEYS.b, { status: 503 });
    const failing = await chat(gateway, 'y');
    expect([502, 503]).toContain(failing.status);
    const out = await chat(gateway, 'z');
    expect(out.status).toBe(503);
    expect((out.body as Json).error.code).toBe('no_healthy_deployment');
    expect(Number(out.headers.get('retry-after'))).toBe(30);
    await gateway.close();
  });

  it('rejected credentials take the deployment out for the auth cooldown and say so loudly, without the key', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { gateway, clock, records } = await harness();
    mock.setMode(KEYS.c, { status: 401 });
    try {
      while (callsOf(KEYS.c) < 1) expect((await chat(gateway, 'q')).status).toBe(200);
      expect(warn).toHaveBeenCalledTimes(1);
      const message = String(warn.mock.calls[0]![0]);
      expect(message).toContain("deployment 'c'");
      expect(message).not.toContain(KEYS.c);
      clock.now += 299_000;
      for (let call = 0; call < 30; call++) await chat(gateway, 'r');
      expect(callsOf(KEYS.c)).toBe(1);
    } finally {
      warn.mockRestore();
    }
    await settled(records, 2);
    const text = JSON.stringify(records);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
    await gateway.close();
  });

  it('a host’s observability.logger gets that warning instead of the console', async () => {
    const warned: string[] = [];
    const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { gateway } = await harness({ observability: { logger: { warn: (message) => void warned.push(message) } } });
    mock.setMode(KEYS.c, { status: 401 });
    try {
      while (callsOf(KEYS.c) < 1) expect((await chat(gateway, 'q')).status).toBe(200);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain("deployment 'c'");
      expect(warned[0]).not.toContain(KEYS.c);
      expect(consoleWarn).not.toHaveBeenCalled();
    } finally {
      consoleWarn.mockRestore();
      mock.setMode(KEYS.c, 'ok');
    }
    await gateway.close();
  });

  it('the health view lists each deployment’s state, recent failures and cooldown end', async () => {
    const { gateway } = await harness({ routing: { affinity: false, failures: 1 } });
    mock.setMode(KEYS.a, { status: 500 });
    while (callsOf(KEYS.a) < 1) await chat(gateway, 'q');
    const response = await new Promise<Json>((resolve) => {
      const fake = {
        statusCode: 0,
        headers: {} as Record<string, string>,
        setHeader(name: string, value: string) {
          this.headers[name] = value;
        },
        writeHead(status: number, headers: Record<string, string>) {
          this.statusCode = status;
          Object.assign(this.headers, headers);
        },
        end(body: string) {
          resolve({ status: this.statusCode, body: JSON.parse(body) });
        },
      };
      gateway.gateway.deployments({} as never, fake as never);
    });
    expect(response.status).toBe(200);
    const view = response.body.deployments as Json[];
    expect(view.map((deployment) => deployment.name)).toEqual(['a', 'b', 'c']);
    expect(view[0]).toMatchObject({ state: 'cooling', models: ['pool'], provider: 'acct-a', upstreamModel: 'up-a' });
    expect(view[0]!.recentFailures).toEqual([{ at: expect.any(String), kind: 'upstream', status: 502 }]);
    expect(typeof view[0]!.cooldownUntil).toBe('string');
    expect(view[1]).toMatchObject({ state: 'healthy', weight: 2 });
    expect(JSON.stringify(response.body)).not.toContain('sk-account');
    await gateway.close();
  });
});

describe('provider retries and deployments', () => {
  /** Accounts a and b (b a tier below, so the order is known) with the providers' own retries on: 2, 1 ms apart. */
  const retrying = (deployments = ['a', 'b']) =>
    harness({
      providers: providers({ max: 2, baseDelayMs: 1 }),
      models: [
        {
          id: 'pool',
          deployments: deployments.map((name, priority) => ({
            provider: `acct-${name}`,
            upstreamModel: `up-${name}`,
            name,
            priority,
          })),
        },
      ],
    });

  it.each([false, true])('a 500 from A: A is called once, B answers (stream %s)', async (stream) => {
    const { gateway, records } = await retrying();
    mock.setMode(KEYS.a, { status: 500 });
    const answer = await chat(gateway, 'q', { stream });
    expect(answer.status).toBe(200);
    expect(callsOf(KEYS.a)).toBe(1);
    expect(callsOf(KEYS.b)).toBe(1);
    await settled(records, 1);
    expect(records[0]!.attempts.map((attempt) => [attempt.deployment, attempt.error?.status])).toEqual([
      ['a', 502],
      ['b', undefined],
    ]);
    await gateway.close();
  });

  it('the last deployment keeps the provider’s retries', async () => {
    const { gateway } = await retrying();
    mock.setMode(KEYS.a, { status: 500 });
    mock.setMode(KEYS.b, { status: 503 });
    expect((await chat(gateway, 'q')).status).toBe(503);
    expect(callsOf(KEYS.a)).toBe(1);
    expect(callsOf(KEYS.b)).toBe(3);
    await gateway.close();
  });

  it('a deployment whose only alternative is cooling down keeps the provider’s retries', async () => {
    const { gateway } = await retrying();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // a fails once (not retried: b would take the call), b rejects its key and is out for the auth cooldown.
      mock.setMode(KEYS.a, { status: 500 });
      mock.setMode(KEYS.b, { status: 401 });
      await chat(gateway, 'q');
      expect([callsOf(KEYS.a), callsOf(KEYS.b)]).toEqual([1, 1]);
      // b is out: a is the last deployment and retries as its provider does.
      expect((await chat(gateway, 'r')).status).toBe(502);
      expect([callsOf(KEYS.a), callsOf(KEYS.b)]).toEqual([4, 1]);
    } finally {
      warn.mockRestore();
    }
    await gateway.close();
  });

  it('a model with one deployment under limits keeps the provider’s retries', async () => {
    const { gateway } = await harness({
      providers: providers({ max: 2, baseDelayMs: 1 }),
      models: [
        {
          id: 'pool',
          deployments: [
            { provider: 'acct-a', upstreamModel: 'up-a', name: 'a', rateLimits: { requestsPerMinute: 60 } },
          ],
        },
      ],
    });
    mock.setMode(KEYS.a, { status: 500 });
    expect((await chat(gateway, 'q')).status).toBe(502);
    expect(callsOf(KEYS.a)).toBe(3);
    await gateway.close();
  });
});

describe('streams that break after their first byte', () => {
  /** Account a, with b in the tier after it; two failures cool a deployment down. */
  const A_THEN_B: Partial<GatewayOptions> = {
    models: [
      {
        id: 'pool',
        deployments: [
          { provider: 'acct-a', upstreamModel: 'up-a', name: 'a' },
          { provider: 'acct-b', upstreamModel: 'up-b', name: 'b', priority: 1 },
        ],
      },
    ],
    routing: { affinity: false, failures: 2 },
  };

  it('count toward the deployment’s health: never retried, cooled down after the configured failures', async () => {
    const { gateway, records } = await harness(A_THEN_B);
    mock.setMode(KEYS.a, 'break');
    for (let call = 0; call < 2; call++) {
      const broken = await chat(gateway, `cut ${call}`, { stream: true });
      expect(broken.status).toBe(200);
      expect(String(broken.body)).toContain('served by up-a');
    }
    // The caller had bytes: no other deployment was called.
    expect([callsOf(KEYS.a), callsOf(KEYS.b)]).toEqual([2, 0]);
    await settled(records, 2);
    expect(records[1]).toMatchObject({ deployment: 'a', outcome: 'error', error: { kind: 'upstream' } });
    // Two breaks in the window: a is cooling down, b takes the calls.
    for (let call = 0; call < 3; call++)
      expect((await chat(gateway, `after ${call}`, { stream: true })).status).toBe(200);
    expect([callsOf(KEYS.a), callsOf(KEYS.b)]).toEqual([2, 3]);
    await gateway.close();
  });

  it('a stream that finishes forgets the deployment’s failures', async () => {
    const { gateway } = await harness(A_THEN_B);
    mock.setMode(KEYS.a, 'break');
    await chat(gateway, 'cut', { stream: true });
    mock.setMode(KEYS.a, 'ok');
    await chat(gateway, 'whole', { stream: true });
    mock.setMode(KEYS.a, 'break');
    await chat(gateway, 'cut again', { stream: true });
    // One failure since the last whole answer: a still takes the calls.
    mock.setMode(KEYS.a, 'ok');
    await chat(gateway, 'next', { stream: true });
    expect([callsOf(KEYS.a), callsOf(KEYS.b)]).toEqual([4, 0]);
    await gateway.close();
  });
});

describe('metrics', () => {
  it('count each deployment’s calls, failures and skips, the sessions’ affinity, and the cooldowns', async () => {
    const registry = new Registry();
    const { gateway, records } = await harness({
      models: [
        {
          id: 'pool',
          deployments: ['a', 'b', 'c'].map((name, priority) => ({
            provider: `acct-${name}`,
            upstreamModel: `up-${name}`,
            name,
            priority,
          })),
        },
      ],
      routing: { failures: 1 },
      metrics: { registry },
    });
    const session = { headers: { 'x-session-id': 'one' } };
    mock.setMode(KEYS.a, { status: 500 });
    // a fails and cools down, b answers (a new session); then b twice, the session held, a passed over.
    for (let call = 0; call < 3; call++) expect((await chat(gateway, `turn ${call}`, session)).status).toBe(200);
    // b's stream breaks after its first byte: its failure too.
    mock.setMode(KEYS.b, 'break');
    expect((await chat(gateway, 'cut', { ...session, stream: true })).status).toBe(200);
    await settled(records, 4);
    const text = await registry.metrics();
    const attempts = (deployment: string, outcome: string) =>
      sampleValue(text, 'rosetta_deployment_attempts_total', { model: 'pool', deployment, outcome });
    expect(attempts('a', 'upstream')).toBe(1);
    expect(attempts('b', 'ok')).toBe(3);
    expect(attempts('b', 'upstream')).toBe(1);
    const skips = sampleValue(text, 'rosetta_deployment_skips_total', {
      model: 'pool',
      deployment: 'a',
      reason: 'cooldown',
    });
    expect(skips).toBe(3);
    const affinity = (outcome: string) => sampleValue(text, 'rosetta_affinity_total', { model: 'pool', outcome });
    expect([affinity('new'), affinity('held'), affinity('moved')]).toEqual([1, 3, undefined]);
    // Another deployment of the same model is not a fallback to another model.
    expect(sampleValue(text, 'rosetta_fallbacks_total', { provider: 'acct-a', model: 'pool' })).toBeUndefined();
    const cooldown = (deployment: string) => sampleValue(text, 'rosetta_deployment_cooldown_seconds', { deployment });
    expect(cooldown('a')).toBeGreaterThan(0);
    expect(cooldown('b')).toBeGreaterThan(0);
    expect(cooldown('c')).toBe(0);
    await gateway.close();
  });
});
