/**
 * What a call costs: the estimate reserved before the provider is called, and the charge settled
 * after, split by what it paid for (docs/operations.md, "Billing").
 */
import type { GenerateRequest, ImageRequest, ImageResponse, Usage } from './canonical';
import type { ModelPricing } from './model-config';
import type { ResolvedModel } from './models';
import type { CreditSplit } from './usage/record';

/** How much to hold for a call: `amount` if available, never less than `minimum`. */
export interface CostEstimate {
  amount: number;
  minimum: number;
}

/**
 * What a hold pays per input token: the dearest way the upstream may bill one (uncached, read from
 * or written to its prompt cache). The gateway cannot know before the call how much of the input
 * the upstream will find in, or write to, its cache, and a cache write can cost more than plain
 * input (Anthropic 1.25×, 2× for the 1-hour TTL), so the hold never falls below the charge.
 */
export function holdInputPrice(pricing: Required<ModelPricing>): number {
  return Math.max(pricing.input, pricing.cacheRead, pricing.cacheWrite, pricing.cacheWriteLong);
}

/**
 * A text call holds the input cost plus the full output allowance of every choice; the least it
 * can run with is the input plus one output token per choice. Input is held at {@link holdInputPrice}.
 */
export function estimateGenerate(request: GenerateRequest, model: ResolvedModel, inputTokens: number): CostEstimate {
  const choices = request.choiceCount ?? 1;
  const maxOutput = request.maxOutputTokens ?? model.maxOutputTokens;
  const input = inputTokens * holdInputPrice(model.pricing);
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
  const forOutput = held - inputTokens * holdInputPrice(model.pricing);
  return Math.max(1, Math.floor(forOutput / (choices * model.pricing.output)));
}

/** An image call holds the price of every image requested. */
export function estimateImage(request: ImageRequest, model: ResolvedModel): CostEstimate {
  const amount = request.n * model.pricing.image;
  return { amount, minimum: amount };
}

/**
 * The credits of a text call, from the usage the provider reported (or the meter measured), split
 * by kind. Canonical `inputTokens` includes the cache reads and writes, so each input token is
 * charged once: the uncached ones at `input`, the cache reads at `cacheRead`, the writes at
 * `cacheWrite` (those with the long lifetime at `cacheWriteLong`). Reasoning tokens are part of
 * `outputTokens` and charged there only. Cache figures larger than the input (an upstream whose
 * figures disagree) are charged as reported, the uncached input then being 0.
 */
export function creditsForUsage(usage: Usage, model: ResolvedModel): CreditSplit {
  const { pricing } = model;
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const writtenLong = Math.min(usage.cacheWriteLongTokens ?? 0, written);
  const uncached = Math.max(0, usage.inputTokens - read - written);
  const input = uncached * pricing.input;
  const cacheRead = read * pricing.cacheRead;
  const cacheWrite = (written - writtenLong) * pricing.cacheWrite + writtenLong * pricing.cacheWriteLong;
  const output = usage.outputTokens * pricing.output;
  return { input, cacheRead, cacheWrite, output, image: 0, total: input + cacheRead + cacheWrite + output };
}

/** The credits of a finished image call: its images at the model's per-image price. */
export function creditsForImage(response: ImageResponse, model: ResolvedModel): CreditSplit {
  const image = response.images.length * model.pricing.image;
  return { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, image, total: image };
}

/**
 * An embedding call holds its input bound (one token per UTF-8 byte of text, per token id; exact where a limit was
 * checked: lib/pipeline/embed-input.ts) at the model's `input` price: embeddings have no output, so the input price
 * is the embedding price. The whole bound is its minimum (no partial hold).
 */
export function estimateEmbed(inputTokens: number, model: ResolvedModel): CostEstimate {
  const amount = inputTokens * model.pricing.input;
  return { amount, minimum: amount };
}

/** The credits of a finished embedding call: its input tokens at the model's `input` price. */
export function creditsForEmbed(inputTokens: number, model: ResolvedModel): CreditSplit {
  const input = inputTokens * model.pricing.input;
  return { input, cacheRead: 0, cacheWrite: 0, output: 0, image: 0, total: input };
}
