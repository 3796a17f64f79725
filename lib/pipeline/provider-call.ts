/**
 * Calling the provider: a non-streamed text call, or a stream opened up to its first part (and, through
 * {@link withModels}, any other operation's provider step), each tried on the model's deployments
 * (docs/routing.md), then on its fallbacks while the failure is the upstream's. Nothing has been sent
 * to the caller while these run.
 */
import type { CallWarning, GenerateRequest, GenerateResponse, ProviderStreamPart } from '../canonical';
import { GatewayError, toGatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import { providerCallContext } from '../providers/call-context';
import type { ProviderCallContext } from '../providers/types';
import { DEPLOYMENT_FAILURE_KINDS } from '../routing/health';
import { DEPLOYMENTS_OUT_CODES, type ChosenDeployment } from '../routing/router';
import { sessionKey } from '../routing/session';
import { inputTokenBound, measureInput } from '../token-bound';
import type { UsageAttempt } from '../usage/record';
import { CallWarnings } from '../warnings';
import type { Call } from './call';
import { estimatedTokens } from './rate-limit';
import { logProvider } from '../log';
import type { ResolvedProvider } from '../resolved-provider';
import { answerFacts } from '../tracing/call-trace';

/** Failures a fallback model may cure: the upstream's fault, not the request's. */
const FALLBACK_KINDS: ReadonlySet<string> = new Set(['upstream', 'upstream_timeout', 'overloaded']);

/** Where one attempt goes: a model's own provider and upstream id, or one of its deployments'. */
export interface Target {
  readonly provider: ResolvedProvider;
  readonly upstreamModel: string;
}

/** What a call with fallbacks produced, the model of the chain that produced it, and what its provider dropped. */
export interface Served<T> {
  value: T;
  model: ResolvedModel;
  /** The warnings the provider of `model` reported (those of a failed attempt are not kept); absent: none. */
  warnings: CallWarning[] | undefined;
}

/**
 * What the router needs of a call to choose among a model's deployments (read only for a model that has several):
 * the call's session, for affinity (undefined: none), and the tokens a deployment's tokens-per-minute limit admits it on.
 */
export interface RoutingFacts {
  session(model: ResolvedModel): string | undefined;
  tokens(model: ResolvedModel): number;
}

/** A text call's routing facts: its session (docs/routing.md, *Session affinity*) and its input bound plus output cap. */
class TextRouting implements RoutingFacts {
  constructor(
    private readonly request: GenerateRequest,
    private readonly call: Call,
  ) {}

  session(model: ResolvedModel): string | undefined {
    return sessionKey(model.id, this.call.http, this.request, this.call.protocol);
  }

  tokens(model: ResolvedModel): number {
    const input = inputTokenBound(measureInput(this.request), model.provider.maxImageTokens(model.upstreamModel));
    return estimatedTokens(this.request, model, input);
  }
}

/** A provider stream whose first part has been read. */
export interface OpenedStream {
  iterator: AsyncIterator<ProviderStreamPart>;
  first: ProviderStreamPart;
}

/** A non-streamed text call (the resolved provider's `generate`), with fallbacks. */
export function generate(
  request: GenerateRequest,
  requested: ResolvedModel,
  gatewayCall: Call,
): Promise<Served<GenerateResponse>> {
  const { requestId } = gatewayCall;
  return withModels(
    requested,
    gatewayCall,
    new TextRouting(request, gatewayCall),
    false,
    async (candidate, target, warnings, retries) => {
      const provider = target.provider;
      const context = attemptContext(gatewayCall, target, warnings, retries);
      const call = { ...request, model: candidate.id };
      logProvider('%s → %s/%s max_output=%d', requestId, provider.name, target.upstreamModel, call.maxOutputTokens);
      const response = await provider.generate(call, context);
      if (gatewayCall.trace.recording) gatewayCall.trace.answered(answerFacts(response), response.usage);
      return response;
    },
  );
}

/**
 * Opens a stream (the resolved provider's `stream`), with fallbacks, and reads its first
 * part: a failure up to then (an `error` part included) is an ordinary HTTP error, and the next
 * model of the chain is tried.
 */
export function openStream(
  request: GenerateRequest,
  requested: ResolvedModel,
  gatewayCall: Call,
): Promise<Served<OpenedStream>> {
  const { requestId } = gatewayCall;
  return withModels(
    requested,
    gatewayCall,
    new TextRouting(request, gatewayCall),
    true,
    async (candidate, target, warnings, retries) => {
      const call = { ...request, model: candidate.id };
      const context = attemptContext(gatewayCall, target, warnings, retries);
      const provider = target.provider;
      logProvider(
        '%s → %s/%s stream max_output=%d',
        requestId,
        provider.name,
        target.upstreamModel,
        call.maxOutputTokens,
      );
      const started = performance.now();
      const parts = provider.stream(call, context);
      const opened = parts[Symbol.asyncIterator]();
      try {
        const next = await opened.next();
        if (next.done) throw new GatewayError('upstream', 'The upstream stream ended before it started.');
        if (next.value.type === 'error') throw next.value.error;
        if (gatewayCall.trace.recording) gatewayCall.trace.answered({}, undefined, performance.now() - started);
        return { iterator: opened, first: next.value };
      } catch (error) {
        await opened.return?.()?.catch(() => undefined);
        throw error;
      }
    },
  );
}

/** The context of one attempt: the call's cancellation, ids and hop headers, the target's upstream id, the attempt's own warnings and the retry hint. */
export function attemptContext(
  call: Call,
  target: Target,
  warnings: CallWarnings,
  retries: number | undefined,
): ProviderCallContext {
  return providerCallContext(
    call.cancellation,
    target.upstreamModel,
    call.requestId,
    call.trace.upstreamHeaders(call.upstreamHeaders),
    warnings,
    retries,
    call.trace.attempt,
  );
}

/**
 * One attempt of a call: `candidate` (the chain's model) called at `target`, with a warning collector of its own and
 * the provider's retry hint (0 while another deployment would take the call; undefined: the provider's own policy).
 */
export type Attempt<T> = (
  candidate: ResolvedModel,
  target: Target,
  warnings: CallWarnings,
  retries: number | undefined,
) => Promise<T>;

/**
 * Runs `attempt` on a model (on its deployments when it has a router; `streamed`: the attempt opens a stream, whose
 * deployment's health is settled when it ends), then on each of its fallbacks while the
 * failure is one a fallback may cure (5xx, timeout, connection failure, no deployment able to take the call) and the
 * caller is still there. Each model and deployment tried is listed in the call's `attempts`, with why it failed.
 */
export async function withModels<T>(
  requested: ResolvedModel,
  call: Call,
  routing: RoutingFacts,
  streamed: boolean,
  attempt: Attempt<T>,
): Promise<Served<T>> {
  const chain = requested.chain;
  const signal = call.cancellation;
  for (let index = 0; index < chain.length; index++) {
    const candidate = chain[index]!;
    try {
      if (candidate.router) return await withDeployments(candidate, call, routing, streamed, attempt);
      const warnings = new CallWarnings();
      const tried: UsageAttempt = {
        model: candidate.id,
        provider: candidate.provider.name,
        upstreamModel: candidate.upstreamModel,
      };
      call.attempts.push(tried);
      call.trace.startAttempt(candidate.provider.name, candidate.upstreamModel, candidate.id, undefined, streamed);
      try {
        const value = await attempt(candidate, candidate, warnings, undefined);
        // A stream's attempt span ends with the stream (streamResponse).
        if (!streamed) call.trace.endAttempt();
        return { value, model: candidate, warnings: warnings.list };
      } catch (error) {
        const failure = toGatewayError(error);
        tried.error = { kind: failure.kind, status: failure.status };
        call.trace.endAttempt(failure);
        throw error;
      }
    } catch (error) {
      const last = index === chain.length - 1;
      if (last || signal.aborted || !(error instanceof GatewayError) || !fallsBack(error)) throw error;
      logProvider(
        '%s failed (%s %d); falling back to %s',
        candidate.id,
        error.kind,
        error.status,
        chain[index + 1]!.id,
      );
    }
  }
  throw new GatewayError('internal', 'The model has no provider to try.');
}

/** Whether the next model of the chain may cure a failure. */
function fallsBack(error: GatewayError): boolean {
  return FALLBACK_KINDS.has(error.kind) || (error.code !== undefined && DEPLOYMENTS_OUT_CODES.has(error.code));
}

/**
 * Runs `attempt` on the deployments of a model with a router: the one the router chooses, then, while the failure is
 * the deployment's (`DEPLOYMENT_FAILURE_KINDS`) and the caller is still there, another one not yet tried. Throws the
 * last deployment's failure, or the router's 429 / 503 when none could take the call.
 */
async function withDeployments<T>(
  model: ResolvedModel,
  call: Call,
  routing: RoutingFacts,
  streamed: boolean,
  attempt: Attempt<T>,
): Promise<Served<T>> {
  const router = model.router!;
  const signal = call.cancellation;
  const session = router.affinity ? routing.session(model) : undefined;
  let tokens: number | undefined;
  const estimate = () => (tokens ??= routing.tokens(model));
  let excluded: Set<string> | undefined;
  let lastError: unknown;
  for (;;) {
    let chosen: ChosenDeployment;
    try {
      chosen = await router.choose(model, call, session, excluded, estimate, excluded === undefined);
    } catch (unavailable) {
      throw lastError ?? unavailable;
    }
    const { deployment } = chosen;
    const warnings = new CallWarnings();
    const tried: UsageAttempt = {
      model: model.id,
      provider: deployment.provider.name,
      upstreamModel: deployment.upstreamModel,
      deployment: deployment.name,
    };
    call.attempts.push(tried);
    call.trace.startAttempt(deployment.provider.name, deployment.upstreamModel, model.id, deployment.name, streamed);
    try {
      // Another deployment would take the call: it is the retry, not this account again (docs/routing.md, *Retries*).
      const value = await attempt(model, deployment, warnings, chosen.alternative ? 0 : undefined);
      // A stream's health is known when it ends (streamResponse): one that breaks after its first byte is a failure.
      router.served(chosen, session);
      if (!streamed) router.healthy(chosen);
      call.deployment = chosen;
      if (!streamed) call.trace.endAttempt();
      return { value, model, warnings: warnings.list };
    } catch (error) {
      const failure = toGatewayError(error);
      tried.error = { kind: failure.kind, status: failure.status };
      call.trace.endAttempt(failure);
      chosen.end(undefined);
      if (signal.aborted || !(error instanceof GatewayError)) throw error;
      if (!DEPLOYMENT_FAILURE_KINDS.has(error.kind)) {
        router.answered(chosen);
        throw error;
      }
      await router.failed(chosen, error, call.requestId);
      logProvider(
        '%s deployment %s failed (%s %d); trying another',
        call.requestId,
        deployment.name,
        error.kind,
        error.status,
      );
      (excluded ??= new Set()).add(deployment.name);
      lastError = error;
    }
  }
}
