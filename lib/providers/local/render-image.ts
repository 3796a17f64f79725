/** Renders the local provider's images: a prompt-seeded pattern with the prompt captioned in a built-in bitmap font. */
import { paintBackground } from './background';
import { paintCaption } from './caption';
import type { Canvas } from './canvas';
import { encodePng } from './png';
import { makePalette, seededRandom } from './random';
import { paintShapes } from './shapes';

/** Largest width or height, in pixels, that {@link renderImage} accepts. */
export const MAX_IMAGE_EDGE = 4096;

/**
 * Renders a PNG picture derived from a prompt.
 *
 * The background (palette, gradient, stripe/ring/checker/wave pattern and translucent shapes)
 * comes from SHA-256 hashes of the prompt and of the prompt with `variant`, so every prompt
 * looks different and the n images of one request differ from each other. The prompt itself
 * is drawn on a dark panel near the bottom in white 5x7 bitmap letters (with descenders),
 * scaled to the image, word-wrapped and ended with an ellipsis when it does not fit. Accents
 * are dropped from Latin letters; other non-ASCII characters show as boxes. Same arguments,
 * same bytes.
 *
 * @param prompt - The text to visualise and caption.
 * @param width - Width in pixels, an integer from 1 to {@link MAX_IMAGE_EDGE}.
 * @param height - Height in pixels, an integer from 1 to {@link MAX_IMAGE_EDGE}.
 * @param variant - The image's index among those generated for one request.
 * @returns The PNG file bytes.
 * @throws RangeError when the size is out of range.
 */
export function renderImage(prompt: string, width: number, height: number, variant: number): Buffer {
  assertEdge('width', width);
  assertEdge('height', height);
  const canvas: Canvas = { width, height, data: Buffer.allocUnsafe(width * height * 3) };
  const paletteRandom = seededRandom(`palette\n${prompt}`);
  const layoutRandom = seededRandom(`layout\n${variant}\n${prompt}`);
  const palette = makePalette(paletteRandom, variant);
  paintBackground(canvas, palette, layoutRandom);
  paintShapes(canvas, palette, layoutRandom);
  paintCaption(canvas, prompt);
  return encodePng(width, height, canvas.data);
}

function assertEdge(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_IMAGE_EDGE) {
    throw new RangeError(`renderImage: ${name} must be an integer from 1 to ${MAX_IMAGE_EDGE}, got ${value}`);
  }
}
