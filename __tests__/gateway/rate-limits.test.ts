/**
 * Rate limits per key: requests, tokens and calls in flight per key and key × model, a gateway-wide default, 429s
 * in each protocol's envelope with Retry-After and the headers its clients read, slots returned however a call ends.
 */
import {
  createGateway,
  GatewayConfigError,
  LocalProvider,
  MemoryRateLimitStore,
  type GatewayKey,
  type GatewayOptions,
  type Provider,
  type RateLimitStore,
  type UsageRecord,
} from '../../lib';
import { PROVIDER_SPECIFICATION_VERSION } from '../../lib/extend';
import { dataEvents, readJson, serveGateway, type RunningGateway } from '../helpers/app';

const KEY = 'sk-rate-limited-key-0123456789';
const FREE_KEY = 'sk-unlimited-key-0123456789';

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(key: Omit<GatewayKey, 'key'>, options: Partial<GatewayOptions> = {}): Promise<RunningGateway> {
  running = await serveGateway({
    keys: [
      { key: KEY, id: 'limited', ...key },
      { key: FREE_KEY, id: 'free' },
    ],
    ...options,
  });
  return running;
}

function post(path: string, body: object, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${running!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const chat = (body: object = {}, key = KEY, signal?: AbortSignal) =>
  post(
    '/v1/chat/completions',
    { model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 20, ...body },
    { authorization: `Bearer ${key}` },
    signal,
  );

const messages = (body: object = {}) =>
  post(
    '/v1/messages',
    { model: 'rosetta-echo', max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }], ...body },
    { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
  );

const gemini = () =>
  post(
    '/v1beta/models/rosetta-echo:generateContent',
    { contents: [{ parts: [{ text: 'Hello there' }] }], generationConfig: { maxOutputTokens: 20 } },
    { 'x-goog-api-key': KEY },
  );

/** Waits until nothing is in flight for the scope (a stream's slot is returned as its handler finishes). */
async function settled(store: MemoryRateLimitStore, scope: string): Promise<void> {
  for (let i = 0; i < 200 && store.inFlight(scope) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(store.inFlight(scope)).toBe(0);
}

describe('requests per minute', () => {
  it('admits exactly M of N concurrent calls on one key; the rest are 429 with a correct Retry-After', async () => {
    await start({ rateLimits: { requestsPerMinute: 4 } });
    const responses = await Promise.all(Array.from({ length: 10 }, () => chat()));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    for (const response of responses.filter((each) => each.status === 429)) {
      // One request frees every 60 s / 4 = 15 s.
      expect(response.headers.get('retry-after')).toBe('15');
      expect(Number(response.headers.get('retry-after-ms'))).toBeGreaterThan(14_000);
      expect(Number(response.headers.get('retry-after-ms'))).toBeLessThanOrEqual(15_000);
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('4');
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(await readJson(response)).toEqual({
        error: {
          message: expect.stringContaining('requests per minute'),
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      });
    }
    // Another key is not counted.
    expect((await chat({}, FREE_KEY)).status).toBe(200);
  });

  it('gives each of the N calls one usage record: M answered and charged, the rest refused with 429 and nothing held', async () => {
    const records: UsageRecord[] = [];
    await start(
      { rateLimits: { requestsPerMinute: 4 }, balance: 1_000_000 },
      { usageSink: (record) => void records.push(record) },
    );
    const responses = await Promise.all(Array.from({ length: 10 }, () => chat()));
    for (let waited = 0; records.length < 10 && waited < 2_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(records).toHaveLength(10);
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    expect(records.map((record) => record.requestId).sort()).toEqual([...ids].sort());
    const answered = records.filter((record) => record.outcome === 'ok');
    const refused = records.filter((record) => record.status === 429);
    expect(answered).toHaveLength(4);
    for (const record of answered) {
      expect(record).toMatchObject({ keyId: 'limited', model: 'rosetta-echo', status: 200 });
      expect(record.credits.charged).toBeGreaterThan(0);
    }
    expect(refused).toHaveLength(6);
    for (const record of refused)
      expect(record).toMatchObject({
        keyId: 'limited',
        model: 'rosetta-echo',
        outcome: 'error',
        error: { kind: 'rate_limit', status: 429 },
        attempts: [],
        credits: { held: 0, charged: 0 },
      });
  });

  it('sends the rate-limit headers on answers: whole and streamed', async () => {
    await start({ rateLimits: { requestsPerMinute: 10, tokensPerMinute: 10_000 } });
    const whole = await chat();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('x-ratelimit-limit-requests')).toBe('10');
    expect(whole.headers.get('x-ratelimit-remaining-requests')).toBe('9');
    expect(whole.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(\.\d+)?s$/);
    expect(whole.headers.get('x-ratelimit-limit-tokens')).toBe('10000');
    expect(Number(whole.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(10_000);
    expect(whole.headers.get('x-ratelimit-reset-tokens')).toMatch(/^(\d+ms|(\d+m)?\d+(\.\d+)?s)$/);
    const streamed = await chat({ stream: true });
    expect(streamed.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(streamed.headers.get('x-ratelimit-remaining-requests')).toBe('8');
    expect(dataEvents(await streamed.text()).length).toBeGreaterThan(0);
  });

  it('sends no rate-limit headers for a key no limit counts', async () => {
    await start({});
    const response = await chat();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });
});

describe('tokens per minute', () => {
  it('admits on the input bound plus the output cap, and charges the tokens used when the call ends', async () => {
    const store = new MemoryRateLimitStore();
    await start(
      { rateLimits: { tokensPerMinute: 1000 } },
      { rateLimitStore: store, providers: [new LocalProvider({ tokenDelayMs: 5 })] },
    );
    // The estimate (input bound + 900 output) fits once; the echo uses a few tokens, so the bucket refills to ~990.
    const first = await chat({ max_tokens: 900 });
    expect(first.status).toBe(200);
    const used =
      Number(first.headers.get('x-ratelimit-limit-tokens')) - Number(first.headers.get('x-ratelimit-remaining-tokens'));
    expect(used).toBeGreaterThan(900);
    const second = await chat({ max_tokens: 900 });
    expect(second.status).toBe(200);
    // While one call holds its estimate, a second does not fit beside it; once it has ended, it does.
    const open = await chat({ max_tokens: 900, stream: true });
    const reader = open.body!.getReader();
    await reader.read();
    const refused = await chat({ max_tokens: 900 });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    while (!(await reader.read()).done);
    expect((await chat({ max_tokens: 900 })).status).toBe(200);
    expect((await readJson(refused)).error.message).toContain('tokens per minute');
  });
});

describe('calls in flight', () => {
  /** A provider whose stream sends a token, then waits until aborted, or breaks (`model: 'broken'`). */
  function slowProvider(): Provider {
    return {
      specificationVersion: PROVIDER_SPECIFICATION_VERSION,
      name: 'slow',
      defaultModels: [
        { id: 'hang', provider: 'slow' },
        { id: 'broken', provider: 'slow' },
      ],
      async *stream(request, context) {
        yield { type: 'response-start', id: 'r1', model: request.model, created: 0 };
        yield { type: 'text-start', id: '0' };
        yield { type: 'text-delta', id: '0', delta: 'Once' };
        if (request.model === 'broken') throw new Error('the upstream broke');
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      },
    };
  }

  it('returns the slot of a stream the client cut, and of a stream the upstream broke', async () => {
    const store = new MemoryRateLimitStore();
    await start({ rateLimits: { concurrent: 1 } }, { rateLimitStore: store, providers: [slowProvider()] });
    const controller = new AbortController();
    const open = await chat({ model: 'hang', stream: true }, KEY, controller.signal);
    const reader = open.body!.getReader();
    await reader.read();
    expect(store.inFlight('limited')).toBe(1);
    const refused = await chat({ model: 'hang', stream: true });
    expect(refused.status).toBe(429);
    expect((await readJson(refused)).error.message).toContain('calls in flight');
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await settled(store, 'limited');
    const broken = await chat({ model: 'broken', stream: true });
    expect(broken.status).toBe(200);
    expect(await broken.text()).toContain('error');
    await settled(store, 'limited');
  });

  it('returns the slot of a call that failed before it answered, and of one refused by its quota', async () => {
    const store = new MemoryRateLimitStore();
    await start({ rateLimits: { concurrent: 1 }, balance: 0 }, { rateLimitStore: store });
    expect((await chat()).status).toBe(403);
    expect(store.inFlight('limited')).toBe(0);
  });
});

describe('per key × model, and the gateway default', () => {
  it('counts a key × model limit beside the key limit, for the model id or an alias', async () => {
    await start({ rateLimits: { requestsPerMinute: 100, models: { 'rosetta-echo': { requestsPerMinute: 1 } } } });
    expect((await chat()).status).toBe(200);
    const refused = await chat();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('1');
    const image = await post(
      '/v1/images/generations',
      { model: 'rosetta-image', prompt: 'a square', n: 1, size: '256x256', response_format: 'b64_json' },
      { authorization: `Bearer ${KEY}` },
    );
    expect(image.status).toBe(200);
    expect(image.headers.get('x-ratelimit-limit-requests')).toBe('100');
    expect(image.headers.get('x-ratelimit-remaining-requests')).toBe('98');
  });

  it('applies the default to every key, a key overriding it field by field and null lifting it', async () => {
    running = await serveGateway({
      keys: [
        { key: KEY, id: 'limited', rateLimits: { requestsPerMinute: 3 } },
        { key: FREE_KEY, id: 'free' },
        { key: 'sk-lifted-key-0123456789', id: 'lifted', rateLimits: { requestsPerMinute: null } },
      ],
      rateLimits: { requestsPerMinute: 1, tokensPerMinute: 50_000 },
    });
    expect((await chat({}, FREE_KEY)).status).toBe(200);
    expect((await chat({}, FREE_KEY)).status).toBe(429);
    const own = await chat();
    expect(own.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(own.headers.get('x-ratelimit-limit-tokens')).toBe('50000');
    for (let i = 0; i < 3; i++) expect((await chat({}, 'sk-lifted-key-0123456789')).status).toBe(200);
  });

  it('does not count count-tokens calls', async () => {
    await start({ rateLimits: { requestsPerMinute: 1 } });
    for (let i = 0; i < 3; i++) {
      const counted = await post(
        '/v1/messages/count_tokens',
        { model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello' }] },
        { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      );
      expect(counted.status).toBe(200);
    }
    expect((await chat()).status).toBe(200);
  });
});

describe('each protocol says it its own way', () => {
  it('Anthropic: the anthropic-ratelimit-* headers (reset in RFC 3339) and a rate_limit_error', async () => {
    await start({ rateLimits: { requestsPerMinute: 1, tokensPerMinute: 10_000 } });
    const ok = await messages();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
    expect(ok.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(ok.headers.get('anthropic-ratelimit-requests-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(ok.headers.get('anthropic-ratelimit-requests-reset')!)).toBeGreaterThan(Date.now());
    expect(ok.headers.get('anthropic-ratelimit-tokens-limit')).toBe('10000');
    expect(ok.headers.get('anthropic-ratelimit-tokens-reset')).toMatch(/Z$/);
    expect(ok.headers.get('x-ratelimit-limit-requests')).toBeNull();
    const refused = await messages({ stream: true });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(await readJson(refused)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('Gemini: a RESOURCE_EXHAUSTED envelope with a RetryInfo retryDelay', async () => {
    await start({ rateLimits: { requestsPerMinute: 2 } });
    expect((await gemini()).status).toBe(200);
    expect((await gemini()).status).toBe(200);
    const refused = await gemini();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await readJson(refused)).toEqual({
      error: {
        code: 429,
        message: expect.stringContaining('requests per minute'),
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'RATE_LIMIT_EXCEEDED',
            domain: 'rosetta-gateway',
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' },
        ],
      },
    });
  });

  it('OpenAI Responses: the x-ratelimit-* headers', async () => {
    await start({ rateLimits: { requestsPerMinute: 5 } });
    const response = await post(
      '/v1/responses',
      { model: 'rosetta-echo', input: 'Hello', max_output_tokens: 20 },
      { authorization: `Bearer ${KEY}` },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('4');
  });
});

describe('no rate limit configured', () => {
  it('never calls the store', async () => {
    const calls: string[] = [];
    const store: RateLimitStore = {
      acquire: () => {
        calls.push('acquire');
        throw new Error('not expected');
      },
      settle: () => {
        calls.push('settle');
      },
    };
    await start({}, { rateLimitStore: store });
    expect((await chat()).status).toBe(200);
    expect((await chat({ stream: true })).status).toBe(200);
    expect(calls).toEqual([]);
  });

  it('answers 503 when the store fails, in the caller envelope', async () => {
    const store: RateLimitStore = {
      acquire: () => Promise.reject(new Error('down')),
      settle: () => undefined,
    };
    await start({ rateLimits: { requestsPerMinute: 5 } }, { rateLimitStore: store });
    const response = await chat();
    expect(response.status).toBe(503);
  });
});

describe('options', () => {
  const base = { keys: [{ key: KEY }], providers: [new LocalProvider()] };
  it.each([
    [{ rateLimits: { requestsPerMinute: 0 } }, 'option rateLimits.requestsPerMinute must be a positive integer'],
    [{ rateLimits: { requestPerMinute: 5 } }, 'option rateLimits.requestPerMinute is not a rate limit'],
    [
      { rateLimits: { models: { m: { concurrent: 1.5 } } } },
      'option rateLimits.models["m"].concurrent must be a positive integer',
    ],
    [
      { keys: [{ key: KEY, rateLimits: { tokensPerMinute: '5' } }] },
      'option keys[0].rateLimits.tokensPerMinute must be a positive integer',
    ],
    [{ rateLimitStore: { acquire() {} } }, "option 'rateLimitStore' must have a settle() method"],
  ])('refuses %j', (options, message) => {
    let thrown: unknown;
    try {
      createGateway({ ...base, ...options } as GatewayOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayConfigError);
    expect((thrown as GatewayConfigError).code).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect((thrown as Error).message).toContain(message);
  });
});
