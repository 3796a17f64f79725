/**
 * One gateway's deployment routing (docs/routing.md): for a call to a model with several deployments (or one with
 * limits), the deployment to call — its session's while that one can take it, else one drawn in the best tier with a
 * deployment that is healthy and under its limits — and what each attempt's outcome does to its health.
 */
import { isPromiseLike } from '../promise';
import type { Usage } from '../canonical';
import type { GatewayError } from '../errors';
import { type Logger, logProvider } from '../log';
import { RateSlot, usedTokens } from '../rate-limit/slot';
import type {
  DeploymentState,
  DeploymentStateStore,
  MaybePromise,
  RateLimitResult,
  RateLimitStore,
} from '../stores/types';
import type { UsageAttempt } from '../usage/record';
import type { ResolvedDeployment } from './deployments';
import {
  DEPLOYMENT_FAILURE_KINDS,
  failureOf,
  type HealthSettings,
  LocalDeploymentFacts,
  type RecentFailure,
} from './health';
import { type DeploymentStrategy, pickLeastBusy, pickWeighted } from './select';
import { allHealthy, allOut, hasAlternative, noSession, type SkipReason, skipped } from './outcomes';

/** The `routing` option resolved: every default filled in. */
export interface RoutingSettings extends HealthSettings {
  strategy: DeploymentStrategy;
  /** Session affinity's idle time in milliseconds; undefined: affinity is off. */
  affinityIdleMs: number | undefined;
  store: DeploymentStateStore;
  /** Where a rejected upstream key is reported (`observability.logger`). */
  logger: Logger;
}

/**
 * What routing reads of a model (the model table's `ResolvedModel` is one): its id, its deployments, and its router
 * (undefined for a model that is not routed).
 */
export interface RoutedModel {
  readonly id: string;
  readonly deployments: readonly ResolvedDeployment[];
  readonly deploymentNames: readonly string[];
  readonly router: DeploymentRouter | undefined;
}

/** What routing reads and writes of a call (the pipeline's `Call` is one): its id, and the attempts it lists. */
export interface RoutedCall {
  readonly requestId: string;
  readonly attempts: UsageAttempt[];
}

/** Whether the call's session stayed on its deployment (`held`), had to leave it (`moved`) or had none (`new`). */
export type AffinityOutcome = 'held' | 'moved' | 'new';

export { DEPLOYMENTS_OUT_CODES, type SkipReason } from './outcomes';

/** The wait a caller is told while another caller's probe decides (a guess: about one call). */
const PROBE_WAIT_MS = 1000;

/** A deployment chosen for one attempt: released once, with the tokens the call used, however it ended. */
export class ChosenDeployment {
  private finished = false;

  constructor(
    private readonly router: DeploymentRouter,
    readonly deployment: ResolvedDeployment,
    readonly state: DeploymentState,
    private readonly slot: RateSlot | undefined,
    readonly affinity: AffinityOutcome | undefined,
    /**
     * Whether another deployment of the model would take the call if this one failed (one not tried, not cooling
     * down, not being probed, not found at its limit): then the provider does not retry inside the attempt.
     */
    readonly alternative: boolean,
  ) {}

  /**
   * Its stream ended after the first byte reached the caller: a break that is the deployment's fault
   * (`DEPLOYMENT_FAILURE_KINDS`) counts against its health (nothing is retried: the caller has bytes); any other end
   * (finished, the caller left, the gateway's own failure) is a success.
   */
  streamEnded(failure: GatewayError | undefined, requestId: string): void {
    if (failure !== undefined && DEPLOYMENT_FAILURE_KINDS.has(failure.kind))
      void this.router.failed(this, failure, requestId);
    else this.router.healthy(this);
  }

  /** Gives back its rate-limit slot (settled with the tokens used) and its place among the calls in flight. */
  end(usage: Usage | undefined): void {
    if (this.finished) return;
    this.finished = true;
    this.slot?.settle(usage ? usedTokens(usage) : 0);
    this.router.left(this.deployment);
  }
}

/** Routes the calls of one gateway's models with deployments; holds no state a second gateway shares. */
export class DeploymentRouter {
  private readonly facts = new Map<string, LocalDeploymentFacts>();

  constructor(
    readonly settings: RoutingSettings,
    private readonly rateLimitStore: RateLimitStore,
  ) {}

  /** Whether calls are kept on their session's deployment. */
  get affinity(): boolean {
    return this.settings.affinityIdleMs !== undefined;
  }

  /** This process's facts of a deployment (made on first use). */
  factsOf(name: string): LocalDeploymentFacts {
    let facts = this.facts.get(name);
    if (!facts) {
      facts = new LocalDeploymentFacts();
      this.facts.set(name, facts);
    }
    return facts;
  }

  /**
   * The deployment for the next attempt of a call to `model`, not one of `excluded` (those already failed in this
   * call): the session's while it is in the best tier that can take the call, healthy and under its limits, else
   * one drawn among that tier's. Passed-over deployments are listed in the call's attempts when `noteSkips`.
   * Throws a 429 (every one at its limit) or a 503 (every one cooling down) with `Retry-After` when none can.
   */
  async choose(
    model: RoutedModel,
    call: RoutedCall,
    session: string | undefined,
    excluded: ReadonlySet<string> | undefined,
    tokens: () => number,
    noteSkips: boolean,
  ): Promise<ChosenDeployment> {
    const deployments = model.deployments;
    // Awaited only when the store answers with a promise (the memory store answers at once).
    const read = this.read(model);
    const states = isPromiseLike(read) ? await read : read;
    const held = session === undefined ? undefined : this.previous(session);
    const previous = isPromiseLike(held) ? await held : held;
    let wait = Number.POSITIVE_INFINITY;
    let limited = false;
    // Deployments found unable to take the call in this choice (at their limit, or probed by another caller).
    let refused: number[] | undefined;
    const skip = (deployment: ResolvedDeployment, reason: SkipReason, waitMs: number) => {
      if (waitMs < wait) wait = waitMs;
      if (reason === 'rate_limit') limited = true;
      if (noteSkips) call.attempts.push(skipped(model, deployment, reason));
    };
    let index = 0;
    while (index < deployments.length) {
      const priority = deployments[index]!.priority;
      const candidates: number[] = [];
      for (; index < deployments.length && deployments[index]!.priority === priority; index++) {
        const deployment = deployments[index]!;
        if (excluded?.has(deployment.name)) continue;
        const state = states[index]!;
        if (state.coolingMs > 0) skip(deployment, 'cooldown', state.coolingMs);
        else if (state.probation && state.probing) skip(deployment, 'probe', PROBE_WAIT_MS);
        else candidates.push(index);
      }
      let held = previous === undefined ? -1 : candidates.findIndex((at) => deployments[at]!.name === previous);
      while (candidates.length > 0) {
        const at = held >= 0 ? held : this.pick(candidates, deployments, states);
        held = -1;
        const chosenIndex = candidates[at]!;
        candidates.splice(at, 1);
        const deployment = deployments[chosenIndex]!;
        const state = states[chosenIndex]!;
        let slot: RateSlot | undefined;
        if (deployment.scopes) {
          const admitted = await this.admit(deployment, tokens, call.requestId);
          if (!admitted.ok) {
            skip(deployment, 'rate_limit', admitted.retryAfterMs);
            (refused ??= []).push(chosenIndex);
            continue;
          }
          slot = new RateSlot(this.rateLimitStore, admitted.lease, undefined, call.requestId);
        }
        if (state.probation && !(await this.claimProbe(deployment))) {
          slot?.release();
          skip(deployment, 'probe', PROBE_WAIT_MS);
          (refused ??= []).push(chosenIndex);
          continue;
        }
        if (state.probation) logProvider('%s probes %s after its cooldown', call.requestId, deployment.name);
        const affinity =
          session === undefined ? undefined : previous === deployment.name ? 'held' : previous ? 'moved' : 'new';
        this.entered(deployment);
        const alternative = hasAlternative(deployments, states, chosenIndex, excluded, refused);
        return new ChosenDeployment(this, deployment, state, slot, affinity, alternative);
      }
    }
    throw allOut(model, limited, wait);
  }

  /** The chosen deployment answered (a stream: opened): the call's session is kept on it. */
  served(chosen: ChosenDeployment, session: string | undefined): void {
    const { deployment } = chosen;
    this.factsOf(deployment.name).served += 1;
    const idleMs = this.settings.affinityIdleMs;
    if (session !== undefined && idleMs !== undefined)
      this.quietly(this.settings.store.setAffinity(session, deployment.name, idleMs));
  }

  /**
   * The chosen deployment's answer is whole (a stream: ended other than by its own failure): its failures are
   * forgotten (a probe that passed ends its probation).
   */
  healthy(chosen: ChosenDeployment): void {
    const { deployment, state } = chosen;
    if (state.failures > 0 || state.probation) this.quietly(this.settings.store.succeed(deployment.name));
  }

  /** The chosen deployment failed in a way that counts against it (`DEPLOYMENT_FAILURE_KINDS`). */
  async failed(chosen: ChosenDeployment, error: GatewayError, requestId: string): Promise<void> {
    const { deployment } = chosen;
    this.factsOf(deployment.name).noteFailure(error, Date.now());
    const failure = failureOf(error, this.settings);
    if (error.kind === 'upstream_auth')
      this.settings.logger.warn(
        `rosetta-gateway: the upstream of deployment '${deployment.name}' (provider '${deployment.provider.name}') rejected the gateway's credentials; it is out for ${Math.round(failure.cooldownMs / 1000)} s. Fix its key.`,
      );
    let cooled = 0;
    try {
      cooled = await this.settings.store.fail(deployment.name, failure);
    } catch (thrown) {
      logProvider('%s the deployment store could not count a failure: %O', requestId, thrown);
    }
    if (cooled > 0)
      logProvider('%s deployment %s cooled down for %d ms (%s)', requestId, deployment.name, cooled, error.kind);
  }

  /** The chosen deployment answered with an error of the request's own (a 400): it is reachable. */
  answered(chosen: ChosenDeployment): void {
    if (chosen.state.probation) this.quietly(this.settings.store.succeed(chosen.deployment.name));
  }

  /** A deployment's call ended. */
  left(deployment: ResolvedDeployment): void {
    this.factsOf(deployment.name).inFlight -= 1;
    if (this.settings.strategy === 'least-busy') this.quietly(this.settings.store.leave(deployment.name));
  }

  /** Each deployment of these models (named once) and how long it is still cooling down (0: it is not). */
  async cooling(models: readonly RoutedModel[]): Promise<DeploymentCooling[]> {
    const seen = new Map<string, number>();
    for (const model of models) {
      if (!model.router) continue;
      const states = await this.read(model);
      model.deployments.forEach((deployment, index) => {
        if (!seen.has(deployment.name)) seen.set(deployment.name, states[index]!.coolingMs);
      });
    }
    return Array.from(seen, ([name, coolingMs]) => ({ name, coolingMs }));
  }

  /** What the health view shows of each deployment of these models (each named once). */
  async view(models: readonly RoutedModel[]): Promise<DeploymentView[]> {
    const seen = new Map<string, DeploymentView>();
    const now = Date.now();
    for (const model of models) {
      if (!model.router) continue;
      const states = await this.read(model);
      model.deployments.forEach((deployment, index) => {
        const existing = seen.get(deployment.name);
        if (existing) {
          existing.models.push(model.id);
          return;
        }
        const state = states[index]!;
        const facts = this.facts.get(deployment.name);
        seen.set(deployment.name, {
          name: deployment.name,
          models: [model.id],
          provider: deployment.provider.name,
          upstreamModel: deployment.upstreamModel,
          weight: deployment.weight,
          priority: deployment.priority,
          state: state.coolingMs > 0 ? 'cooling' : state.probation ? 'probation' : 'healthy',
          ...(state.coolingMs > 0 ? { cooldownUntil: new Date(now + state.coolingMs).toISOString() } : {}),
          failures: state.failures,
          inFlight: facts?.inFlight ?? 0,
          served: facts?.served ?? 0,
          recentFailures: (facts?.recent ?? []).map((failure) => ({
            ...failure,
            at: new Date(failure.at).toISOString(),
          })),
        });
      });
    }
    return [...seen.values()];
  }

  private entered(deployment: ResolvedDeployment): void {
    this.factsOf(deployment.name).inFlight += 1;
    if (this.settings.strategy === 'least-busy') this.quietly(this.settings.store.enter(deployment.name));
  }

  private pick(
    candidates: readonly number[],
    deployments: readonly ResolvedDeployment[],
    states: readonly DeploymentState[],
  ): number {
    const tier = candidates.map((index) => deployments[index]!);
    if (this.settings.strategy === 'least-busy')
      return pickLeastBusy(
        tier,
        candidates.map((index) => states[index]!.inFlight),
      );
    return pickWeighted(tier);
  }

  /** The deployments' states; all healthy when the store fails (routing goes on by weight alone). */
  private read(model: RoutedModel): MaybePromise<readonly DeploymentState[]> {
    try {
      const states = this.settings.store.read(model.deploymentNames);
      return isPromiseLike(states) ? states.catch((error: unknown) => allHealthy(model, error)) : states;
    } catch (error) {
      return allHealthy(model, error);
    }
  }

  /** The deployment a session was last served by; undefined when the store fails. */
  private previous(session: string): MaybePromise<string | undefined> {
    try {
      const name = this.settings.store.affinity(session);
      return isPromiseLike(name) ? name.catch(noSession) : name;
    } catch (error) {
      return noSession(error);
    }
  }

  private async claimProbe(deployment: ResolvedDeployment): Promise<boolean> {
    try {
      const claimed = this.settings.store.claimProbe(deployment.name, this.settings.cooldownMs);
      return isPromiseLike(claimed) ? await claimed : claimed;
    } catch (error) {
      logProvider('the deployment store could not claim a probe: %O', error);
      return true;
    }
  }

  /** Admits a call against a deployment's own limits; a failing store admits (the deployment's own 429 is the backstop). */
  private async admit(
    deployment: ResolvedDeployment,
    tokens: () => number,
    requestId: string,
  ): Promise<RateLimitResult> {
    const scopes = deployment.scopes!;
    const estimate = scopes[0]!.tokensPerMinute !== undefined ? tokens() : 0;
    try {
      const outcome = this.rateLimitStore.acquire({ scopes, tokens: estimate, requestId });
      return isPromiseLike(outcome) ? await outcome : outcome;
    } catch (error) {
      logProvider('%s the rate-limit store failed for deployment %s: %O', requestId, deployment.name, error);
      return { ok: true, lease: { id: `unlimited-${requestId}`, scopes: [], tokens: 0 }, state: {} };
    }
  }

  /** Runs a store write off the call's path: a failure is logged, never the call's. */
  private quietly(outcome: MaybePromise<void>): void {
    if (isPromiseLike(outcome))
      outcome.catch((error: unknown) => logProvider('a deployment store write failed: %O', error));
  }
}

/** A deployment's cooldown as the metrics read it at scrape time. */
export interface DeploymentCooling {
  name: string;
  /** Milliseconds of cooldown left; 0 when it is not cooling down. */
  coolingMs: number;
}

/** What the health view shows of one deployment. */
export interface DeploymentView {
  name: string;
  /** The models it serves. */
  models: string[];
  provider: string;
  upstreamModel: string;
  weight: number;
  priority: number;
  state: 'healthy' | 'cooling' | 'probation';
  /** When its cooldown ends (ISO 8601), while it is cooling down. */
  cooldownUntil?: string;
  /** Failures counted in its current window (shared). */
  failures: number;
  /** Calls on it in flight in this process. */
  inFlight: number;
  /** Calls it answered in this process. */
  served: number;
  /** Its last few failures in this process, oldest first (`at` in ISO 8601). */
  recentFailures: Array<Omit<RecentFailure, 'at'> & { at: string }>;
}
