/**
 * What a routing choice can end in besides a deployment: a deployment passed over (and why), no deployment able to
 * take the call (429 or 503), and the store failing (routing by weight alone).
 */
import { GatewayError } from '../errors';
import { logProvider } from '../log';
import { type DeploymentState, HEALTHY_DEPLOYMENT } from '../stores/types';
import type { UsageAttempt } from '../usage/record';
import type { ResolvedDeployment } from './deployments';

/** Why a deployment was passed over: cooling down, another caller's probe under way, or at its own rate limit. */
export type SkipReason = 'cooldown' | 'probe' | 'rate_limit';

/** The codes of the errors a call gets when no deployment of its model can take it (the next model may). */
export const DEPLOYMENTS_OUT_CODES: ReadonlySet<string> = new Set(['deployments_at_limit', 'no_healthy_deployment']);

/** The states of a model's deployments when the store cannot be read: all healthy (routing by weight alone). */
export function allHealthy(
  model: { readonly deploymentNames: readonly string[] },
  error: unknown,
): readonly DeploymentState[] {
  logProvider('the deployment store could not be read; routing by weight alone: %O', error);
  return model.deploymentNames.map(() => HEALTHY_DEPLOYMENT);
}

/** No session's deployment when the store cannot be read. */
export function noSession(error: unknown): undefined {
  logProvider('the deployment store could not read a session: %O', error);
  return undefined;
}

/**
 * Whether a deployment other than the one at `chosen` could take the call if that one fails: not tried in this call,
 * not cooling down, not being probed by another caller, not found at its limit in this choice (`refused`).
 */
export function hasAlternative(
  deployments: readonly ResolvedDeployment[],
  states: readonly DeploymentState[],
  chosen: number,
  excluded: ReadonlySet<string> | undefined,
  refused: readonly number[] | undefined,
): boolean {
  for (let index = 0; index < deployments.length; index++) {
    if (index === chosen || refused?.includes(index) || excluded?.has(deployments[index]!.name)) continue;
    const state = states[index]!;
    if (state.coolingMs > 0 || (state.probation && state.probing)) continue;
    return true;
  }
  return false;
}

export function skipped(
  model: { readonly id: string },
  deployment: ResolvedDeployment,
  reason: SkipReason,
): UsageAttempt {
  return {
    model: model.id,
    provider: deployment.provider.name,
    upstreamModel: deployment.upstreamModel,
    deployment: deployment.name,
    skipped: reason,
  };
}

/** The error of a call no deployment of its model can take: 429 when one is at its limit, else 503. */
export function allOut(model: { readonly id: string }, limited: boolean, waitMs: number): GatewayError {
  const wait = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs)) : 1000;
  const seconds = Math.max(1, Math.ceil(wait / 1000));
  const headers = { 'retry-after-ms': String(wait) };
  if (limited)
    return new GatewayError(
      'rate_limit',
      `Every deployment of the model '${model.id}' is at its rate limit or cooling down; try again in ${seconds} s.`,
      { code: 'deployments_at_limit', retryAfter: seconds, headers },
    );
  return new GatewayError(
    'unavailable',
    `Every deployment of the model '${model.id}' is cooling down after upstream failures; try again in ${seconds} s.`,
    { code: 'no_healthy_deployment', retryAfter: seconds, headers },
  );
}
