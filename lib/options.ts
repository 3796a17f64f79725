/** Gateway options: the public option type, its defaults, and validation into a resolved configuration. */
import { GatewayConfigError } from './errors';
import { type MetricsOptions, type ResolvedMetricsOptions, resolveMetricsOptions } from './metrics/options';
import type { ModelConfig, ModelType } from './models';
import type { ProtocolCodec } from './protocols/types';
import type { Provider } from './providers/types';
import { PROVIDER_SPECIFICATION_VERSION } from './providers/types';
import { resolveProvider, type ResolvedProvider } from './pipeline/resolved-provider';
import { MemoryKeyStore, type MemoryKeyEntry } from './stores/memory-key-store';
import { MemoryQuotaStore } from './stores/memory-quota-store';
import { MemoryRateLimitStore } from './stores/memory-rate-limit-store';
import { rateLimitsProblem } from './stores/rate-limits';
import type { KeyRateLimits, KeyStore, QuotaStore, RateLimitStore, ResponseStore } from './stores/types';
import { RateLimiter } from './pipeline/rate-limit';
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
  models.forEach((model, index) => {
    const option = `models[${index}]`;
    if (model === null || typeof model !== 'object' || typeof model.id !== 'string' || model.id.length === 0) {
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object with a non-empty string `id`.');
    }
    const provider = providers.get(model.provider);
    if (!provider) {
      fail(
        'ERR_GATEWAY_UNKNOWN_PROVIDER',
        `${option}.provider`,
        `names '${String(model.provider)}', which is not among the providers${suggest(String(model.provider), [...providers.keys()])}.`,
      );
    }
    const type = model.type ?? 'text';
    if (type !== 'text' && type !== 'image' && type !== 'embedding')
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.type`, "must be 'text', 'image' or 'embedding'.");
    if (!provider.serves[type as ModelType])
      fail(
        'ERR_GATEWAY_INVALID_OPTION',
        option,
        `is a ${type} model but provider '${provider.name}' cannot serve ${type} calls.`,
      );
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
  };
}

function resolveUsageSink(option: UsageSinkOption | undefined): UsageSink | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'function' && typeof (option as Partial<UsageSink> | null)?.record !== 'function')
    fail('ERR_GATEWAY_INVALID_OPTION', 'usageSink', 'must be a function or an object with a record() method.');
  return toUsageSink(option);
}
