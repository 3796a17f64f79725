/**
 * The options grouped by concern (`stores`, `limits`, `billing`, `observability`, `routing.providerModelIds`): each
 * group reaches the setting it names, a setting given both grouped and flat is a conflict, and a misspelt member is
 * named with "did you mean".
 */
import { createGateway, MemoryQuotaStore, type UsageRecord } from '../../lib';
import { serveGateway, TEST_KEY, testOptions } from '../helpers/app';

const chat = (url: string, body: unknown) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` },
    body: JSON.stringify(body),
  });
const hi = { model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] };

it('each group reaches its settings', async () => {
  const records: UsageRecord[] = [];
  const quota = new MemoryQuotaStore({ balances: { rich: 1_000_000 } });
  const server = await serveGateway({
    keys: [{ key: TEST_KEY, id: 'rich' }],
    stores: { quota },
    limits: { maxBodyBytes: 2_000, rateLimits: { requestsPerMinute: 1 } },
    billing: { defaultMaxOutputTokens: 3 },
    observability: { usageSink: (record) => void records.push(record), metrics: false },
    routing: { providerModelIds: true },
  });
  try {
    const answered = await chat(server.url, hi);
    expect(answered.status).toBe(200);
    expect(quota.getAccount('rich').spent).toBeGreaterThan(0);
    const tooLarge = await chat(server.url, { ...hi, messages: [{ role: 'user', content: 'x'.repeat(3_000) }] });
    expect(tooLarge.status).toBe(413);
    const limited = await chat(server.url, hi);
    expect(limited.status).toBe(429);
    const viaProvider = await chat(server.url, { ...hi, model: 'local/rosetta-echo' });
    // Resolved (a model outside the table would be a 404), then refused by the spent rate limit.
    expect(viaProvider.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records[0]!.usage?.outputTokens).toBeLessThanOrEqual(3);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  } finally {
    await server.close();
  }
});

it('a setting given both grouped and flat is a conflict; a misspelt member says what was meant', () => {
  expect(() => createGateway(testOptions({ maxBodyBytes: 10, limits: { maxBodyBytes: 20 } }))).toThrow(
    expect.objectContaining({
      code: 'ERR_GATEWAY_OPTION_CONFLICT',
      message: expect.stringContaining('limits.maxBodyBytes'),
    }),
  );
  expect(() => createGateway(testOptions({ stores: { qouta: new MemoryQuotaStore() } as never }))).toThrow(
    expect.objectContaining({
      code: 'ERR_GATEWAY_UNKNOWN_OPTION',
      message: expect.stringContaining("did you mean 'quota'"),
    }),
  );
  expect(() => createGateway(testOptions({ billing: 5 as never }))).toThrow(
    expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'billing' }),
  );
  expect(() => createGateway(testOptions({ limit: {} } as never))).toThrow(/did you mean 'limits'/);
});

it('the options object is never mutated', () => {
  const options = testOptions({ limits: { maxHops: 3 }, routing: { providerModelIds: true, strategy: 'weighted' } });
  const before = JSON.stringify(options);
  createGateway(options);
  expect(JSON.stringify(options)).toBe(before);
});
