/**
 * A call's admission by its rate limits before the quota hold: a text call's on its input bound and output cap, a call
 * of fixed cost's together with its hold (the limiter and its slots: lib/rate-limit/).
 */
import { isPromiseLike } from '../promise';
import type { GenerateRequest } from '../canonical';
import type { ResolvedModel } from '../models';
import type { RateLimiter } from '../rate-limit/limiter';
import type { RateSlot } from '../rate-limit/slot';
import type { Call } from './call';
import { boundInput, type InputBound } from './input-tokens';

/** The tokens a text call is admitted on: its input bound and its output cap for every choice. */
export function estimatedTokens(request: GenerateRequest, model: ResolvedModel, inputBound: number): number {
  return inputBound + (request.maxOutputTokens ?? model.maxOutputTokens) * (request.choiceCount ?? 1);
}

/** A text call admitted by its rate limits: its slot, and the input bound its quota hold reuses. */
export interface AdmittedText {
  slot: RateSlot | undefined;
  bound: InputBound;
}

/**
 * Admits a text call (the caller is counted by some limit: {@link RateLimiter.applies}): its input bounded as its
 * quota hold will be, and the bound plus its output cap taken from its tokens per minute.
 */
export async function admitText(
  limiter: RateLimiter,
  call: Call,
  request: GenerateRequest,
  model: ResolvedModel,
): Promise<AdmittedText> {
  const bound = await boundInput(request, model, call.requestId);
  const tokens = estimatedTokens(request, model, bound.bound);
  const admitted = limiter.admit(call.caller, model, request.model, tokens, call.requestId, call.rateLimitHeaders);
  return { slot: isPromiseLike(admitted) ? await admitted : admitted, bound };
}
