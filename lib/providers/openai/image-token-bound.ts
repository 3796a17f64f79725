/** The most input tokens one image costs an OpenAI model, for the gateway's overspend bound (docs/stores.md). */

/**
 * OpenAI's documented vision costs at their largest: patch-priced models (gpt-4.1-mini/nano,
 * o4-mini, gpt-5-mini/nano) at most 1,536 patches × 2.46; tile-priced models (gpt-4o, gpt-4.1,
 * gpt-5, o1, o3) at most 85 + 8 tiles × 170 = 1,445.
 */
export const OPENAI_MAX_IMAGE_TOKENS = 3_779;

/** gpt-4o-mini bills an image as 2,833 + 5,667 per tile, at most 8 tiles. */
export const GPT_4O_MINI_MAX_IMAGE_TOKENS = 48_169;

/** The bound for an upstream model id: gpt-4o-mini's own, else {@link OPENAI_MAX_IMAGE_TOKENS}. */
export function openAIMaxImageTokens(upstreamModel: string): number {
  return upstreamModel.includes('gpt-4o-mini') ? GPT_4O_MINI_MAX_IMAGE_TOKENS : OPENAI_MAX_IMAGE_TOKENS;
}
