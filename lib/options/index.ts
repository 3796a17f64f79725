/**
 * createGateway's options validated into the resolved configuration a gateway runs on (the option types in
 * ./types.ts, the model table's checks in ./models.ts). Never mutates the caller's object.
 */
import { GatewayConfigError } from '../errors';
import { resolveMetricsOptions } from '../metrics/options';
import type { ProtocolCodec } from '../protocols/types';
import type { Provider } from '../providers/types';
import { PROVIDER_SPECIFICATION_VERSION } from '../providers/types';
import { resolveProvider, type ResolvedProvider } from '../resolved-provider';
import { MemoryKeyStore } from '../stores/memory-key-store';
import { MemoryQuotaStore } from '../stores/memory-quota-store';
import { MemoryDeploymentStore } from '../stores/memory-deployment-store';
import { MemoryRateLimitStore } from '../stores/memory-rate-limit-store';
import { rateLimitsProblem } from '../stores/rate-limits';
import type { KeyStore, QuotaStore, RateLimitStore } from '../stores/types';
import type { RoutingSettings } from '../routing/router';
import { RateLimiter } from '../rate-limit/limiter';
import { suggest } from '../suggest';
import { toUsageSink, type UsageSink, type UsageSinkOption } from '../usage/sink';

import { booleanOption, gatewayOptionError as fail, positiveInteger, shown } from '../config-check';
import type { TracesOptions } from '../tracing/call-trace';
import type { Logger } from '../log';
import { flattenOptions, GROUPED_OPTION_NAMES } from './groups';
import { resolveModels } from './models';
import type { GatewayOptions, ResolvedOptions } from './types';

export type {
  BillingOptions,
  GatewayKey,
  GatewayOptions,
  LimitOptions,
  ObservabilityOptions,
  ResolvedOptions,
  RoutingOptions,
  StoreOptions,
} from './types';

/** Every top-level name accepted: the grouped form's, and the flat names of 0.1 (until 0.3). */
const OPTION_NAMES = [
  'stores',
  'limits',
  'billing',
  'observability',
  'keys',
  'keyStore',
  'quotaStore',
  'responseStore',
  'threadStore',
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

function requireMethods(option: string, value: unknown, required: readonly string[]): void {
  if (value === null || typeof value !== 'object') fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object.');
  for (const method of required) {
    if (typeof (value as Record<string, unknown>)[method] !== 'function') {
      fail('ERR_GATEWAY_INVALID_OPTION', option, `must have a ${method}() method.`);
    }
  }
}

function positiveIntegerOption(
  options: GatewayOptions,
  name: 'maxBodyBytes' | 'maxJsonDepth' | 'defaultMaxOutputTokens' | 'maxHops',
  fallback: number,
): number {
  return positiveInteger('createGateway', name, options[name], fallback);
}

function flag(options: GatewayOptions, name: 'providerModelIds' | 'chargeFailedStreams'): boolean {
  return booleanOption('createGateway', name, options[name], false);
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
  given: GatewayOptions,
  defaults: { providers: () => readonly Provider[]; codecs: readonly ProtocolCodec[] },
): ResolvedOptions {
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new GatewayConfigError(
      'ERR_GATEWAY_INVALID_OPTIONS',
      'createGateway: options must be an object, e.g. createGateway({ keys: [{ key: "…" }] }).',
    );
  }
  for (const name of Object.keys(given)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) {
      fail(
        'ERR_GATEWAY_UNKNOWN_OPTION',
        name,
        `is not an option${suggest(name, GROUPED_OPTION_NAMES) || suggest(name, OPTION_NAMES)}.`,
      );
    }
  }
  // The grouped settings under their flat names; the rest of the resolution reads those.
  const options = flattenOptions(given);
  const { keyStore, quotaStore } = resolveStores(options);
  if (options.responseStore !== undefined)
    requireMethods('responseStore', options.responseStore, ['put', 'get', 'delete']);
  if (options.threadStore !== undefined) requireMethods('stores.threads', options.threadStore, ['put', 'get']);
  const providers = resolveProviders(options, defaults.providers);
  return {
    keyStore,
    quotaStore,
    responseStore: options.responseStore,
    threadStore: options.threadStore,
    providers,
    models: resolveModels(options, providers),
    codecs: resolveCodecs(options, defaults.codecs),
    maxBodyBytes: positiveIntegerOption(options, 'maxBodyBytes', 32 * 1024 * 1024),
    maxJsonDepth: positiveIntegerOption(options, 'maxJsonDepth', 128),
    defaultMaxOutputTokens: positiveIntegerOption(options, 'defaultMaxOutputTokens', 4096),
    providerModelIds: flag(options, 'providerModelIds'),
    chargeFailedStreams: flag(options, 'chargeFailedStreams'),
    maxHops: positiveIntegerOption(options, 'maxHops', 5),
    usageSink: resolveUsageSink(options.usageSink),
    metrics: resolveMetricsOptions(options.metrics),
    traces: resolveTraces((options as { traces?: unknown }).traces),
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
    logger: resolveLogger((options as { logger?: unknown }).logger),
  };
}

/** `observability.traces`: `{ captureContent?: boolean }`. */
function resolveTraces(value: unknown): Required<TracesOptions> {
  if (value === undefined) return { captureContent: false };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail('ERR_GATEWAY_INVALID_OPTION', 'observability.traces', `must be an object, not ${shown(value)}.`);
  for (const name of Object.keys(value))
    if (name !== 'captureContent')
      fail(
        'ERR_GATEWAY_UNKNOWN_OPTION',
        `observability.traces.${name}`,
        `is not an option${suggest(name, ['captureContent'])}.`,
      );
  const capture = (value as TracesOptions).captureContent;
  if (capture !== undefined && typeof capture !== 'boolean')
    fail(
      'ERR_GATEWAY_INVALID_OPTION',
      'observability.traces.captureContent',
      `must be a boolean, not ${shown(capture)}.`,
    );
  return { captureContent: capture === true };
}

/** `observability.logger`: an object with a `warn(message)` method; default `console`. */
function resolveLogger(value: unknown): Logger {
  if (value === undefined) return console;
  if (value === null || typeof (value as Partial<Logger>).warn !== 'function')
    fail('ERR_GATEWAY_INVALID_OPTION', 'observability.logger', 'must be an object with a warn(message) method.');
  return value as Logger;
}

function resolveUsageSink(option: UsageSinkOption | undefined): UsageSink | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'function' && typeof (option as Partial<UsageSink> | null)?.record !== 'function')
    fail('ERR_GATEWAY_INVALID_OPTION', 'usageSink', 'must be a function or an object with a record() method.');
  return toUsageSink(option);
}
