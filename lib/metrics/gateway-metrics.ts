/**
 * One gateway's Prometheus metrics: an observer of its usage records (one per finished call), the live figures a
 * record cannot give (open streams, calls in flight), upstream retries from the upstream client's channel, and the
 * handler that answers a scrape. docs/operations.md, "Metrics", lists every metric and its labels.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Gauge, type Registry } from 'prom-client';
import { type ErrorKind, GatewayConfigError } from '../errors';
import type { ModelConfig } from '../model-config';
import { logRequest } from '../log';
import { type UpstreamRetryMessage, upstreamRetries } from '../upstream/retry-channel';
import { DEPLOYMENT_FAILURE_KINDS } from '../routing/health';
import type { DeploymentCooling } from '../routing/router';
import type { UsageAttempt, UsageRecord } from '../usage/record';
import { CounterFamily, HistogramFamily, TokenFamily } from './families';
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

/** The gateway's metrics, registered in one registry; `observe` takes each usage record. */
export class GatewayMetrics {
  readonly registry: Registry;
  /** Answers a scrape with the registry's text exposition. */
  readonly handler: MetricsHandler;
  private readonly labels: LabelValues;
  private readonly keyLabels: boolean;
  private readonly calls: CounterFamily;
  private readonly callErrors: CounterFamily;
  private readonly refusals: CounterFamily;
  private readonly tokens: TokenFamily;
  private readonly images: CounterFamily;
  private readonly credits: CounterFamily;
  private readonly duration: HistogramFamily;
  private readonly firstToken: HistogramFamily;
  private readonly upstreamErrors: CounterFamily;
  private readonly fallbacks: CounterFamily;
  private readonly retries: CounterFamily;
  private readonly deploymentAttempts: CounterFamily;
  private readonly deploymentSkips: CounterFamily;
  private readonly affinity: CounterFamily;
  private readonly onRetry: (message: unknown) => void;

  /**
   * `cooling` reads each deployment's cooldown at scrape time (the router's, docs/routing.md).
   * @throws GatewayConfigError when the registry already holds a metric of one of these names.
   */
  constructor(
    options: ResolvedMetricsOptions,
    scope: MetricsScope,
    live: LiveFigures,
    cooling?: () => Promise<readonly DeploymentCooling[]>,
  ) {
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
      tokens: ['counter', 'Tokens charged, by kind.', keyed(['model', 'provider'])],
      images: ['counter', 'Images generated.', keyed(['model', 'provider'])],
      credits_charged: ['counter', 'Credits charged.', keyed(['model'])],
      upstream_errors: ['counter', 'Failed upstream attempts, by error kind.', ['provider', 'model', 'kind']],
      fallbacks: ['counter', 'Fallbacks away from a model whose upstream attempt failed.', ['provider', 'model']],
      upstream_retries: ['counter', 'Upstream requests sent again after a failure.', ['provider', 'kind']],
      deployment_attempts: [
        'counter',
        'Calls to a deployment of a model routed over several, by outcome: ok or the error kind.',
        ['model', 'deployment', 'outcome'],
      ],
      deployment_skips: [
        'counter',
        'Deployments passed over without a call, by reason: cooldown, probe or rate_limit.',
        ['model', 'deployment', 'reason'],
      ],
      affinity: [
        'counter',
        'Calls with a session to a model routed over deployments, by whether it kept its deployment: held, moved or new.',
        ['model', 'outcome'],
      ],
    } as const;
    const names = [
      ...Object.keys(definitions).map((name) => `${prefix}${name}_total`),
      `${prefix}call_duration_seconds`,
      `${prefix}time_to_first_token_seconds`,
      `${prefix}open_streams`,
      `${prefix}calls_in_flight`,
      `${prefix}deployment_cooldown_seconds`,
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
    const counter = (name: keyof typeof definitions) => {
      const [, help, labelNames] = definitions[name];
      return new CounterFamily(registry, `${prefix}${name}_total`, help, labelNames);
    };
    this.calls = counter('calls');
    this.callErrors = counter('call_errors');
    this.refusals = counter('refusals');
    // One series per model, provider (and key), holding every kind: `kind` goes after provider.
    this.tokens = new TokenFamily(registry, `${prefix}tokens_total`, definitions.tokens[1], definitions.tokens[2], 2);
    this.images = counter('images');
    this.credits = counter('credits_charged');
    this.upstreamErrors = counter('upstream_errors');
    this.fallbacks = counter('fallbacks');
    this.retries = counter('upstream_retries');
    this.deploymentAttempts = counter('deployment_attempts');
    this.deploymentSkips = counter('deployment_skips');
    this.affinity = counter('affinity');
    this.duration = new HistogramFamily(
      registry,
      `${prefix}call_duration_seconds`,
      'From the request received to the answer ended.',
      ['protocol', 'operation', 'model', 'provider', 'stream', 'outcome'],
      buckets.duration,
    );
    this.firstToken = new HistogramFamily(
      registry,
      `${prefix}time_to_first_token_seconds`,
      "A streamed call's time from the request received to the first byte of its answer sent.",
      ['protocol', 'model', 'provider'],
      buckets.firstToken,
    );
    // The gauges are read from the gateway at scrape time only: prom-client's own are fine.
    const registers = [registry];
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
    const cooldown: Gauge = new Gauge({
      name: `${prefix}deployment_cooldown_seconds`,
      help: 'Seconds of cooldown left for each deployment of a model routed over several; 0 when it takes calls.',
      labelNames: ['deployment'],
      registers,
      collect: async () => {
        if (!cooling) return;
        cooldown.reset();
        for (const { name, coolingMs } of await cooling()) cooldown.set({ deployment: name }, coolingMs / 1000);
      },
    });
    this.onRetry = (message) => {
      const { upstream, signal, kind } = message as UpstreamRetryMessage;
      if (!live.serves(signal)) return;
      const path = this.retries.path;
      path[0] = this.labels.provider(upstream);
      path[1] = kind;
      this.retries.add(1);
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

  /**
   * The hot path: each family's label values are written into its reusable path and its series found through
   * nested Maps, so a call is counted with lookups and additions only (./families.ts).
   */
  private count(record: UsageRecord): void {
    const labels = this.labels;
    const protocol = labels.protocol(record.protocol);
    const { operation, outcome, usage } = record;
    const model = labels.model(record.model);
    const provider = labels.provider(record.provider);
    const key = this.keyLabels ? (record.keyId ?? UNKNOWN) : undefined;

    const calls = this.calls.path;
    calls[0] = protocol;
    calls[1] = operation;
    calls[2] = model;
    calls[3] = provider;
    calls[4] = outcome;
    calls[5] = statusClass(record.status);
    if (key !== undefined) calls[6] = key;
    this.calls.add(1);

    if (record.error) {
      const kind = record.error.kind;
      const errors = this.callErrors.path;
      errors[0] = protocol;
      errors[1] = operation;
      errors[2] = kind;
      this.callErrors.add(1);
      if (REFUSALS.has(kind)) {
        const refusals = this.refusals.path;
        refusals[0] = protocol;
        refusals[1] = model;
        refusals[2] = kind;
        if (key !== undefined) refusals[3] = key;
        this.refusals.add(1);
      }
    }

    if (usage) {
      const cacheRead = usage.cacheReadTokens ?? 0;
      const cacheWrite = usage.cacheWriteTokens ?? 0;
      const path = this.tokens.path;
      path[0] = model;
      path[1] = provider;
      if (key !== undefined) path[2] = key;
      // Indexed like TOKEN_KINDS; a kind is counted only above zero (a counter never goes down).
      const counts = this.tokens.series().counts;
      addPositive(counts, 0, usage.inputTokens - cacheRead - cacheWrite);
      addPositive(counts, 1, cacheRead);
      addPositive(counts, 2, cacheWrite);
      addPositive(counts, 3, usage.outputTokens);
      addPositive(counts, 4, usage.reasoningTokens ?? 0);
    }
    if (record.images) {
      const images = this.images.path;
      images[0] = model;
      images[1] = provider;
      if (key !== undefined) images[2] = key;
      this.images.add(record.images);
    }
    if (record.credits.charged > 0) {
      const credits = this.credits.path;
      credits[0] = model;
      if (key !== undefined) credits[1] = key;
      this.credits.add(record.credits.charged);
    }

    const { received, firstByte, ended } = record.timings;
    const duration = this.duration.path;
    duration[0] = protocol;
    duration[1] = operation;
    duration[2] = model;
    duration[3] = provider;
    duration[4] = record.stream ? 'true' : 'false';
    duration[5] = outcome;
    this.duration.observe((ended - received) / 1000);
    if (record.stream && firstByte !== undefined) {
      const first = this.firstToken.path;
      first[0] = protocol;
      first[1] = model;
      first[2] = provider;
      this.firstToken.observe((firstByte - received) / 1000);
    }

    const attempts = record.attempts;
    const last = attempts.length - 1;
    for (let index = 0; index <= last; index++) {
      const attempt = attempts[index]!;
      if (attempt.deployment !== undefined) this.countDeployment(record, attempt, index === last);
      if (!attempt.error) continue;
      const failedProvider = labels.provider(attempt.provider);
      const failedModel = labels.model(attempt.model);
      const errors = this.upstreamErrors.path;
      errors[0] = failedProvider;
      errors[1] = failedModel;
      errors[2] = attempt.error.kind;
      this.upstreamErrors.add(1);
      // A move to the next model of the chain; another deployment of the same model is not a fallback.
      if (index < last && attempts[index + 1]!.model !== attempt.model) {
        const fallbacks = this.fallbacks.path;
        fallbacks[0] = failedProvider;
        fallbacks[1] = failedModel;
        this.fallbacks.add(1);
      }
    }
    if (record.affinity !== undefined) {
      const affinity = this.affinity.path;
      affinity[0] = model;
      affinity[1] = record.affinity;
      this.affinity.add(1);
    }
  }

  /**
   * One deployment of an attempt: passed over (its reason), failed (its error kind) or called last, which answered
   * (`ok`, or the kind of the failure that broke its stream after the first byte, which counts against it too).
   */
  private countDeployment(record: UsageRecord, attempt: UsageAttempt, last: boolean): void {
    const labels = this.labels;
    if (attempt.skipped !== undefined) {
      const skips = this.deploymentSkips.path;
      skips[0] = labels.model(attempt.model);
      skips[1] = labels.deployment(attempt.deployment);
      skips[2] = attempt.skipped;
      this.deploymentSkips.add(1);
      return;
    }
    let outcome = attempt.error?.kind ?? 'ok';
    const broken = record.error;
    if (last && outcome === 'ok' && broken && record.stream && DEPLOYMENT_FAILURE_KINDS.has(broken.kind))
      outcome = broken.kind;
    const path = this.deploymentAttempts.path;
    path[0] = labels.model(attempt.model);
    path[1] = labels.deployment(attempt.deployment);
    path[2] = outcome;
    this.deploymentAttempts.add(1);
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

/** Adds `amount` to `counts[index]` when it is above zero. */
function addPositive(counts: Float64Array, index: number, amount: number): void {
  if (amount > 0) counts[index]! += amount;
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
