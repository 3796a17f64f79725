/** The options of createGateway as a host writes them, and the resolved configuration a gateway runs on. */
import type { MetricsOptions, ResolvedMetricsOptions } from '../metrics/options';
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
  /** Your quota store. Default: a {@link MemoryQuotaStore} (unmetered unless `keys` give balances). */
  quotaStore?: QuotaStore;
  /**
   * Where answers are kept for the Responses API's `store` / `previous_response_id` and
   * `GET` / `DELETE /v1/responses/{id}`: a `MemoryResponseStore`, a `RedisResponseStore`
   * (`rosetta-gateway/redis`), or your own. Default: none — nothing is kept, `previous_response_id`
   * is a 400 asking for the whole input, and answers echo `store: false` (docs/stores.md, *ResponseStore*).
   */
  responseStore?: ResponseStore;
  /** Upstream providers. Default: `[new LocalProvider()]`, the embedded offline provider. */
  providers?: readonly Provider[];
  /** The model table. Default: every provider's `defaultModels`. */
  models?: readonly ModelConfig[];
  /**
   * Protocol codecs, merged by `name` over the built-in ones (`openai-chat`, `openai-images`,
   * `anthropic-messages`, `gemini`): a codec with a built-in's name replaces it, others are added.
   */
  codecs?: readonly ProtocolCodec[];
  /** Largest request body accepted, in bytes; a larger one is a 413. Default 32 MiB. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a request body (the body itself is level 1);
   * a deeper one is a 400 `json_too_deep`, checked before the body is parsed. Default 128.
   */
  maxJsonDepth?: number;
  /** Output cap for a request that sets none, when its model sets none either. Default 4096. */
  defaultMaxOutputTokens?: number;
  /**
   * Accept `<provider>/<upstream model>` ids for models not in the table (e.g. `openai/gpt-4o-mini`),
   * at the default prices. Keys with `allowedModels` need the id or `<provider>/*`. Default false.
   */
  providerModelIds?: boolean;
  /**
   * Whether a stream that fails mid-way because the upstream broke (an in-stream error, a dropped
   * or malformed upstream stream) is charged for its input and the output produced so far. Off, such a
   * stream is charged nothing; a stream the caller cancels is charged what was produced either way
   * (docs/stores.md, "Failed streams"). Default false.
   */
  chargeFailedStreams?: boolean;
  /**
   * The most gateways a call may pass through: a request that arrives carrying this many hops or
   * more (`x-rosetta-hops`, set on every upstream call) is refused with 508 `loop_detected`, as is
   * one that has already passed through this gateway. Default 5.
   */
  maxHops?: number;
  /**
   * Where each call's usage record goes (docs/operations.md, "Usage records"): a function
   * `(record) => void | Promise<void>`, or a {@link UsageSink} (`record`, optional `init` / `close`), such as a
   * `MemoryUsageLog` or a `RedisUsageStream` (`rosetta-gateway/redis`). Every model call (generate, count-tokens,
   * image) gets one record, refused calls included, delivered after the call has settled and its response
   * ended, off the response path: a sink that throws, rejects or is slow never affects the caller or the charge.
   * Default: none.
   */
  usageSink?: UsageSinkOption;
  /**
   * Prometheus metrics, which `gateway.metrics` serves (docs/operations.md, "Metrics"): on by default, in a registry
   * of the gateway's own; an object to pass your registry, a name prefix, per-key labels or histogram buckets;
   * `false` to turn them off (`gateway.metrics` then answers 404).
   */
  metrics?: boolean | MetricsOptions;
  /**
   * Rate limits of every key that does not set its own: requests, tokens (input + output) and calls in flight, per
   * minute, and optionally per model. A key's own `rateLimits` (in `keys[]` or from the key store) override these field
   * by field, and `null` lifts one (docs/operations.md, *Rate limits*). Default: none — a call nobody limits costs no
   * rate-limit work at all.
   */
  rateLimits?: KeyRateLimits;
  /**
   * Where rate limits are counted: a {@link MemoryRateLimitStore} (the default, one process), a `RedisRateLimitStore`
   * (`rosetta-gateway/redis`, shared by every instance), or your own.
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
  /**
   * Where deployment health, probe claims, calls in flight and session affinity are kept: a
   * {@link MemoryDeploymentStore} (the default, one process), a `RedisDeploymentStore` (`rosetta-gateway/redis`,
   * shared by every instance), or your own.
   */
  deploymentStore?: DeploymentStateStore;
}

/** The `routing` option (docs/routing.md). */
export interface RoutingOptions {
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
  /** The rate-limit store (a {@link MemoryRateLimitStore} unless one was given). */
  rateLimitStore: RateLimitStore;
  /** Admits calls against the keys' limits and the default; does nothing for a call nobody limits. */
  rateLimiter: RateLimiter;
  /** The `routing` option and the deployment store, every default filled in. */
  routing: RoutingSettings;
}
