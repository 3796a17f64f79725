/**
 * The one path of every model call's operation, written once: decode → resolve the model → admit (rate limits, then
 * the quota hold or the balance check) → serve (the provider step, through the router: deployments, then fallbacks)
 * → settle the hold and the rate-limit slot → encode, with the warnings and rate-limit headers. A call that fails
 * after it was admitted has its hold and slot released. An operation supplies only its own steps
 * ({@link ChargedOperation}); a new operation is a class, a route and one line in `./operations/index.ts`.
 */
import type { CallWarning } from '../canonical';
import type { ModelType } from '../model-config';
import type { ResolvedModel } from '../models';
import type { EncodedResponse } from '../protocols/types';
import { WARNINGS_HEADER, warningsHeader } from '../warnings';
import type { CapturedContent } from '../tracing/call-trace';
import type { Call } from './call';
import type { GatewayParts } from './parts';
import type { Admission, Charge } from './admission';

/** What an operation's serve step produced for the runner to settle and encode. */
export interface Outcome<A> {
  answer: A;
  /** What to charge; absent: nothing (a count). */
  charge?: Charge;
  /** The warnings the answer's `x-rosetta-warnings` header names. */
  warnings?: readonly CallWarning[];
}

/** One call of one operation: its steps, each run once by {@link runOperation}, in order. */
export interface ChargedOperation<A> {
  /** The kind of model the call's model id must name. */
  readonly modelType: ModelType;
  /** Decodes the request (400s in the caller's envelope); returns the model id the caller asked for. */
  decode(): string | Promise<string>;
  /** Admits the resolved call: its rate limits, then its hold (or, for a count, the balance check). */
  admit(model: ResolvedModel): Promise<Admission>;
  /** The provider step; undefined when the answer was streamed (a stream settles its own hold and slot). */
  serve(model: ResolvedModel, admission: Admission): Promise<Outcome<A> | undefined>;
  /** The answer in the caller's protocol. */
  encode(outcome: Outcome<A>): EncodedResponse | Promise<EncodedResponse>;
  /** The messages in and out, for a span that captures content (`observability.traces.captureContent`). */
  content?(): CapturedContent | undefined;
}

/** Runs one call of `operation`; undefined when the answer was streamed. */
export async function runOperation<A>(
  gateway: GatewayParts,
  call: Call,
  operation: ChargedOperation<A>,
): Promise<EncodedResponse | undefined> {
  call.model = await operation.decode();
  call.trace.named(call.model);
  const model = gateway.models.resolve(call.model, call.caller, operation.modelType);
  call.resolved = model;
  const admission = await operation.admit(model);
  let outcome: Outcome<A> | undefined;
  try {
    outcome = await operation.serve(model, admission);
    if (outcome?.charge) await admission.settle(outcome.charge);
  } catch (error) {
    await admission.release();
    throw error;
  }
  if (outcome === undefined) return undefined;
  const encoded = await operation.encode(outcome);
  // The slot's headers are this call's own: sent as they are when the answer has no headers of its own.
  const warned = outcome.warnings && warningsHeader(outcome.warnings);
  const limited = admission.slot?.headers;
  if (warned !== undefined) encoded.headers = { ...encoded.headers, [WARNINGS_HEADER]: warned };
  if (limited) encoded.headers = encoded.headers ? { ...encoded.headers, ...limited } : limited;
  return encoded;
}
