/**
 * Calling the provider: a non-streamed text call, or a stream opened up to its first part, each
 * tried on the model's fallbacks while the failure is the upstream's. Nothing has been sent to the
 * caller while these run.
 */
import type { CallWarning, GenerateRequest, GenerateResponse, ProviderStreamPart } from '../canonical';
import { GatewayError, toGatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import { providerCallContext } from '../providers/cancellation';
import type { UsageAttempt } from '../usage/record';
import { CallWarnings } from '../warnings';
import type { Call } from './call';
import { logProvider } from './log';

/** Failures a fallback model may cure: the upstream's fault, not the request's. */
const FALLBACK_KINDS: ReadonlySet<string> = new Set(['upstream', 'upstream_timeout', 'overloaded']);

/** What a call with fallbacks produced, the model of the chain that produced it, and what its provider dropped. */
export interface Served<T> {
  value: T;
  model: ResolvedModel;
  /** The warnings the provider of `model` reported (those of a failed attempt are not kept); absent: none. */
  warnings: CallWarning[] | undefined;
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
  call: Call,
): Promise<Served<GenerateResponse>> {
  const { cancellation, requestId, upstreamHeaders } = call;
  return withFallbacks(requested, call, async (candidate, warnings) => {
    const provider = candidate.provider;
    const context = providerCallContext(cancellation, candidate.upstreamModel, requestId, upstreamHeaders, warnings);
    const call = { ...request, model: candidate.id };
    logProvider('%s → %s/%s max_output=%d', requestId, provider.name, candidate.upstreamModel, call.maxOutputTokens);
    return provider.generate(call, context);
  });
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
  const { cancellation, requestId, upstreamHeaders } = gatewayCall;
  return withFallbacks(requested, gatewayCall, async (candidate, warnings) => {
    const call = { ...request, model: candidate.id };
    const context = providerCallContext(cancellation, candidate.upstreamModel, requestId, upstreamHeaders, warnings);
    const provider = candidate.provider;
    logProvider(
      '%s → %s/%s stream max_output=%d',
      requestId,
      provider.name,
      candidate.upstreamModel,
      call.maxOutputTokens,
    );
    const parts = provider.stream(call, context);
    const opened = parts[Symbol.asyncIterator]();
    try {
      const next = await opened.next();
      if (next.done) throw new GatewayError('upstream', 'The upstream stream ended before it started.');
      if (next.value.type === 'error') throw next.value.error;
      return { iterator: opened, first: next.value };
    } catch (error) {
      await opened.return?.()?.catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Runs `attempt` on a model (with a warning collector of its own), then on each of its fallbacks while the failure is
 * one a fallback may cure (5xx, timeout, connection failure) and the caller is still there. Each model tried is
 * listed in the call's `attempts`, with why it failed.
 */
async function withFallbacks<T>(
  requested: ResolvedModel,
  call: Call,
  attempt: (model: ResolvedModel, warnings: CallWarnings) => Promise<T>,
): Promise<Served<T>> {
  const chain = requested.chain;
  const signal = call.cancellation;
  for (let index = 0; index < chain.length; index++) {
    const candidate = chain[index]!;
    const warnings = new CallWarnings();
    const tried: UsageAttempt = {
      model: candidate.id,
      provider: candidate.provider.name,
      upstreamModel: candidate.upstreamModel,
    };
    call.attempts.push(tried);
    try {
      const value = await attempt(candidate, warnings);
      return { value, model: candidate, warnings: warnings.list };
    } catch (error) {
      const failure = toGatewayError(error);
      tried.error = { kind: failure.kind, status: failure.status };
      const last = index === chain.length - 1;
      if (last || signal.aborted || !(error instanceof GatewayError) || !FALLBACK_KINDS.has(error.kind)) throw error;
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
