/** The local renderer's translucent circles and rectangles over the background. */
import { blendCircle, blendRect, type Canvas, type Rgb } from './canvas';
import { between } from './random';

/** Scatters 3-6 translucent circles and rectangles in palette colours (blends of capped colours stay capped). */
export function paintShapes(canvas: Canvas, palette: Rgb[], random: () => number): void {
  const { width, height } = canvas;
  const unit = Math.min(width, height);
  const count = 3 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const colour = palette[(i + 2) % palette.length];
    const alpha = Math.round(between(random, 0.3, 0.6) * 256);
    const cx = random() * width;
    const cy = random() * height;
    const size = unit * between(random, 0.08, 0.3);
    if (random() < 0.6) {
      blendCircle(canvas, cx, cy, size, colour, alpha);
    } else {
      const w = Math.round(size * between(random, 1, 2.5));
      const h = Math.round(size * between(random, 0.6, 1.6));
      blendRect(canvas, Math.round(cx - w / 2), Math.round(cy - h / 2), w, h, colour, alpha);
    }
  }
}
