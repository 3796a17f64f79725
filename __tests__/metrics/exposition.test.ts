/** What the metrics make of usage records: the exposition a scrape gets, with bounded labels. */
import type { UsageRecord } from '../../lib/usage/record';
import { GatewayMetrics, type LiveFigures } from '../../lib/metrics/gateway-metrics';
import { type MetricsOptions, resolveMetricsOptions } from '../../lib/metrics/options';
import { sampleValue, samples } from '../helpers/prometheus';
import express from 'express';
import { type OpenMetricsContentType, Registry } from 'prom-client';
import { listen } from '../helpers/app';

const SCOPE = {
  models: [
    { id: 'gpt-4o-mini', provider: 'openai' },
    { id: 'claude-x', provider: 'anthropic' },
  ],
  providers: new Map([
    ['openai', {}],
    ['anthropic', {}],
  ]),
  codecs: [{ name: 'openai-chat' }, { name: 'anthropic-messages' }],
};
const IDLE: LiveFigures = { openStreams: 0, inFlight: 0, serves: () => false };

const metricsOf = (options: MetricsOptions = {}) => new GatewayMetrics(resolveMetricsOptions(options)!, SCOPE, IDLE);

/** What `gateway.metrics` answers, through a real Express app. */
async function scrape(metrics: GatewayMetrics): Promise<{ text: string; contentType: string | null; status: number }> {
  const app = express();
  app.get('/metrics', metrics.handler);
  const server = await listen(app);
  try {
    const response = await fetch(`${server.url}/metrics`);
    return { text: await response.text(), contentType: response.headers.get('content-type'), status: response.status };
  } finally {
    await server.close();
  }
}

/** A streamed call that fell back from claude-x (a 502) to gpt-4o-mini and was answered. */
const answered: UsageRecord = {
  requestId: 'req-1',
  keyId: 'rich',
  protocol: 'openai-chat',
  operation: 'generate',
  stream: true,
  requestedModel: 'claude-x',
  model: 'gpt-4o-mini',
  provider: 'openai',
  upstreamModel: 'gpt-4o-mini-2024',
  attempts: [
    { model: 'claude-x', provider: 'anthropic', upstreamModel: 'claude-x-1', error: { kind: 'upstream', status: 502 } },
    { model: 'gpt-4o-mini', provider: 'openai', upstreamModel: 'gpt-4o-mini-2024' },
  ],
  outcome: 'ok',
  status: 200,
  usage: { inputTokens: 100, cacheReadTokens: 60, cacheWriteTokens: 10, outputTokens: 50, reasoningTokens: 20 },
  usageSource: 'upstream',
  credits: { held: 500, charged: 123 },
  timings: { received: 1_000, firstByte: 1_250, ended: 3_000 },
};

/** A call refused for its key's rate limit. */
const limited: UsageRecord = {
  requestId: 'req-2',
  keyId: 'rich',
  protocol: 'openai-chat',
  operation: 'generate',
  stream: false,
  requestedModel: 'gpt-4o-mini',
  model: 'gpt-4o-mini',
  provider: 'openai',
  attempts: [],
  outcome: 'error',
  status: 429,
  error: { kind: 'rate_limit', status: 429, message: 'Too many requests.' },
  credits: { held: 0, charged: 0 },
  timings: { received: 5_000, ended: 5_001 },
};

describe('the exposition after usage records', () => {
  it('counts calls, tokens by kind, credits, latency, time to first token, upstream errors, fallbacks and refusals', async () => {
    const metrics = metricsOf();
    metrics.observe(answered);
    metrics.observe(limited);
    const { text, contentType, status } = await scrape(metrics);
    expect(status).toBe(200);
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const call = { protocol: 'openai-chat', operation: 'generate', model: 'gpt-4o-mini', provider: 'openai' };
    expect(sampleValue(text, 'rosetta_calls_total', { ...call, outcome: 'ok', status_class: '2xx' })).toBe(1);
    expect(sampleValue(text, 'rosetta_calls_total', { ...call, outcome: 'error', status_class: '4xx' })).toBe(1);
    const tokens = (kind: string) =>
      sampleValue(text, 'rosetta_tokens_total', { model: 'gpt-4o-mini', provider: 'openai', kind });
    expect([
      tokens('input'),
      tokens('cache_read'),
      tokens('cache_write'),
      tokens('output'),
      tokens('reasoning'),
    ]).toEqual([30, 60, 10, 50, 20]);
    expect(sampleValue(text, 'rosetta_credits_charged_total', { model: 'gpt-4o-mini' })).toBe(123);
    const streamed = { ...call, stream: 'true', outcome: 'ok' };
    expect(sampleValue(text, 'rosetta_call_duration_seconds_sum', streamed)).toBe(2);
    expect(sampleValue(text, 'rosetta_call_duration_seconds_bucket', { ...streamed, le: '1' })).toBe(0);
    expect(sampleValue(text, 'rosetta_call_duration_seconds_bucket', { ...streamed, le: '2.5' })).toBe(1);
    const first = { protocol: 'openai-chat', model: 'gpt-4o-mini', provider: 'openai' };
    expect(sampleValue(text, 'rosetta_time_to_first_token_seconds_sum', first)).toBe(0.25);
    expect(sampleValue(text, 'rosetta_time_to_first_token_seconds_count', first)).toBe(1);
    const failed = { provider: 'anthropic', model: 'claude-x' };
    expect(sampleValue(text, 'rosetta_upstream_errors_total', { ...failed, kind: 'upstream' })).toBe(1);
    expect(sampleValue(text, 'rosetta_fallbacks_total', failed)).toBe(1);
    expect(
      sampleValue(text, 'rosetta_refusals_total', {
        protocol: 'openai-chat',
        model: 'gpt-4o-mini',
        reason: 'rate_limit',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'rosetta_call_errors_total', {
        protocol: 'openai-chat',
        operation: 'generate',
        kind: 'rate_limit',
      }),
    ).toBe(1);
    // A non-streamed call has no time to first token.
    expect(sampleValue(text, 'rosetta_time_to_first_token_seconds_count', { ...first })).toBe(1);
  });

  it('counts a quota refusal and an image call', async () => {
    const metrics = metricsOf();
    metrics.observe({
      ...limited,
      protocol: 'anthropic-messages',
      status: 403,
      error: { kind: 'insufficient_quota', status: 403, message: 'Out of credits.' },
    });
    metrics.observe({
      ...answered,
      operation: 'image',
      stream: false,
      attempts: [],
      usage: undefined,
      images: 3,
      credits: { held: 30, charged: 30 },
    });
    const { text } = await scrape(metrics);
    expect(
      sampleValue(text, 'rosetta_refusals_total', {
        protocol: 'anthropic-messages',
        model: 'gpt-4o-mini',
        reason: 'insufficient_quota',
      }),
    ).toBe(1);
    expect(sampleValue(text, 'rosetta_images_total', { model: 'gpt-4o-mini', provider: 'openai' })).toBe(3);
    expect(sampleValue(text, 'rosetta_credits_charged_total', { model: 'gpt-4o-mini' })).toBe(30);
  });

  it('uses the prefix and the buckets given', async () => {
    const metrics = metricsOf({ prefix: 'llm_', buckets: { duration: [1, 3], firstToken: [0.2, 0.3] } });
    metrics.observe(answered);
    const { text } = await scrape(metrics);
    const streamed = {
      protocol: 'openai-chat',
      operation: 'generate',
      model: 'gpt-4o-mini',
      provider: 'openai',
      stream: 'true',
      outcome: 'ok',
    };
    expect(sampleValue(text, 'llm_call_duration_seconds_bucket', { ...streamed, le: '3' })).toBe(1);
    const first = { protocol: 'openai-chat', model: 'gpt-4o-mini', provider: 'openai' };
    expect(sampleValue(text, 'llm_time_to_first_token_seconds_bucket', { ...first, le: '0.2' })).toBe(0);
    expect(sampleValue(text, 'llm_time_to_first_token_seconds_bucket', { ...first, le: '0.3' })).toBe(1);
    expect(samples(text).some((sample) => sample.name.startsWith('rosetta_'))).toBe(false);
  });

  it('writes each histogram series cumulatively: increasing buckets, a bound counts its own value, +Inf = _count', async () => {
    const metrics = metricsOf({ buckets: { duration: [1, 2, 4] } });
    // Durations 0.5 s, 1 s (on a bound), 3 s, 3 s and 9 s (past the last bound).
    for (const seconds of [0.5, 1, 3, 3, 9])
      metrics.observe({ ...limited, timings: { received: 10_000, ended: 10_000 + seconds * 1000 } });
    metrics.observe({ ...answered, timings: { received: 0, firstByte: 30, ended: 500 } });
    const { text } = await scrape(metrics);
    const all = samples(text);
    const refused = {
      protocol: 'openai-chat',
      operation: 'generate',
      model: 'gpt-4o-mini',
      provider: 'openai',
      stream: 'false',
      outcome: 'error',
    };
    const bucket = (le: string) => sampleValue(text, 'rosetta_call_duration_seconds_bucket', { ...refused, le });
    expect([bucket('1'), bucket('2'), bucket('4'), bucket('+Inf')]).toEqual([2, 2, 4, 5]);
    expect(sampleValue(text, 'rosetta_call_duration_seconds_sum', refused)).toBe(16.5);
    expect(sampleValue(text, 'rosetta_call_duration_seconds_count', refused)).toBe(5);
    // Every series of both histograms: its buckets never decrease, in the order written, and end with +Inf = _count.
    for (const name of ['rosetta_call_duration_seconds', 'rosetta_time_to_first_token_seconds']) {
      const series = new Map<string, { le: string; value: number }[]>();
      for (const sample of all.filter((found) => found.name === `${name}_bucket`)) {
        const { le, ...labels } = sample.labels;
        const key = JSON.stringify(labels);
        series.set(key, [...(series.get(key) ?? []), { le: le!, value: sample.value }]);
      }
      expect(series.size).toBeGreaterThan(0);
      for (const [key, buckets] of series) {
        const values = buckets.map((found) => found.value);
        expect(values).toEqual([...values].sort((a, b) => a - b));
        expect(buckets.map((found) => found.le).at(-1)).toBe('+Inf');
        const bounds = buckets.slice(0, -1).map((found) => Number(found.le));
        expect(bounds).toEqual([...bounds].sort((a, b) => a - b));
        expect(sampleValue(text, `${name}_count`, JSON.parse(key))).toBe(values.at(-1));
      }
    }
  });

  it("answers prom-client's registry calls: JSON, a reset, and OpenMetrics", async () => {
    const metrics = metricsOf();
    metrics.observe(answered);
    const json = await metrics.registry.getMetricsAsJSON();
    const calls = json.find((metric) => metric.name === 'rosetta_calls_total');
    expect(calls).toMatchObject({ type: 'counter', help: 'Model calls, by how they ended.', aggregator: 'sum' });
    expect(calls!.values).toEqual([
      {
        labels: {
          protocol: 'openai-chat',
          operation: 'generate',
          model: 'gpt-4o-mini',
          provider: 'openai',
          outcome: 'ok',
          status_class: '2xx',
        },
        value: 1,
      },
    ]);
    metrics.registry.resetMetrics();
    const reset = await scrape(metrics);
    expect(samples(reset.text).filter((sample) => sample.name.startsWith('rosetta_') && sample.value !== 0)).toEqual(
      [],
    );
    metrics.observe(answered);
    // A host's registry may be switched to OpenMetrics (its type is bound to the default content type).
    (metrics.registry as unknown as Registry<OpenMetricsContentType>).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    const open = await metrics.registry.metrics();
    expect(open).toContain('# TYPE rosetta_calls counter');
    expect(open).toContain('# TYPE rosetta_call_duration_seconds histogram');
    expect(sampleValue(open, 'rosetta_credits_charged_total', { model: 'gpt-4o-mini' })).toBe(123);
    expect(open.endsWith('# EOF\n')).toBe(true);
  });
});

describe('bounded labels', () => {
  it("never makes a caller's model id, an unknown provider or protocol, or a key id a label value", async () => {
    const metrics = metricsOf();
    metrics.observe({ ...limited, requestedModel: 'caller-made-this-up', model: undefined, provider: undefined });
    metrics.observe({ ...answered, model: 'caller-made-this-up', provider: 'nowhere', protocol: 'mystery' });
    metrics.observe({
      ...answered,
      attempts: [
        { model: 'also/made-up', provider: 'nowhere', upstreamModel: 'x', error: { kind: 'upstream', status: 502 } },
      ],
    });
    const { text } = await scrape(metrics);
    expect(text).not.toContain('caller-made-this-up');
    expect(text).not.toContain('made-up');
    expect(text).not.toContain('nowhere');
    expect(text).not.toContain('mystery');
    expect(text).not.toContain('rich');
    expect(text).not.toContain('key=');
    expect(
      sampleValue(text, 'rosetta_calls_total', {
        protocol: 'openai-chat',
        operation: 'generate',
        model: 'unknown',
        provider: 'unknown',
        outcome: 'error',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'rosetta_upstream_errors_total', { provider: 'unknown', model: 'unknown', kind: 'upstream' }),
    ).toBe(1);
  });

  it('labels an accepted provider/model id as provider/*', async () => {
    const metrics = metricsOf();
    metrics.observe({ ...answered, attempts: [], model: 'openai/gpt-9-preview-for-me' });
    const { text } = await scrape(metrics);
    expect(text).not.toContain('gpt-9');
    expect(sampleValue(text, 'rosetta_credits_charged_total', { model: 'openai/*' })).toBe(123);
  });

  it('labels calls, tokens, credits and refusals by key id with keyLabels: true', async () => {
    const metrics = metricsOf({ keyLabels: true });
    metrics.observe(answered);
    metrics.observe(limited);
    metrics.observe({
      ...limited,
      keyId: undefined,
      status: 401,
      error: { kind: 'authentication', status: 401, message: '' },
    });
    const { text } = await scrape(metrics);
    expect(sampleValue(text, 'rosetta_credits_charged_total', { model: 'gpt-4o-mini', key: 'rich' })).toBe(123);
    expect(
      sampleValue(text, 'rosetta_tokens_total', {
        model: 'gpt-4o-mini',
        provider: 'openai',
        kind: 'output',
        key: 'rich',
      }),
    ).toBe(50);
    expect(
      sampleValue(text, 'rosetta_refusals_total', {
        protocol: 'openai-chat',
        model: 'gpt-4o-mini',
        reason: 'rate_limit',
        key: 'rich',
      }),
    ).toBe(1);
    const refused = { protocol: 'openai-chat', operation: 'generate', model: 'gpt-4o-mini', provider: 'openai' };
    expect(
      sampleValue(text, 'rosetta_calls_total', { ...refused, outcome: 'error', status_class: '4xx', key: 'unknown' }),
    ).toBe(1);
    // Histograms never carry a key.
    expect(samples(text).filter((sample) => sample.name.includes('_seconds') && 'key' in sample.labels)).toEqual([]);
  });
});
