/** The options of createGateway as a host writes them, and the resolved configuration a gateway runs on. */
import type { MetricsOptions, ResolvedMetricsOptions } from '../metrics/options';
import type { TracesOptions } from '../tracing/call-trace';
import type { Logger } from '../log';
import type { ModelConfig } from '../model-config';
import type { ProtocolCodec } from '../protocols/types';
import type { Provider } from '../providers/types';
import type { RateLimiter } from '../rate-limit/limiter';
import type { ResolvedProvider } from '../resolved-provider';
import type { RoutingSettings } from '../routing/router';
import type { DeploymentStrategy } from '../routing/select';
import type { MemoryKeyEntry } from '../stores/memory-key-store';
import type {
  DeploymentStateStore,
  KeyRateLimits,
  KeyStore,
  QuotaStore,
  RateLimitStore,
  ResponseStore,
  ThreadStore,
} from '../stores/types';
import type { UsageSink, UsageSinkOption } from '../usage/sink';

/** A key for the `keys` shorthand: a {@link MemoryKeyEntry} plus an optional starting balance. */
export interface GatewayKey extends MemoryKeyEntry {
  /** Credits this key may spend. Default: unmetered. */
  balance?: number;
}

/** Options of {@link createGateway}. Exactly one of `keys` and `keyStore` is required. */
export interface GatewayOptions {
  /**
   * Shorthand for in-memory keys and balances: builds a {@link MemoryKeyStore} and, unless
   * `quotaStore` is given, a {@link MemoryQuotaStore} holding each key's `balance`.
   */
  keys?: readonly GatewayKey[];
  /** Your key store. */
  keyStore?: KeyStore;
  /**
   * Your quota store. Default: a {@link MemoryQuotaStore} (unmetered unless `keys` give balances).
   * @deprecated Since 0.2: `stores.quota` (accepted until 0.3).
   */
  quotaStore?: QuotaStore;
  /**
   * Where answers are kept for the Responses API's `store` / `previous_response_id` and
   * `GET` / `DELETE /v1/responses/{id}`: a `MemoryResponseStore`, a `RedisResponseStore`
   * (`rosetta-gateway/redis`), or your own. Default: none — nothing is kept, `previous_response_id`
   * is a 400 asking for the whole input, and answers echo `store: false` (docs/stores.md, *ResponseStore*).
   * @deprecated Since 0.2: `stores.responses` (accepted until 0.3).
   */
  responseStore?: ResponseStore;
  /** Where message threads are kept: write it as `stores.threads` (the flat name is the resolution's own). */
  threadStore?: ThreadStore;
  /** Upstream providers. Default: `[new LocalProvider()]`, the embedded offline provider. */
  providers?: readonly Provider[];
  /** The model table. Default: every provider's `defaultModels`. */
  models?: readonly ModelConfig[];
  /**
   * Protocol codecs, merged by `name` over the built-in ones (`openai-chat`, `openai-images`,
   * `anthropic-messages`, `gemini`): a codec with a built-in's name replaces it, others are added.
   */
  codecs?: readonly ProtocolCodec[];
  /**
   * Largest request body accepted, in bytes; a larger one is a 413. Default 32 MiB.
   * @deprecated Since 0.2: `limits.maxBodyBytes` (accepted until 0.3).
   */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a request body (the body itself is level 1);
   * a deeper one is a 400 `json_too_deep`, checked before the body is parsed. Default 128.
   * @deprecated Since 0.2: `limits.maxJsonDepth` (accepted until 0.3).
   */
  maxJsonDepth?: number;
  /**
   * Output cap for a request that sets none, when its model sets none either. Default 4096.
   * @deprecated Since 0.2: `billing.defaultMaxOutputTokens` (accepted until 0.3).
   */
  defaultMaxOutputTokens?: number;
  /**
   * Accept `<provider>/<upstream model>` ids for models not in the table (e.g. `openai/gpt-4o-mini`),
   * at the default prices. Keys with `allowedModels` need the id or `<provider>/*`. Default false.
   * @deprecated Since 0.2: `routing.providerModelIds` (accepted until 0.3).
   */
  providerModelIds?: boolean;
  /**
   * Whether a stream that fails mid-way because the upstream broke (an in-stream error, a dropped
   * or malformed upstream stream) is charged for its input and the output produced so far. Off, such a
   * stream is charged nothing; a stream the caller cancels is charged what was produced either way
   * (docs/stores.md, "Failed streams"). Default false.
   * @deprecated Since 0.2: `billing.chargeFailedStreams` (accepted until 0.3).
   */
  chargeFailedStreams?: boolean;
  /**
   * The most gateways a call may pass through: a request that arrives carrying this many hops or
   * more (`x-rosetta-hops`, set on every upstream call) is refused with 508 `loop_detected`, as is
   * one that has already passed through this gateway. Default 5.
   * @deprecated Since 0.2: `limits.maxHops` (accepted until 0.3).
   */
  maxHops?: number;
  /**
   * Where each call's usage record goes (docs/operations.md, "Usage records"): a function
   * `(record) => void | Promise<void>`, or a {@link UsageSink} (`record`, optional `init` / `close`), such as a
   * `MemoryUsageLog` or a `RedisUsageStream` (`rosetta-gateway/redis`). Every model call (generate, count-tokens,
   * image) gets one record, refused calls included, delivered after the call has settled and its response
   * ended, off the response path: a sink that throws, rejects or is slow never affects the caller or the charge.
   * Default: none.
   * @deprecated Since 0.2: `observability.usageSink` (accepted until 0.3).
   */
  usageSink?: UsageSinkOption;
  /**
   * Prometheus metrics, which `gateway.metrics` serves (docs/operations.md, "Metrics"): on by default, in a registry
   * of the gateway's own; an object to pass your registry, a name prefix, per-key labels or histogram buckets;
   * `false` to turn them off (`gateway.metrics` then answers 404).
   * @deprecated Since 0.2: `observability.metrics` (accepted until 0.3).
   */
  metrics?: boolean | MetricsOptions;
  /**
   * Rate limits of every key that does not set its own: requests, tokens (input + output) and calls in flight, per
   * minute, and optionally per model. A key's own `rateLimits` (in `keys[]` or from the key store) override these field
   * by field, and `null` lifts one (docs/operations.md, *Rate limits*). Default: none — a call nobody limits costs no
   * rate-limit work at all.
   * @deprecated Since 0.2: `limits.rateLimits` (accepted until 0.3).
   */
  rateLimits?: KeyRateLimits;
  /**
   * Where rate limits are counted: a {@link MemoryRateLimitStore} (the default, one process), a `RedisRateLimitStore`
   * (`rosetta-gateway/redis`, shared by every instance), or your own.
   * @deprecated Since 0.2: `stores.rateLimits` (accepted until 0.3).
   */
  rateLimitStore?: RateLimitStore;

  // Deployments (docs/routing.md): how calls to a model with several `deployments` are spread, cooled down and kept
  // on their session's deployment, and where that state is shared.
  /**
   * How a model's deployments are chosen and kept healthy (docs/routing.md). Default: weighted random, 3 failures in
   * 60 s cool a deployment down for 30 s (rejected credentials for 5 minutes), session affinity on with a 5-minute
   * idle time.
   */
  routing?: RoutingOptions;
  /** Where the gateway keeps balances, stored answers, rate-limit counts and deployment state ({@link StoreOptions}). */
  stores?: StoreOptions;
  /** Body size, nesting and hop limits, and every key's rate limits ({@link LimitOptions}). */
  limits?: LimitOptions;
  /** Failed streams' charge and the default output cap ({@link BillingOptions}). */
  billing?: BillingOptions;
  /** Usage records and metrics ({@link ObservabilityOptions}). */
  observability?: ObservabilityOptions;
  /**
   * Where deployment health, probe claims, calls in flight and session affinity are kept: a
   * {@link MemoryDeploymentStore} (the default, one process), a `RedisDeploymentStore` (`rosetta-gateway/redis`,
   * shared by every instance), or your own.
   * @deprecated Since 0.2: `stores.deployments` (accepted until 0.3).
   */
  deploymentStore?: DeploymentStateStore;
}

/** `stores`: where the gateway keeps what outlives a call (docs/stores.md). Each defaults to its memory store. */
export interface StoreOptions {
  /** Balances: holds and charges. Default `MemoryQuotaStore` with the `keys` balances (unmetered for a `keyStore`). */
  quota?: QuotaStore;
  /** The Responses API's answers, for `previous_response_id` and `GET /v1/responses/{id}`. Default none. */
  responses?: ResponseStore;
  /**
   * The Anthropic messages API's message threads (`thread`: create, continue), kept for any upstream: a
   * `MemoryThreadStore`, a `RedisThreadStore` (`rosetta-gateway/redis`), or your own. Default none: a `thread` is a 400
   * `thread_unsupported_request`, on which the Anthropic SDK sends the whole conversation itself.
   */
  threads?: ThreadStore;
  /** Where rate limits are counted. Default `MemoryRateLimitStore`. */
  rateLimits?: RateLimitStore;
  /** Deployment health, probe claims, calls in flight and session affinity. Default `MemoryDeploymentStore`. */
  deployments?: DeploymentStateStore;
}

/** `limits`: what one request may be, and the rate limits of every key (docs/errors.md, docs/operations.md). */
export interface LimitOptions {
  /** Largest request body in bytes. Default 33,554,432 (32 MiB). */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects in a body. Default 128. */
  maxJsonDepth?: number;
  /** The most gateways a call may pass through (loop detection). Default 5. */
  maxHops?: number;
  /** Rate limits of every key, under each key's own `rateLimits`. Default none. */
  rateLimits?: KeyRateLimits;
}

/** `billing`: what a call is charged and may produce (docs/operations.md, docs/stores.md). */
export interface BillingOptions {
  /** Charge a stream the upstream broke mid-way for what it produced. Default false. */
  chargeFailedStreams?: boolean;
  /** Output cap of a request that sets none, when its model sets none. Default 4096. */
  defaultMaxOutputTokens?: number;
}

/** `observability`: what the gateway tells its operator (docs/operations.md). */
export interface ObservabilityOptions {
  /** Where each call's usage record goes (a function, a `MemoryUsageLog`, a `RedisUsageStream`, …). Default none. */
  usageSink?: UsageSinkOption;
  /** Prometheus metrics: `true` (default), `false`, or `{ registry?, prefix?, keyLabels?, buckets? }`. */
  metrics?: boolean | MetricsOptions;
  /** Where what the operator must act on is said (an upstream that rejected the gateway's key). Default `console`. */
  logger?: Logger;
  /**
   * OpenTelemetry spans (docs/operations.md, *Traces*): made through `@opentelemetry/api` whenever the host registers
   * an SDK; `{ captureContent: true }` adds the messages in and out to the call's span. Default `{}`.
   */
  traces?: TracesOptions;
}

/** The `routing` option (docs/routing.md). */
export interface RoutingOptions {
  /**
   * Also accept `<provider>/<upstream model>` ids for models not in the table (e.g. `openai/gpt-4.1`), at the default
   * prices. Default false.
   */
  providerModelIds?: boolean;
  /**
   * How a deployment is chosen within its tier: `weighted` (random by weight: stateless, even across instances) or
   * `least-busy` (fewest calls in flight per unit of weight, counted in the deployment store). Default `weighted`.
   */
  strategy?: DeploymentStrategy;
  /** Failures (5xx, timeouts, connection failures, 429s) within `windowMs` that cool a deployment down. Default 3. */
  failures?: number;
  /** The window failures are counted in, in milliseconds. Default 60,000. */
  windowMs?: number;
  /** How long a cooled-down deployment gets no calls, in milliseconds; then one probe call decides. Default 30,000. */
  cooldownMs?: number;
  /** How long a deployment whose upstream rejected the gateway's key is out, in milliseconds. Default 300,000. */
  authCooldownMs?: number;
  /**
   * Session affinity: a session stays on the deployment that served it while that one can take its calls, so the
   * upstream's prompt cache stays warm. `false` turns it off; `idleMs` is how long an idle session is remembered.
   * Default on, `idleMs` 300,000 (the prompt caches' 5-minute lifetime).
   */
  affinity?: boolean | { idleMs?: number };
}

/** The fully resolved configuration a gateway runs on. */
export interface ResolvedOptions {
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  /** Absent: the gateway keeps no answers. */
  responseStore: ResponseStore | undefined;
  /** Absent: the gateway keeps no message threads. */
  threadStore: ThreadStore | undefined;
  /** Each provider resolved once into the shape the pipeline calls, by name. */
  providers: ReadonlyMap<string, ResolvedProvider>;
  models: readonly ModelConfig[];
  codecs: readonly ProtocolCodec[];
  maxBodyBytes: number;
  maxJsonDepth: number;
  defaultMaxOutputTokens: number;
  providerModelIds: boolean;
  chargeFailedStreams: boolean;
  maxHops: number;
  /** Absent: no usage records are built. */
  usageSink: UsageSink | undefined;
  /** Absent: metrics are off. */
  metrics: ResolvedMetricsOptions | undefined;
  /** `observability.traces`, defaults filled in. */
  traces: Required<TracesOptions>;
  /** The rate-limit store (a {@link MemoryRateLimitStore} unless one was given). */
  rateLimitStore: RateLimitStore;
  /** Admits calls against the keys' limits and the default; does nothing for a call nobody limits. */
  rateLimiter: RateLimiter;
  /** The `routing` option and the deployment store, every default filled in. */
  routing: RoutingSettings;
}
