/** The most input tokens one image costs a Gemini model, for the gateway's overspend bound (docs/stores.md). */

/**
 * Gemini 2.x bills 258 tokens per 768 × 768 tile; 16 tiles (a 3,072-pixel square) are allowed.
 * Gemini 3's highest media resolution costs 1,120 per image, below this.
 */
export const GEMINI_MAX_IMAGE_TOKENS = 4_128;
