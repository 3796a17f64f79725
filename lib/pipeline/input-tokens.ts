/** A text request's input tokens: counted for count-tokens, and bounded for a quota hold. */
import type { GenerateRequest } from '../canonical';
import type { ResolvedModel } from '../models';
import type { MaybePromise } from '../stores/types';
import { inputTokenBound, measureInput, type InputSize } from '../token-bound';

/** A model's input count and the most any model of its fallback chain may count: what {@link boundInput} finds. */
export interface InputBound {
  /** The most input tokens any model of the chain can count. */
  bound: number;
  /** The requested model's own count, when its provider has `countTokens`. */
  counted: number | undefined;
}

/** Input tokens of a request: the provider's own count where it has one, else the gateway's tokenizer. */
export async function countInput(request: GenerateRequest, model: ResolvedModel, requestId: string): Promise<number> {
  return count(request, model, requestId);
}

/**
 * The input tokens a text call's hold is sized on: the most any model of its fallback chain can
 * count (docs/stores.md, "Overspend bound") — a provider's own `countTokens` where it has one,
 * else one token per UTF-8 byte plus each image at the provider's `maxImageTokens`.
 */
export async function boundInput(
  request: GenerateRequest,
  model: ResolvedModel,
  requestId: string,
): Promise<InputBound> {
  let size: InputSize | undefined;
  let bound = 0;
  let counted: number | undefined;
  for (const candidate of model.chain) {
    // A model routed over deployments is bounded at each of them (each may count differently); its count is its first's.
    const targets = candidate.router ? candidate.deployments.length : 1;
    for (let index = 0; index < targets; index++) {
      const target = index === 0 ? candidate : candidate.deployments[index]!;
      const provider = target.provider;
      let tokens: number;
      if (provider.countsInput) {
        tokens = await count(request, candidate, requestId, target);
        if (candidate === model && index === 0) counted = tokens;
      } else {
        size ??= measureInput(request);
        tokens = inputTokenBound(size, provider.maxImageTokens(target.upstreamModel));
      }
      bound = Math.max(bound, tokens);
    }
  }
  return { bound, counted };
}

/** A request's input tokens at one model (the resolved provider's `countInput`), at `target` (default its own). */
function count(
  request: GenerateRequest,
  model: ResolvedModel,
  requestId: string,
  target: Pick<ResolvedModel, 'provider' | 'upstreamModel'> = model,
): MaybePromise<number> {
  return target.provider.countInput(
    { ...request, model: model.id },
    { upstreamModel: target.upstreamModel, requestId },
  );
}
