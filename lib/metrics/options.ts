/** The `metrics` option: its public type, its defaults, and its validation into what the gateway's metrics run on. */
import { gatewayOptionError, shown } from '../config-check';
import { Registry } from 'prom-client';
import { suggest } from '../suggest';

/** Histogram bucket bounds, in seconds (docs/operations.md, "Metrics"). */
export interface MetricsBuckets {
  /** Of `call_duration_seconds`. Default {@link DEFAULT_DURATION_BUCKETS}. */
  duration?: readonly number[];
  /** Of `time_to_first_token_seconds`. Default {@link DEFAULT_FIRST_TOKEN_BUCKETS}. */
  firstToken?: readonly number[];
}

/** The gateway's Prometheus metrics, when `metrics` is an object (docs/operations.md, "Metrics"). */
export interface MetricsOptions {
  /**
   * The prom-client `Registry` the metrics are registered in, which `gateway.metrics` then answers with (your own
   * metrics included). Default: a registry of the gateway's own (never prom-client's global one, so two gateways in
   * one process do not clash). Two gateways sharing one registry need different `prefix`es.
   */
  registry?: Registry;
  /** Put before every metric name. Default `rosetta_`. */
  prefix?: string;
  /**
   * Whether the counters of calls, tokens, credits and refusals carry a `key` label (the key's id, never the key):
   * one series per key, so turn it on only for a bounded number of keys. Default false.
   */
  keyLabels?: boolean;
  /** Histogram buckets, in seconds. */
  buckets?: MetricsBuckets;
}

/** Call duration buckets, in seconds: a model call takes from a fraction of a second to minutes. */
export const DEFAULT_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320,
]);

/** Time-to-first-token buckets, in seconds. */
export const DEFAULT_FIRST_TOKEN_BUCKETS: readonly number[] = Object.freeze([0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32]);

/** The `metrics` option resolved: what the gateway's metrics are built from. */
export interface ResolvedMetricsOptions {
  registry: Registry;
  prefix: string;
  keyLabels: boolean;
  buckets: { duration: readonly number[]; firstToken: readonly number[] };
}

const METRICS_OPTION_NAMES = ['registry', 'prefix', 'keyLabels', 'buckets'] as const;
const BUCKET_NAMES = ['duration', 'firstToken'] as const;

/** What Prometheus allows at the start of a metric name and after it. */
const PREFIX_PATTERN = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function fail(option: string, message: string): never {
  return gatewayOptionError('ERR_GATEWAY_INVALID_OPTION', option, message);
}

/**
 * Validates the `metrics` option: absent or `true` → the defaults with a registry of the gateway's own; `false` →
 * undefined (no metrics); an object → its fields over the defaults. Never mutates the caller's object.
 */
export function resolveMetricsOptions(value: unknown): ResolvedMetricsOptions | undefined {
  if (value === false) return undefined;
  if (value !== undefined && value !== true && (value === null || typeof value !== 'object' || Array.isArray(value)))
    fail(
      'metrics',
      `must be true, false or an object { registry?, prefix?, keyLabels?, buckets? }, not ${shown(value)}.`,
    );
  const options = (typeof value === 'object' ? value : {}) as MetricsOptions;
  for (const name of Object.keys(options)) {
    if (!(METRICS_OPTION_NAMES as readonly string[]).includes(name))
      fail(`metrics.${name}`, `is not a metrics option${suggest(name, METRICS_OPTION_NAMES)}.`);
  }
  return {
    registry: registryOption(options.registry),
    prefix: prefixOption(options.prefix),
    keyLabels: keyLabelsOption(options.keyLabels),
    buckets: {
      duration: bucketsOption(options.buckets, 'duration') ?? DEFAULT_DURATION_BUCKETS,
      firstToken: bucketsOption(options.buckets, 'firstToken') ?? DEFAULT_FIRST_TOKEN_BUCKETS,
    },
  };
}

function registryOption(registry: unknown): Registry {
  if (registry === undefined) return new Registry();
  const methods = ['registerMetric', 'getSingleMetric', 'metrics'];
  if (
    registry === null ||
    typeof registry !== 'object' ||
    methods.some((method) => typeof (registry as Record<string, unknown>)[method] !== 'function')
  )
    fail('metrics.registry', "must be a prom-client Registry (new Registry() from 'prom-client').");
  return registry as Registry;
}

function prefixOption(prefix: unknown): string {
  if (prefix === undefined) return 'rosetta_';
  if (typeof prefix !== 'string' || (prefix !== '' && !PREFIX_PATTERN.test(prefix)))
    fail('metrics.prefix', `must be a Prometheus metric name prefix (letters, digits, _ and :), not ${shown(prefix)}.`);
  return prefix;
}

function keyLabelsOption(keyLabels: unknown): boolean {
  if (keyLabels !== undefined && typeof keyLabels !== 'boolean')
    fail('metrics.keyLabels', `must be true or false, not ${shown(keyLabels)}.`);
  return keyLabels === true;
}

function bucketsOption(buckets: unknown, name: (typeof BUCKET_NAMES)[number]): readonly number[] | undefined {
  if (buckets === undefined) return undefined;
  if (buckets === null || typeof buckets !== 'object' || Array.isArray(buckets))
    fail('metrics.buckets', 'must be an object { duration?, firstToken? } of bucket bounds in seconds.');
  for (const key of Object.keys(buckets)) {
    if (!(BUCKET_NAMES as readonly string[]).includes(key))
      fail(`metrics.buckets.${key}`, `is not a histogram of the gateway${suggest(key, BUCKET_NAMES)}.`);
  }
  const bounds = (buckets as MetricsBuckets)[name];
  if (bounds === undefined) return undefined;
  const increasing =
    Array.isArray(bounds) &&
    bounds.length > 0 &&
    bounds.every(
      (bound, index) =>
        typeof bound === 'number' && Number.isFinite(bound) && bound > 0 && (index === 0 || bound > bounds[index - 1]),
    );
  if (!increasing)
    fail(
      `metrics.buckets.${name}`,
      `must be a non-empty array of increasing positive numbers of seconds, not ${shown(bounds)}.`,
    );
  return Object.freeze([...bounds]);
}
