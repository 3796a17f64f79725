/**
 * The options grouped by concern (`stores`, `limits`, `billing`, `observability`, `routing.providerModelIds`: the
 * documented form since 0.2) and the flat names of 0.1 they stand for, still accepted until 0.3. A setting given both
 * ways is a conflict.
 */
import { gatewayOptionError as fail, shown } from '../config-check';
import { suggest } from '../suggest';
import type { GatewayOptions } from './types';

/** Each group's members and the flat option each stands for. */
const GROUPS = {
  stores: {
    quota: 'quotaStore',
    responses: 'responseStore',
    threads: 'threadStore',
    rateLimits: 'rateLimitStore',
    deployments: 'deploymentStore',
  },
  limits: { maxBodyBytes: 'maxBodyBytes', maxJsonDepth: 'maxJsonDepth', maxHops: 'maxHops', rateLimits: 'rateLimits' },
  billing: { chargeFailedStreams: 'chargeFailedStreams', defaultMaxOutputTokens: 'defaultMaxOutputTokens' },
  observability: { usageSink: 'usageSink', metrics: 'metrics', logger: 'logger', traces: 'traces' },
} as const satisfies Record<string, Record<string, keyof GatewayOptions | 'logger' | 'traces'>>;

/** The top-level names a host writes: the groups and the options of no group. */
export const GROUPED_OPTION_NAMES = [
  'keys',
  'keyStore',
  'providers',
  'models',
  'stores',
  'limits',
  'billing',
  'routing',
  'observability',
  'codecs',
] as const;

/** `options` with every grouped setting under its flat name (what the resolution reads); never mutates `options`. */
export function flattenOptions(options: GatewayOptions): GatewayOptions {
  let flat: Record<string, unknown> | undefined;
  const set = (name: string, value: unknown, from: string) => {
    flat ??= { ...options };
    if ((options as Record<string, unknown>)[name] !== undefined)
      fail('ERR_GATEWAY_OPTION_CONFLICT', name, `and '${from}' are the same setting: give '${from}' only.`);
    flat[name] = value;
  };
  for (const [group, members] of Object.entries(GROUPS)) {
    const value = (options as Record<string, unknown>)[group];
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      fail('ERR_GATEWAY_INVALID_OPTION', group, `must be an object, not ${shown(value)}.`);
    const names = Object.keys(members);
    for (const [member, memberValue] of Object.entries(value)) {
      const name = (members as Record<string, string>)[member];
      if (name === undefined)
        fail('ERR_GATEWAY_UNKNOWN_OPTION', `${group}.${member}`, `is not an option${suggest(member, names)}.`);
      if (memberValue !== undefined) set(name, memberValue, `${group}.${member}`);
    }
  }
  const routing = options.routing as Record<string, unknown> | undefined;
  if (routing && typeof routing === 'object' && routing.providerModelIds !== undefined) {
    const { providerModelIds, ...rest } = routing;
    set('providerModelIds', providerModelIds, 'routing.providerModelIds');
    flat!.routing = rest;
  }
  return (flat ?? options) as GatewayOptions;
}
