/** A model's deployments: the upstream accounts that can serve it, as configured and as resolved at creation. */
import type { ResolvedProvider } from '../pipeline/resolved-provider';
import type { RateLimits, RateLimitScope } from '../stores/types';

/**
 * One deployment of a model (docs/routing.md): a provider (one upstream account: its vendor protocol, base URL and
 * key) with the model's id there, how much of the traffic it takes, its priority tier and its own limits.
 */
export interface DeploymentConfig {
  /** The `name` of the provider (the upstream account) that serves it. */
  provider: string;
  /** The id sent upstream. Default: the model's `upstreamModel`, else its `id`. */
  upstreamModel?: string;
  /** Its share of the calls within its tier, relative to the others' (a positive number). Default 1. */
  weight?: number;
  /** Its tier: a lower tier is used first, a higher one only while every deployment below is out. Default 0. */
  priority?: number;
  /**
   * Its id in usage records, metrics, logs and the health view, and in the deployment state store: unique within
   * the model. Two models naming the same deployment share its health and limits. Default
   * `<provider>/<upstreamModel>`.
   */
  name?: string;
  /**
   * Its own requests per minute, tokens (input + output) per minute and calls in flight, counted in the gateway's
   * `rateLimitStore`. A deployment at its limit is skipped, never called. Default: none.
   */
  rateLimits?: RateLimits;
}

/** A deployment resolved at creation: what selection and the provider call read, with no checks per call. */
export interface ResolvedDeployment {
  readonly name: string;
  readonly provider: ResolvedProvider;
  readonly upstreamModel: string;
  readonly weight: number;
  readonly priority: number;
  /** Its rate-limit scope (`deployment\n<name>`) as the store takes it, made once; undefined when it has no limits. */
  readonly scopes: readonly RateLimitScope[] | undefined;
}

/** The deployment name used when none is given. */
export function defaultDeploymentName(provider: string, upstreamModel: string): string {
  return `${provider}/${upstreamModel}`;
}

/** The rate-limit scope of a deployment with limits; undefined without. */
export function deploymentScope(name: string, limits: RateLimits | undefined): RateLimitScope | undefined {
  if (!limits) return undefined;
  const { requestsPerMinute, tokensPerMinute, concurrent } = limits;
  if (requestsPerMinute == null && tokensPerMinute == null && concurrent == null) return undefined;
  return {
    id: `deployment\n${name}`,
    ...(requestsPerMinute != null ? { requestsPerMinute } : {}),
    ...(tokensPerMinute != null ? { tokensPerMinute } : {}),
    ...(concurrent != null ? { concurrent } : {}),
  };
}

/** Resolves a model's deployments (checked by `resolveOptions`), sorted by tier, the configured order kept within one. */
export function resolveDeployments(
  configs: readonly DeploymentConfig[],
  providers: ReadonlyMap<string, ResolvedProvider>,
  defaultUpstreamModel: string,
): ResolvedDeployment[] {
  const resolved = configs.map((config): ResolvedDeployment => {
    const provider = providers.get(config.provider);
    if (!provider) throw new Error(`unknown provider ${config.provider}`);
    const upstreamModel = config.upstreamModel ?? defaultUpstreamModel;
    const name = config.name ?? defaultDeploymentName(provider.name, upstreamModel);
    return {
      name,
      provider,
      upstreamModel,
      weight: config.weight ?? 1,
      priority: config.priority ?? 0,
      scopes: scopeList(deploymentScope(name, config.rateLimits)),
    };
  });
  return resolved.sort((a, b) => a.priority - b.priority);
}

function scopeList(scope: RateLimitScope | undefined): readonly RateLimitScope[] | undefined {
  return scope ? [scope] : undefined;
}
