/** A model's deployments resolved at creation: the upstream accounts that can serve it (configured as `DeploymentConfig`). */
import type { DeploymentConfig } from '../model-config';
import type { ResolvedProvider } from '../resolved-provider';
import type { RateLimits, RateLimitScope } from '../stores/types';

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
