/** What a call costs: the estimate reserved before the provider is called, and the charge settled after. */
import type { GenerateRequest, ImageRequest, ImageResponse, Usage } from './canonical';
import type { ResolvedModel } from './models';

/** How much to hold for a call: `amount` if available, never less than `minimum`. */
export interface CostEstimate {
  amount: number;
  minimum: number;
}

/**
 * A text call holds the input cost plus the full output allowance of every choice; the least it
 * can run with is the input plus one output token per choice.
 */
export function estimateGenerate(request: GenerateRequest, model: ResolvedModel, inputTokens: number): CostEstimate {
  const choices = request.choiceCount ?? 1;
  const maxOutput = request.maxOutputTokens ?? model.maxOutputTokens;
  const input = inputTokens * model.pricing.input;
  return {
    amount: input + maxOutput * choices * model.pricing.output,
    minimum: input + choices * model.pricing.output,
  };
}

/**
 * The output allowance a partial hold pays for: when the balance covered less than the full
 * estimate, the call's output cap is lowered so the charge can never exceed the hold.
 */
export function affordableOutputTokens(
  request: GenerateRequest,
  model: ResolvedModel,
  inputTokens: number,
  held: number,
): number | undefined {
  if (model.pricing.output <= 0) return undefined;
  const choices = request.choiceCount ?? 1;
  const forOutput = held - inputTokens * model.pricing.input;
  return Math.max(1, Math.floor(forOutput / (choices * model.pricing.output)));
}

/** An image call holds the price of every image requested. */
export function estimateImage(request: ImageRequest, model: ResolvedModel): CostEstimate {
  const amount = request.n * model.pricing.image;
  return { amount, minimum: amount };
}

/** The charge for a text call, from the usage the provider reported (or the meter measured). */
export function chargeForUsage(usage: Usage, model: ResolvedModel): number {
  return usage.inputTokens * model.pricing.input + usage.outputTokens * model.pricing.output;
}

/** The charge for a finished image call. */
export function chargeForImage(response: ImageResponse, model: ResolvedModel): number {
  return response.images.length * model.pricing.image;
}
