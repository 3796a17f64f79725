/** Gateway options: the public option type, its defaults, and validation into a resolved configuration. */
import { GatewayConfigError } from './errors';
import { type MetricsOptions, type ResolvedMetricsOptions, resolveMetricsOptions } from './metrics/options';
import type { ModelConfig, ModelType } from './model-config';
import type { ProtocolCodec } from './protocols/types';
import type { Provider } from './providers/types';
import { PROVIDER_SPECIFICATION_VERSION } from './providers/types';
import { resolveProvider, type ResolvedProvider } from './resolved-provider';
import { MemoryKeyStore, type MemoryKeyEntry } from './stores/memory-key-store';
import { MemoryQuotaStore } from './stores/memory-quota-store';
import { MemoryDeploymentStore } from './stores/memory-deployment-store';
import { MemoryRateLimitStore } from './stores/memory-rate-limit-store';
import { limitsOnlyProblem, rateLimitsProblem } from './stores/rate-limits';
import type {
  DeploymentStateStore,
  KeyRateLimits,
  KeyStore,
  QuotaStore,
  RateLimitStore,
  ResponseStore,
} from './stores/types';
import { defaultDeploymentName } from './routing/deployments';
import type { RoutingSettings } from './routing/router';
import type { DeploymentStrategy } from './routing/select';
import { RateLimiter } from './rate-limit/limiter';
import { suggest } from './suggest';
import { toUsageSink, type UsageSink, type UsageSinkOption } from './usage/sink';

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

const OPTION_NAMES = [
  'keys',
  'keyStore',
  'quotaStore',
  'responseStore',
  'providers',
  'models',
  'codecs',
  'maxBodyBytes',
  'maxJsonDepth',
  'defaultMaxOutputTokens',
  'providerModelIds',
  'chargeFailedStreams',
  'maxHops',
  'usageSink',
  'metrics',
  'rateLimits',
  'rateLimitStore',
  'routing',
  'deploymentStore',
] as const;

function fail(code: string, option: string, message: string): never {
  throw new GatewayConfigError(code, `createGateway: option '${option}' ${message}`, option);
}

function requireMethods(option: string, value: unknown, required: readonly string[]): void {
  if (value === null || typeof value !== 'object') fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object.');
  for (const method of required) {
    if (typeof (value as Record<string, unknown>)[method] !== 'function') {
      fail('ERR_GATEWAY_INVALID_OPTION', option, `must have a ${method}() method.`);
    }
  }
}

function positiveInteger(
  options: GatewayOptions,
  name: 'maxBodyBytes' | 'maxJsonDepth' | 'defaultMaxOutputTokens' | 'maxHops',
  fallback: number,
): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    fail('ERR_GATEWAY_INVALID_OPTION', name, `must be a positive integer, not ${String(value)}.`);
  return value;
}

function booleanOption(options: GatewayOptions, name: 'providerModelIds' | 'chargeFailedStreams'): boolean {
  const value = options[name];
  if (value !== undefined && typeof value !== 'boolean')
    fail('ERR_GATEWAY_INVALID_OPTION', name, `must be true or false, not ${JSON.stringify(value) ?? String(value)}.`);
  return value === true;
}

function resolveStores(options: GatewayOptions): { keyStore: KeyStore; quotaStore: QuotaStore } {
  if (options.keys !== undefined && options.keyStore !== undefined) {
    fail(
      'ERR_GATEWAY_OPTION_CONFLICT',
      'keys',
      "and 'keyStore' cannot both be given: 'keys' is a shorthand for an in-memory key store.",
    );
  }
  if (options.keys === undefined && options.keyStore === undefined) {
    fail(
      'ERR_GATEWAY_MISSING_KEYS',
      'keys',
      "is required (or give 'keyStore'): a gateway without keys would refuse every call.",
    );
  }
  if (options.quotaStore !== undefined)
    requireMethods('quotaStore', options.quotaStore, ['reserve', 'settle', 'release']);
  if (options.keyStore !== undefined) {
    requireMethods('keyStore', options.keyStore, ['authenticate']);
    return { keyStore: options.keyStore, quotaStore: options.quotaStore ?? new MemoryQuotaStore() };
  }
  if (!Array.isArray(options.keys))
    fail('ERR_GATEWAY_INVALID_OPTION', 'keys', 'must be an array of { key, balance? } objects.');
  const keyStore = new MemoryKeyStore();
  const balances: Record<string, number> = {};
  options.keys.forEach((entry, index) => {
    const option = `keys[${index}]`;
    if (entry === null || typeof entry !== 'object' || typeof entry.key !== 'string' || entry.key.length === 0) {
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object with a non-empty string `key`.');
    }
    if (entry.balance !== undefined && !(typeof entry.balance === 'number' && entry.balance >= 0)) {
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.balance`, 'must be a number >= 0.');
    }
    if (entry.rateLimits !== undefined) checkRateLimits(`${option}.rateLimits`, entry.rateLimits);
    const principal = keyStore.add(entry);
    if (entry.balance !== undefined) balances[principal.id] = entry.balance;
  });
  return { keyStore, quotaStore: options.quotaStore ?? new MemoryQuotaStore({ balances }) };
}

/** Throws the option error for malformed rate limits (each a positive integer or null; `models` by model id). */
function checkRateLimits(option: string, value: unknown): void {
  const problem = rateLimitsProblem(value, option);
  if (problem) throw new GatewayConfigError('ERR_GATEWAY_INVALID_OPTION', `createGateway: option ${problem}`, option);
}

function resolveRateLimits(options: GatewayOptions): { rateLimitStore: RateLimitStore; rateLimiter: RateLimiter } {
  if (options.rateLimits !== undefined) checkRateLimits('rateLimits', options.rateLimits);
  if (options.rateLimitStore !== undefined)
    requireMethods('rateLimitStore', options.rateLimitStore, ['acquire', 'settle']);
  const rateLimitStore = options.rateLimitStore ?? new MemoryRateLimitStore();
  return { rateLimitStore, rateLimiter: new RateLimiter(rateLimitStore, options.rateLimits) };
}

function resolveProviders(options: GatewayOptions, defaults: () => readonly Provider[]): Map<string, ResolvedProvider> {
  const list = options.providers ?? defaults();
  if (!Array.isArray(list) || list.length === 0)
    fail('ERR_GATEWAY_INVALID_OPTION', 'providers', 'must be a non-empty array of providers.');
  const providers = new Map<string, ResolvedProvider>();
  list.forEach((provider, index) => {
    const option = `providers[${index}]`;
    if (provider === null || typeof provider !== 'object')
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be a provider object.');
    if (provider.specificationVersion !== PROVIDER_SPECIFICATION_VERSION) {
      fail(
        'ERR_GATEWAY_PROVIDER_VERSION',
        option,
        `has specificationVersion '${String(provider.specificationVersion)}'; this gateway implements '${PROVIDER_SPECIFICATION_VERSION}'.`,
      );
    }
    if (typeof provider.name !== 'string' || provider.name.length === 0)
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.name`, 'must be a non-empty string.');
    if (!provider.generate && !provider.stream && !provider.generateImage && !provider.embed) {
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must implement generate(), stream(), generateImage() or embed().');
    }
    if (providers.has(provider.name))
      fail('ERR_GATEWAY_DUPLICATE', `${option}.name`, `repeats the provider name '${provider.name}'.`);
    providers.set(provider.name, resolveProvider(provider));
  });
  return providers;
}

const PRICE_NAMES = ['input', 'output', 'image', 'cacheRead', 'cacheWrite', 'cacheWriteLong'] as const;

/** A model's `pricing`: absent, or an object whose prices given are finite numbers of credits, 0 or more. */
function checkPricing(pricing: unknown, option: string): void {
  if (pricing === undefined) return;
  if (pricing === null || typeof pricing !== 'object' || Array.isArray(pricing))
    fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object of prices in credits.');
  for (const name of PRICE_NAMES) {
    const price = (pricing as Record<string, unknown>)[name];
    if (price !== undefined && (typeof price !== 'number' || !Number.isFinite(price) || price < 0))
      fail(
        'ERR_GATEWAY_INVALID_OPTION',
        `${option}.${name}`,
        `must be a finite number of credits, 0 or more, not ${String(price)}.`,
      );
  }
}

function resolveModels(options: GatewayOptions, providers: ReadonlyMap<string, ResolvedProvider>): ModelConfig[] {
  const models = options.models ?? [...providers.values()].flatMap((provider) => provider.defaultModels);
  if (!Array.isArray(models)) fail('ERR_GATEWAY_INVALID_OPTION', 'models', 'must be an array of model configs.');
  const taken = new Set<string>();
  const deploymentsByName = new Map<string, string>();
  models.forEach((model, index) => {
    const option = `models[${index}]`;
    if (model === null || typeof model !== 'object' || typeof model.id !== 'string' || model.id.length === 0) {
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object with a non-empty string `id`.');
    }
    const type = model.type ?? 'text';
    if (type !== 'text' && type !== 'image' && type !== 'embedding')
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.type`, "must be 'text', 'image' or 'embedding'.");
    for (const [where, name] of providerNames(model, option)) {
      const provider = providers.get(name);
      if (!provider) {
        fail(
          'ERR_GATEWAY_UNKNOWN_PROVIDER',
          where,
          `names '${String(name)}', which is not among the providers${suggest(String(name), [...providers.keys()])}.`,
        );
      }
      if (!provider.serves[type as ModelType])
        fail(
          'ERR_GATEWAY_INVALID_OPTION',
          option,
          `is a ${type} model but provider '${provider.name}' cannot serve ${type} calls.`,
        );
    }
    checkDeployments(model, option, deploymentsByName);
    checkPricing(model.pricing, `${option}.pricing`);
    for (const name of [model.id, ...(model.aliases ?? [])]) {
      if (taken.has(name)) fail('ERR_GATEWAY_DUPLICATE', option, `repeats the model id or alias '${name}'.`);
      taken.add(name);
    }
  });
  models.forEach((model, index) => {
    const fallbacks = model.fallbacks ?? [];
    if (!Array.isArray(fallbacks))
      fail('ERR_GATEWAY_INVALID_OPTION', `models[${index}].fallbacks`, 'must be an array of model ids.');
    fallbacks.forEach((id, position) => {
      const option = `models[${index}].fallbacks[${position}]`;
      const target = models.find((candidate) => candidate.id === id || candidate.aliases?.includes(id));
      if (!target)
        fail(
          'ERR_GATEWAY_UNKNOWN_MODEL',
          option,
          `names '${String(id)}', which is not in the model table${suggest(String(id), [...taken])}.`,
        );
      if (target === model) fail('ERR_GATEWAY_INVALID_OPTION', option, 'names the model itself.');
      if ((target.type ?? 'text') !== (model.type ?? 'text'))
        fail(
          'ERR_GATEWAY_INVALID_OPTION',
          option,
          `names a ${target.type ?? 'text'} model as a fallback of a ${model.type ?? 'text'} model.`,
        );
    });
  });
  return [...models];
}

/** The provider names a model entry gives, each with its option path: `provider`, or each deployment's. */
function providerNames(model: ModelConfig, option: string): Array<[string, string]> {
  const { deployments } = model;
  if (deployments !== undefined && model.provider !== undefined)
    fail(
      'ERR_GATEWAY_OPTION_CONFLICT',
      `${option}.provider`,
      "and 'deployments' cannot both be given: 'provider' is a shorthand for one deployment.",
    );
  if (deployments === undefined) return [[`${option}.provider`, model.provider as string]];
  if (!Array.isArray(deployments) || deployments.length === 0)
    fail('ERR_GATEWAY_INVALID_OPTION', `${option}.deployments`, 'must be a non-empty array of { provider, … }.');
  return deployments.map((deployment, index) => {
    if (deployment === null || typeof deployment !== 'object')
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.deployments[${index}]`, 'must be an object { provider, … }.');
    return [`${option}.deployments[${index}].provider`, deployment.provider];
  });
}

/**
 * A model's deployments: text and embedding models only (past one plain deployment), each weight positive, each priority a
 * finite number, names unique in the model and, across models, one name for one provider and upstream id.
 */
function checkDeployments(model: ModelConfig, option: string, byName: Map<string, string>): void {
  const deployments = model.deployments;
  if (deployments === undefined) return;
  const plain = deployments.length === 1 && deployments[0]!.rateLimits === undefined;
  if (model.type === 'image' && !plain)
    fail(
      'ERR_GATEWAY_INVALID_OPTION',
      `${option}.deployments`,
      `can list one deployment without limits for an image model; several are for text and embedding models.`,
    );
  const names = new Set<string>();
  deployments.forEach((deployment, index) => {
    const where = `${option}.deployments[${index}]`;
    const { weight, priority, name, rateLimits } = deployment;
    if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight) && weight > 0))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.weight`, `must be a positive number, not ${String(weight)}.`);
    if (priority !== undefined && !(typeof priority === 'number' && Number.isFinite(priority)))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.priority`, `must be a finite number, not ${String(priority)}.`);
    if (name !== undefined && (typeof name !== 'string' || name.length === 0))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.name`, 'must be a non-empty string.');
    const upstreamModel = deployment.upstreamModel ?? model.upstreamModel ?? model.id;
    if (typeof upstreamModel !== 'string' || upstreamModel.length === 0)
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.upstreamModel`, 'must be a non-empty string.');
    if (rateLimits !== undefined) {
      const problem = limitsOnlyProblem(rateLimits, `${where}.rateLimits`);
      if (problem)
        throw new GatewayConfigError('ERR_GATEWAY_INVALID_OPTION', `createGateway: option ${problem}`, where);
    }
    const id = name ?? defaultDeploymentName(deployment.provider, upstreamModel);
    if (names.has(id))
      fail(
        'ERR_GATEWAY_DUPLICATE',
        `${where}.name`,
        `repeats the deployment name '${id}' (give each a distinct name).`,
      );
    names.add(id);
    const target = `${deployment.provider}\n${upstreamModel}`;
    const known = byName.get(id);
    if (known !== undefined && known !== target)
      fail(
        'ERR_GATEWAY_DUPLICATE',
        `${where}.name`,
        `names '${id}', which another model gives to another provider or upstream model.`,
      );
    byName.set(id, target);
  });
}

function resolveCodecs(options: GatewayOptions, builtins: readonly ProtocolCodec[]): ProtocolCodec[] {
  const byName = new Map(builtins.map((codec) => [codec.name, codec]));
  (options.codecs ?? []).forEach((codec, index) => {
    const option = `codecs[${index}]`;
    requireMethods(option, codec, ['match', 'extractKey', 'encodeError']);
    if (typeof codec.name !== 'string' || codec.name.length === 0)
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.name`, 'must be a non-empty string.');
    byName.set(codec.name, codec);
  });
  return [...byName.values()];
}

/** Validates options and merges them over the defaults. Never mutates `options`. */
export function resolveOptions(
  options: GatewayOptions,
  defaults: { providers: () => readonly Provider[]; codecs: readonly ProtocolCodec[] },
): ResolvedOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new GatewayConfigError(
      'ERR_GATEWAY_INVALID_OPTIONS',
      'createGateway: options must be an object, e.g. createGateway({ keys: [{ key: "…" }] }).',
    );
  }
  for (const name of Object.keys(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) {
      fail('ERR_GATEWAY_UNKNOWN_OPTION', name, `is not an option${suggest(name, OPTION_NAMES)}.`);
    }
  }
  const { keyStore, quotaStore } = resolveStores(options);
  if (options.responseStore !== undefined)
    requireMethods('responseStore', options.responseStore, ['put', 'get', 'delete']);
  const providers = resolveProviders(options, defaults.providers);
  return {
    keyStore,
    quotaStore,
    responseStore: options.responseStore,
    providers,
    models: resolveModels(options, providers),
    codecs: resolveCodecs(options, defaults.codecs),
    maxBodyBytes: positiveInteger(options, 'maxBodyBytes', 32 * 1024 * 1024),
    maxJsonDepth: positiveInteger(options, 'maxJsonDepth', 128),
    defaultMaxOutputTokens: positiveInteger(options, 'defaultMaxOutputTokens', 4096),
    providerModelIds: booleanOption(options, 'providerModelIds'),
    chargeFailedStreams: booleanOption(options, 'chargeFailedStreams'),
    maxHops: positiveInteger(options, 'maxHops', 5),
    usageSink: resolveUsageSink(options.usageSink),
    metrics: resolveMetricsOptions(options.metrics),
    ...resolveRateLimits(options),
    routing: resolveRouting(options),
  };
}

const ROUTING_NAMES = ['strategy', 'failures', 'windowMs', 'cooldownMs', 'authCooldownMs', 'affinity'] as const;

/** The `routing` option and `deploymentStore`, checked, with every default filled in. */
function resolveRouting(options: GatewayOptions): RoutingSettings {
  const routing = options.routing ?? {};
  if (routing === null || typeof routing !== 'object' || Array.isArray(routing))
    fail('ERR_GATEWAY_INVALID_OPTION', 'routing', 'must be an object.');
  for (const name of Object.keys(routing)) {
    if (!(ROUTING_NAMES as readonly string[]).includes(name))
      fail('ERR_GATEWAY_UNKNOWN_OPTION', `routing.${name}`, `is not an option${suggest(name, ROUTING_NAMES)}.`);
  }
  const strategy = routing.strategy ?? 'weighted';
  if (strategy !== 'weighted' && strategy !== 'least-busy')
    fail('ERR_GATEWAY_INVALID_OPTION', 'routing.strategy', "must be 'weighted' or 'least-busy'.");
  const count = (name: 'failures' | 'windowMs' | 'cooldownMs' | 'authCooldownMs', fallback: number): number => {
    const value = routing[name];
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value <= 0)
      fail('ERR_GATEWAY_INVALID_OPTION', `routing.${name}`, `must be a positive integer, not ${String(value)}.`);
    return value;
  };
  const affinity = routing.affinity ?? true;
  let affinityIdleMs: number | undefined;
  if (affinity === true) affinityIdleMs = 300_000;
  else if (affinity !== false) {
    if (affinity === null || typeof affinity !== 'object')
      fail('ERR_GATEWAY_INVALID_OPTION', 'routing.affinity', 'must be true, false or { idleMs }.');
    const idleMs = affinity.idleMs ?? 300_000;
    if (!Number.isSafeInteger(idleMs) || idleMs <= 0)
      fail(
        'ERR_GATEWAY_INVALID_OPTION',
        'routing.affinity.idleMs',
        `must be a positive integer, not ${String(idleMs)}.`,
      );
    affinityIdleMs = idleMs;
  }
  if (options.deploymentStore !== undefined)
    requireMethods('deploymentStore', options.deploymentStore, [
      'read',
      'fail',
      'succeed',
      'claimProbe',
      'enter',
      'leave',
      'affinity',
      'setAffinity',
    ]);
  return {
    strategy,
    failures: count('failures', 3),
    windowMs: count('windowMs', 60_000),
    cooldownMs: count('cooldownMs', 30_000),
    authCooldownMs: count('authCooldownMs', 300_000),
    affinityIdleMs,
    store: options.deploymentStore ?? new MemoryDeploymentStore(),
  };
}

function resolveUsageSink(option: UsageSinkOption | undefined): UsageSink | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'function' && typeof (option as Partial<UsageSink> | null)?.record !== 'function')
    fail('ERR_GATEWAY_INVALID_OPTION', 'usageSink', 'must be a function or an object with a record() method.');
  return toUsageSink(option);
}
