/**
 * One gateway's Prometheus metrics: an observer of its usage records (one per finished call), the live figures a
 * record cannot give (open streams, calls in flight), upstream retries from the upstream client's channel, and the
 * handler that answers a scrape. docs/operations.md, "Metrics", lists every metric and its labels.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type ErrorKind, GatewayConfigError } from '../errors';
import type { ModelConfig } from '../models';
import { logRequest } from '../pipeline/log';
import { type UpstreamRetryMessage, upstreamRetries } from '../upstream/retry-channel';
import type { UsageRecord } from '../usage/record';
import { LabelValues, statusClass, UNKNOWN } from './labels';
import type { ResolvedMetricsOptions } from './options';

/** What the gateway knows live, which no record carries: its lifecycle (lib/pipeline/lifecycle.ts). */
export interface LiveFigures {
  /** Streamed answers being written. */
  readonly openStreams: number;
  /** Calls being served. */
  readonly inFlight: number;
  /** Whether a call's signal belongs to one of this gateway's calls in flight. */
  serves(signal: unknown): boolean;
}

/** The parts of the gateway's configuration label values come from. */
export interface MetricsScope {
  models: readonly ModelConfig[];
  providers: ReadonlyMap<string, unknown>;
  codecs: readonly { name: string }[];
}

/** An Express (or plain Node) handler: `app.get('/metrics', gateway.metrics)`. */
export type MetricsHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The error kinds counted as refusals: the caller was over its rate limit or out of credits. */
const REFUSALS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['rate_limit', 'insufficient_quota']);

/** Token kinds of `tokens_total`: input is the uncached part, so input + cache_read + cache_write is every input token. */
type TokenKind = 'input' | 'cache_read' | 'cache_write' | 'output' | 'reasoning';

/** The gateway's metrics, registered in one registry; `observe` takes each usage record. */
export class GatewayMetrics {
  readonly registry: Registry;
  /** Answers a scrape with the registry's text exposition. */
  readonly handler: MetricsHandler;
  private readonly labels: LabelValues;
  private readonly keyLabels: boolean;
  private readonly calls: Counter;
  private readonly callErrors: Counter;
  private readonly refusals: Counter;
  private readonly tokens: Counter;
  private readonly images: Counter;
  private readonly credits: Counter;
  private readonly duration: Histogram;
  private readonly firstToken: Histogram;
  private readonly upstreamErrors: Counter;
  private readonly fallbacks: Counter;
  private readonly retries: Counter;
  private readonly onRetry: (message: unknown) => void;

  /** @throws GatewayConfigError when the registry already holds a metric of one of these names. */
  constructor(options: ResolvedMetricsOptions, scope: MetricsScope, live: LiveFigures) {
    const { registry, prefix, keyLabels, buckets } = options;
    this.registry = registry;
    this.keyLabels = keyLabels;
    this.labels = new LabelValues(
      scope.models,
      scope.providers.keys(),
      scope.codecs.map((codec) => codec.name),
    );
    const keyed = (names: string[]) => (keyLabels ? [...names, 'key'] : names);
    const definitions = {
      calls: ['counter', 'Model calls, by how they ended.', keyed(CALL_LABELS)],
      call_errors: ['counter', 'Failed calls, by error kind.', ['protocol', 'operation', 'kind']],
      refusals: [
        'counter',
        'Calls refused for a rate limit or a lack of credits.',
        keyed(['protocol', 'model', 'reason']),
      ],
      tokens: ['counter', 'Tokens charged, by kind.', keyed(['model', 'provider', 'kind'])],
      images: ['counter', 'Images generated.', keyed(['model', 'provider'])],
      credits_charged: ['counter', 'Credits charged.', keyed(['model'])],
      upstream_errors: ['counter', 'Failed upstream attempts, by error kind.', ['provider', 'model', 'kind']],
      fallbacks: ['counter', 'Fallbacks away from a model whose upstream attempt failed.', ['provider', 'model']],
      upstream_retries: ['counter', 'Upstream requests sent again after a failure.', ['provider', 'kind']],
    } as const;
    const names = [
      ...Object.keys(definitions).map((name) => `${prefix}${name}_total`),
      `${prefix}call_duration_seconds`,
      `${prefix}time_to_first_token_seconds`,
      `${prefix}open_streams`,
      `${prefix}calls_in_flight`,
    ];
    for (const name of names) {
      if (registry.getSingleMetric(name)) {
        throw new GatewayConfigError(
          'ERR_GATEWAY_DUPLICATE',
          `createGateway: option 'metrics.registry' already holds a metric named '${name}' (another gateway's?): give each gateway that shares a registry its own metrics.prefix.`,
          'metrics.registry',
        );
      }
    }
    const registers = [registry];
    const counter = (name: keyof typeof definitions) => {
      const [, help, labelNames] = definitions[name];
      return new Counter({ name: `${prefix}${name}_total`, help, labelNames, registers });
    };
    this.calls = counter('calls');
    this.callErrors = counter('call_errors');
    this.refusals = counter('refusals');
    this.tokens = counter('tokens');
    this.images = counter('images');
    this.credits = counter('credits_charged');
    this.upstreamErrors = counter('upstream_errors');
    this.fallbacks = counter('fallbacks');
    this.retries = counter('upstream_retries');
    this.duration = new Histogram({
      name: `${prefix}call_duration_seconds`,
      help: 'From the request received to the answer ended.',
      labelNames: ['protocol', 'operation', 'model', 'provider', 'stream', 'outcome'],
      buckets: [...buckets.duration],
      registers,
    });
    this.firstToken = new Histogram({
      name: `${prefix}time_to_first_token_seconds`,
      help: "A streamed call's time from the request received to the first byte of its answer sent.",
      labelNames: ['protocol', 'model', 'provider'],
      buckets: [...buckets.firstToken],
      registers,
    });
    const openStreams: Gauge = new Gauge({
      name: `${prefix}open_streams`,
      help: 'Streamed answers being written.',
      registers,
      collect: () => openStreams.set(live.openStreams),
    });
    const inFlight: Gauge = new Gauge({
      name: `${prefix}calls_in_flight`,
      help: 'Model calls being served.',
      registers,
      collect: () => inFlight.set(live.inFlight),
    });
    this.onRetry = (message) => {
      const { upstream, signal, kind } = message as UpstreamRetryMessage;
      if (live.serves(signal)) this.retries.inc({ provider: this.labels.provider(upstream), kind });
    };
    upstreamRetries.subscribe(this.onRetry);
    this.handler = (_request, response) => void this.answer(response);
  }

  /** Counts one finished call. Never throws. */
  observe(record: UsageRecord): void {
    try {
      this.count(record);
    } catch (error) {
      logRequest('%s the metrics could not count the call: %O', record.requestId, error);
    }
  }

  /** Stops counting retries (the gateway's `close()`). */
  close(): void {
    upstreamRetries.unsubscribe(this.onRetry);
  }

  private count(record: UsageRecord): void {
    const labels = this.labels;
    const protocol = labels.protocol(record.protocol);
    const { operation, outcome, usage } = record;
    const model = labels.model(record.model);
    const provider = labels.provider(record.provider);
    const key = this.keyLabels ? { key: record.keyId ?? UNKNOWN } : undefined;
    const status_class = statusClass(record.status);
    this.calls.inc({ protocol, operation, model, provider, outcome, status_class, ...key });
    if (record.error) {
      const kind = record.error.kind;
      this.callErrors.inc({ protocol, operation, kind });
      if (REFUSALS.has(kind)) this.refusals.inc({ protocol, model, reason: kind, ...key });
    }
    if (usage) {
      const cacheRead = usage.cacheReadTokens ?? 0;
      const cacheWrite = usage.cacheWriteTokens ?? 0;
      this.addTokens(model, provider, 'input', usage.inputTokens - cacheRead - cacheWrite, key);
      this.addTokens(model, provider, 'cache_read', cacheRead, key);
      this.addTokens(model, provider, 'cache_write', cacheWrite, key);
      this.addTokens(model, provider, 'output', usage.outputTokens, key);
      this.addTokens(model, provider, 'reasoning', usage.reasoningTokens ?? 0, key);
    }
    if (record.images) this.images.inc({ model, provider, ...key }, record.images);
    if (record.credits.charged > 0) this.credits.inc({ model, ...key }, record.credits.charged);
    const { received, firstByte, ended } = record.timings;
    const stream = record.stream ? 'true' : 'false';
    this.duration.observe({ protocol, operation, model, provider, stream, outcome }, (ended - received) / 1000);
    if (record.stream && firstByte !== undefined)
      this.firstToken.observe({ protocol, model, provider }, (firstByte - received) / 1000);
    const attempts = record.attempts;
    for (let index = 0; index < attempts.length; index++) {
      const attempt = attempts[index]!;
      if (!attempt.error) continue;
      const failed = { provider: labels.provider(attempt.provider), model: labels.model(attempt.model) };
      this.upstreamErrors.inc({ ...failed, kind: attempt.error.kind });
      if (index < attempts.length - 1) this.fallbacks.inc(failed);
    }
  }

  private addTokens(
    model: string,
    provider: string,
    kind: TokenKind,
    tokens: number,
    key: { key: string } | undefined,
  ): void {
    if (tokens > 0) this.tokens.inc({ model, provider, kind, ...key }, tokens);
  }

  private async answer(response: ServerResponse): Promise<void> {
    let text: string;
    try {
      text = await this.registry.metrics();
    } catch (error) {
      logRequest('the metrics could not be collected: %O', error);
      sendError(response, 500, 'The metrics could not be collected.', 'metrics_failed');
      return;
    }
    if (response.headersSent || response.destroyed) return;
    response.writeHead(200, {
      'content-type': this.registry.contentType,
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    response.end(text);
  }
}

/** Labels of `calls_total` (plus `key` with `keyLabels`). */
const CALL_LABELS = ['protocol', 'operation', 'model', 'provider', 'outcome', 'status_class'];

/** The handler of a gateway created with `metrics: false`: a 404 that says so. */
export const metricsOff: MetricsHandler = (_request, response) =>
  sendError(
    response,
    404,
    "This gateway's metrics are off: it was created with metrics: false. Remove that option to serve them.",
    'metrics_off',
  );

function sendError(response: ServerResponse, status: number, message: string, code: string): void {
  if (response.headersSent || response.destroyed) return;
  const body = JSON.stringify({
    error: { message, type: status === 404 ? 'not_found_error' : 'server_error', param: null, code },
  });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
