/** The most input tokens one image costs a Claude model, for the gateway's overspend bound (docs/stores.md). */

/**
 * Claude scales an image down to about 1.15 megapixels (1,568 pixels on the long edge) and bills
 * width × height / 750 tokens: about 1,600 at most, by Anthropic's vision documentation.
 */
export const ANTHROPIC_MAX_IMAGE_TOKENS = 1_600;
