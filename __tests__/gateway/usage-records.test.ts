/**
 * Usage records: one per model call, after it has settled and its response has ended, for every way a call can end
 * (answered, refused, failed upstream, a stream broken or cut by its caller), with the facts a host bills and debugs
 * from; and a sink that fails or stalls changes nothing for the caller or the charge.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  GatewayConfigError,
  GatewayError,
  LocalProvider,
  MemoryKeyStore,
  MemoryUsageLog,
  type GatewayOptions,
  type ModelConfig,
  type Provider,
  type ProviderStreamPart,
  type UsageRecord,
} from '../../lib';
import { createGateway } from '../../lib';
import { UsageDelivery } from '../../lib/usage/sink';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-usage-records-caller-01';
const EMPTY = 'sk-usage-records-empty-001';
const BALANCE = 1_000_000;
const STREAM_TEXT = ['first words ', 'then more'];

/** Hangs until the call is cancelled. */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A provider scripted by upstream model id: `ok`, `silent` (reports no usage), `down` (502), `busy` (429), `break` and `hang` (streams). */
const scripted: Provider = {
  specificationVersion: 'v1',
  name: 'scripted',
  generate(request, context) {
    const upstream = context.upstreamModel;
    if (upstream === 'down') throw new GatewayError('upstream', 'The upstream failed.');
    if (upstream === 'busy') throw new GatewayError('rate_limit', 'The upstream is rate limited.');
    return {
      id: 'r1',
      model: request.model,
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text: 'hello there' }], finishReason: { unified: 'stop' } }],
      ...(upstream === 'silent' ? {} : { usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 } }),
    };
  },
  async *stream(request, context): AsyncGenerator<ProviderStreamPart> {
    const upstream = context.upstreamModel;
    if (upstream === 'down') throw new GatewayError('upstream', 'The upstream failed.');
    yield { type: 'response-start', id: 'r1', model: request.model, created: 1, usage: { inputTokens: 10 } };
    yield { type: 'text-start', id: '0' };
    for (const delta of STREAM_TEXT) yield { type: 'text-delta', id: '0', delta };
    if (upstream === 'break') {
      yield { type: 'error', error: new GatewayError('upstream', 'The upstream stream broke.') };
      return;
    }
    if (upstream === 'hang') {
      await untilAborted(context.signal);
      return;
    }
    yield { type: 'text-end', id: '0' };
    yield { type: 'finish', usage: { inputTokens: 10, outputTokens: 5 }, finishReason: { unified: 'stop' } };
  },
};

const models: ModelConfig[] = [
  { id: 'ok', provider: 'scripted', upstreamModel: 'ok', aliases: ['ok-alias'] },
  { id: 'silent', provider: 'scripted', upstreamModel: 'silent' },
  { id: 'down', provider: 'scripted', upstreamModel: 'down' },
  { id: 'busy', provider: 'scripted', upstreamModel: 'busy' },
  { id: 'break', provider: 'scripted', upstreamModel: 'break' },
  { id: 'hang', provider: 'scripted', upstreamModel: 'hang' },
  { id: 'falls-back', provider: 'scripted', upstreamModel: 'down', fallbacks: ['also-down', 'ok'] },
  { id: 'also-down', provider: 'scripted', upstreamModel: 'down' },
  { id: 'rosetta-image', provider: 'local', type: 'image' },
];

interface Started {
  gateway: RunningGateway;
  quotaStore: RecordingQuotaStore;
  records: UsageRecord[];
}

/** A gateway whose sink pushes each record to `records` (or `usageSink` when given). */
async function start(overrides: Partial<GatewayOptions> = {}): Promise<Started> {
  const records: UsageRecord[] = [];
  const quotaStore = new RecordingQuotaStore({ balances: { k: BALANCE, empty: 0 } });
  const gateway = await serveGateway({
    keyStore: new MemoryKeyStore([
      { key: KEY, id: 'k' },
      { key: EMPTY, id: 'empty' },
    ]),
    quotaStore,
    providers: [scripted, new LocalProvider()],
    models,
    usageSink: (record) => {
      records.push(record);
    },
    ...overrides,
  });
  return { gateway, quotaStore, records };
}

function post(gateway: RunningGateway, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const chat = (gateway: RunningGateway, model: string, extra: Json = {}, headers: Record<string, string> = {}) =>
  post(gateway, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], ...extra }, headers);

/** Waits until `count` records have arrived (they are delivered off the response path). */
async function recordsOf(records: UsageRecord[], count: number): Promise<UsageRecord[]> {
  for (let waited = 0; waited < 5_000 && records.length < count; waited += 5) await sleep(5);
  expect(records).toHaveLength(count);
  return records;
}

/** The one record of the call answered with `response`. */
async function recordOf(records: UsageRecord[], response: Response): Promise<UsageRecord> {
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/\S/);
  for (let waited = 0; waited < 5_000; waited += 5) {
    const found = records.filter((record) => record.requestId === requestId);
    if (found.length > 0) {
      await sleep(20);
      expect(records.filter((record) => record.requestId === requestId)).toHaveLength(1);
      return found[0]!;
    }
    await sleep(5);
  }
  throw new Error(`no record for ${requestId}`);
}

function expectTimings(record: UsageRecord, firstByte: boolean): void {
  const { received, ended } = record.timings;
  expect(received).toBeLessThanOrEqual(ended);
  if (firstByte) {
    expect(record.timings.firstByte).toBeGreaterThanOrEqual(received);
    expect(record.timings.firstByte).toBeLessThanOrEqual(ended);
  } else expect(record.timings.firstByte).toBeUndefined();
}

describe('usage records', () => {
  let started: Started;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started.gateway.close());

  it('an answered call: who, which model (alias kept), the usage the upstream reported, what was held and charged, when', async () => {
    const response = await chat(started.gateway, 'ok-alias');
    expect(response.status).toBe(200);
    const record = await recordOf(started.records, response);
    const settle = started.quotaStore.settles.at(-1)!;
    expect(record).toEqual({
      requestId: response.headers.get('x-request-id'),
      keyId: 'k',
      protocol: 'openai-chat',
      operation: 'generate',
      stream: false,
      requestedModel: 'ok-alias',
      model: 'ok',
      provider: 'scripted',
      upstreamModel: 'ok',
      attempts: [{ model: 'ok', provider: 'scripted', upstreamModel: 'ok' }],
      outcome: 'ok',
      status: 200,
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 },
      usageSource: 'upstream',
      credits: {
        held: settle.reservation.amount,
        charged: settle.actual,
        settlement: 'completed',
        // A provider that declares no cache ratios: cache reads at the input price.
        split: { input: 8, cacheRead: 2, cacheWrite: 0, output: 5, image: 0, total: 15 },
      },
      timings: expect.any(Object),
    });
    expect(settle.actual).toBeGreaterThan(0);
    expectTimings(record, true);
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it("a call whose upstream reported no usage says the figures are the gateway's count", async () => {
    const response = await chat(started.gateway, 'silent');
    const record = await recordOf(started.records, response);
    expect(record.usageSource).toBe('gateway');
    expect(record.usage!.outputTokens).toBeGreaterThan(0);
    expect(record.credits.charged).toBe(started.quotaStore.settles.at(-1)!.actual);
  });

  it('a streamed call: stream true, first byte at the head, the finish usage charged', async () => {
    const response = await chat(started.gateway, 'ok', { stream: true });
    expect(await response.text()).toContain('[DONE]');
    const record = await recordOf(started.records, response);
    expect(record).toMatchObject({
      stream: true,
      outcome: 'ok',
      status: 200,
      usage: { inputTokens: 10, outputTokens: 5 },
      usageSource: 'upstream',
      credits: { charged: started.quotaStore.settles.at(-1)!.actual, settlement: 'completed' },
    });
    expectTimings(record, true);
  });

  it('lists every fallback attempt, in order, with why it failed', async () => {
    const response = await chat(started.gateway, 'falls-back');
    expect(response.status).toBe(200);
    const record = await recordOf(started.records, response);
    expect(record.attempts).toEqual([
      { model: 'falls-back', provider: 'scripted', upstreamModel: 'down', error: { kind: 'upstream', status: 502 } },
      { model: 'also-down', provider: 'scripted', upstreamModel: 'down', error: { kind: 'upstream', status: 502 } },
      { model: 'ok', provider: 'scripted', upstreamModel: 'ok' },
    ]);
    expect(record).toMatchObject({ model: 'falls-back', provider: 'scripted', upstreamModel: 'ok', outcome: 'ok' });
  });

  it.each([
    ['down', 502, 'upstream'],
    ['busy', 429, 'rate_limit'],
  ])('an upstream failure (%s): error %d, the hold released, nothing charged', async (model, status, kind) => {
    const response = await chat(started.gateway, model);
    expect(response.status).toBe(status);
    const record = await recordOf(started.records, response);
    expect(record).toMatchObject({
      outcome: 'error',
      status,
      error: { kind, status },
      attempts: [{ model, error: { kind, status } }],
      credits: { charged: 0 },
    });
    expect(record.credits.held).toBeGreaterThan(0);
    expect(record.credits.settlement).toBeUndefined();
    expect(record.usage).toBeUndefined();
    expectTimings(record, true);
  });

  it.each<[string, () => Promise<Response>, number, string, string | undefined]>([
    [
      'a wrong key',
      () => chat(started.gateway, 'ok', {}, { authorization: 'Bearer sk-not-a-key-000000000' }),
      401,
      'authentication',
      undefined,
    ],
    [
      'a key without credits',
      () => chat(started.gateway, 'ok', {}, { authorization: `Bearer ${EMPTY}` }),
      403,
      'insufficient_quota',
      'empty',
    ],
    ['an unknown model', () => chat(started.gateway, 'no-such-model'), 404, 'not_found', 'k'],
    ['a malformed body', () => post(started.gateway, '/v1/chat/completions', '{"model":'), 400, 'invalid_request', 'k'],
    [
      'a body too large',
      () =>
        post(started.gateway, '/v1/chat/completions', {
          model: 'ok',
          messages: [{ role: 'user', content: 'x'.repeat(40_000_000) }],
        }),
      413,
      'request_too_large',
      'k',
    ],
    [
      'a request loop',
      () => chat(started.gateway, 'ok', {}, { 'x-rosetta-hops': '9' }),
      508,
      'loop_detected',
      undefined,
    ],
  ])(
    'a call refused for %s: one record, its status and error, nothing held or charged',
    async (_, send, status, kind, keyId) => {
      const response = await send();
      expect(response.status).toBe(status);
      const record = await recordOf(started.records, response);
      expect(record).toMatchObject({
        outcome: 'error',
        status,
        error: { kind, status },
        attempts: [],
        credits: { held: 0, charged: 0 },
      });
      expect(record.keyId).toBe(keyId);
      expectTimings(record, true);
    },
  );

  it('a stream that breaks after its first byte: error, status 200, the failure said', async () => {
    const response = await chat(started.gateway, 'break', { stream: true });
    expect(response.status).toBe(200);
    await response.text();
    const record = await recordOf(started.records, response);
    expect(record).toMatchObject({
      stream: true,
      outcome: 'error',
      status: 200,
      error: { kind: 'upstream', status: 502 },
      credits: { charged: 0, settlement: 'failed-free' },
      usageSource: 'gateway',
    });
  });

  it('a caller that leaves mid-stream: cancelled, with the partial usage that was charged', async () => {
    const response = await chat(started.gateway, 'hang', { stream: true, max_tokens: 50 });
    const requestId = response.headers.get('x-request-id');
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('then more')) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    for (let waited = 0; waited < 5_000 && !started.records.some((r) => r.requestId === requestId); waited += 5)
      await sleep(5);
    const record = started.records.find((candidate) => candidate.requestId === requestId)!;
    const settle = started.quotaStore.settles.at(-1)!;
    expect(settle.info?.settlement).toBe('cancelled');
    expect(record).toMatchObject({ stream: true, outcome: 'cancelled', status: 200, usageSource: 'gateway' });
    expect(record.usage!.outputTokens).toBeGreaterThan(0);
    expect(record.usage!.inputTokens).toBe(10);
    const { inputTokens, outputTokens } = record.usage!;
    expect(record.credits).toEqual({
      held: settle.reservation.amount,
      charged: settle.actual,
      settlement: 'cancelled',
      split: { input: inputTokens, cacheRead: 0, cacheWrite: 0, output: outputTokens, image: 0, total: settle.actual },
    });
    expect(settle.actual).toBe(inputTokens + outputTokens);
  });

  it('a count-tokens call and an image call get a record of their operation', async () => {
    const counted = await post(
      started.gateway,
      '/v1/messages/count_tokens',
      {
        model: 'ok',
        messages: [{ role: 'user', content: 'hi' }],
      },
      { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    );
    expect(counted.status).toBe(200);
    expect(await recordOf(started.records, counted)).toMatchObject({
      protocol: 'anthropic-messages',
      operation: 'count-tokens',
      outcome: 'ok',
      model: 'ok',
      credits: { charged: 0 },
    });
    const image = await post(started.gateway, '/v1/images/generations', {
      model: 'rosetta-image',
      prompt: 'a cat',
      n: 2,
    });
    expect(image.status).toBe(200);
    const record = await recordOf(started.records, image);
    expect(record).toMatchObject({
      protocol: 'openai-images',
      operation: 'image',
      outcome: 'ok',
      images: 2,
      attempts: [{ model: 'rosetta-image', provider: 'local' }],
      credits: {
        charged: 2000,
        settlement: 'completed',
        split: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, image: 2000, total: 2000 },
      },
    });
  });

  it('N concurrent calls give N records, each exactly once, each with the id its caller saw', async () => {
    const before = started.records.length;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        chat(started.gateway, index % 2 ? 'ok' : 'down', { stream: index % 4 < 2 }),
      ),
    );
    await Promise.all(responses.map((response) => response.text()));
    const records = (await recordsOf(started.records, before + 40)).slice(before);
    const ids = responses.map((response) => response.headers.get('x-request-id')).sort();
    expect(records.map((record) => record.requestId).sort()).toEqual(ids);
    await sleep(30);
    expect(started.records).toHaveLength(before + 40);
  });
});

describe('a usage sink that fails or stalls', () => {
  it.each<[string, (record: UsageRecord) => void | Promise<void>]>([
    [
      'throws',
      () => {
        throw new Error('sink down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('sink down'))],
    ['never resolves', () => new Promise<void>(() => undefined)],
  ])('a sink that %s changes nothing for the caller or the charge', async (_, sink) => {
    const plain = await start({ usageSink: undefined });
    const failing = await start({ usageSink: sink });
    try {
      for (const { gateway } of [plain, failing]) {
        const answered = await chat(gateway, 'ok');
        expect(answered.status).toBe(200);
        const streamed = await chat(gateway, 'ok', { stream: true });
        expect(await streamed.text()).toContain('[DONE]');
      }
      const charges = (store: RecordingQuotaStore) =>
        store.settles.map(({ actual, info }) => [actual, info?.settlement]);
      expect(charges(failing.quotaStore)).toEqual(charges(plain.quotaStore));
      expect(failing.quotaStore.getAccount('k')).toEqual(plain.quotaStore.getAccount('k'));
    } finally {
      await plain.gateway.close();
      await failing.gateway.close();
    }
  });

  it('records beyond the pending cap are dropped and counted, and the rest delivered', async () => {
    const delivered: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const delivery = new UsageDelivery(
      {
        record: async (record) => {
          await gate;
          delivered.push(record.requestId);
        },
      },
      3,
    );
    const record = (requestId: string) => ({ requestId }) as UsageRecord;
    for (const id of ['a', 'b', 'c', 'd', 'e']) delivery.observe(record(id));
    expect(delivery.dropped).toBe(2);
    await sleep(5);
    expect(delivery.pending).toBe(3);
    release();
    await delivery.flush(1_000);
    expect(delivered).toEqual(['a', 'b', 'c']);
    expect(delivery.pending).toBe(0);
  });

  it('close() waits for pending deliveries, then closes the sink (after init before the first call)', async () => {
    const events: string[] = [];
    const log = new MemoryUsageLog();
    const { gateway } = await start({
      usageSink: {
        init: () => {
          events.push('init');
        },
        record: async (record) => {
          await sleep(50);
          events.push('record');
          log.record(record);
        },
        close: () => {
          events.push('close');
        },
      },
    });
    const response = await chat(gateway, 'ok');
    expect(response.status).toBe(200);
    await gateway.close();
    expect(events).toEqual(['init', 'record', 'close']);
    expect(log.query()[0]!.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('a call refused by a gateway that is shutting down is recorded as a 503', async () => {
    const { gateway, records } = await start();
    const closing = gateway.gateway.close();
    const response = await chat(gateway, 'ok');
    expect(response.status).toBe(503);
    await closing;
    expect(records.find((record) => record.requestId === response.headers.get('x-request-id'))).toMatchObject({
      outcome: 'error',
      status: 503,
      error: { kind: 'unavailable' },
    });
    await gateway.close();
  });
});

describe('option usageSink', () => {
  it.each([42, 'sink', {}, { record: 'no' }, null])('refuses %j', (usageSink) => {
    expect(() => createGateway({ keys: [{ key: KEY }], usageSink: usageSink as never })).toThrow(GatewayConfigError);
  });

  it('takes a function or an object with record()', () => {
    expect(() => createGateway({ keys: [{ key: KEY }], usageSink: () => undefined })).not.toThrow();
    expect(() => createGateway({ keys: [{ key: KEY }], usageSink: new MemoryUsageLog() })).not.toThrow();
  });
});
