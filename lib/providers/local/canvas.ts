/** The local renderer's pixel buffer and the primitives that paint it: opaque fills and translucent blends. */

/** Red, green and blue channels, each 0..255. */
export type Rgb = [number, number, number];

/** Highest channel value any background, pattern or shape pixel may take; only caption text is brighter. */
export const MAX_BACKGROUND_LEVEL = 235;

/** An RGB pixel buffer being painted: three bytes per pixel, rows top to bottom. */
export interface Canvas {
  width: number;
  height: number;
  data: Buffer;
}

/** Blends `rgb` over pixels x0..x1-1 of row y (clipped) with opacity `alpha` out of 256. */
export function blendSpan(canvas: Canvas, y: number, x0: number, x1: number, rgb: Rgb, alpha: number): void {
  if (y < 0 || y >= canvas.height) return;
  const start = Math.max(0, x0);
  const end = Math.min(canvas.width, x1);
  const { data } = canvas;
  const keep = 256 - alpha;
  const r = rgb[0] * alpha;
  const g = rgb[1] * alpha;
  const b = rgb[2] * alpha;
  for (let o = (y * canvas.width + start) * 3, last = (y * canvas.width + end) * 3; o < last; o += 3) {
    data[o] = (data[o] * keep + r) >> 8;
    data[o + 1] = (data[o + 1] * keep + g) >> 8;
    data[o + 2] = (data[o + 2] * keep + b) >> 8;
  }
}

/** Blends `rgb` over a clipped rectangle with opacity `alpha` out of 256. */
export function blendRect(canvas: Canvas, x: number, y: number, w: number, h: number, rgb: Rgb, alpha: number): void {
  for (let row = Math.max(0, y), end = Math.min(canvas.height, y + h); row < end; row++) {
    blendSpan(canvas, row, x, x + w, rgb, alpha);
  }
}

/** Blends `rgb` over a clipped disc centred on (cx, cy) with opacity `alpha` out of 256. */
export function blendCircle(canvas: Canvas, cx: number, cy: number, radius: number, rgb: Rgb, alpha: number): void {
  const top = Math.max(0, Math.floor(cy - radius));
  const bottom = Math.min(canvas.height, Math.ceil(cy + radius));
  for (let y = top; y < bottom; y++) {
    const dy = y + 0.5 - cy;
    const half = Math.sqrt(Math.max(0, radius * radius - dy * dy));
    blendSpan(canvas, y, Math.round(cx - half), Math.round(cx + half), rgb, alpha);
  }
}

/** Paints pixels of `rgb` (opaque) in a clipped rectangle. */
export function fillRect(canvas: Canvas, x: number, y: number, w: number, h: number, rgb: Rgb): void {
  const x0 = Math.max(0, x);
  const x1 = Math.min(canvas.width, x + w);
  const { data } = canvas;
  for (let row = Math.max(0, y), end = Math.min(canvas.height, y + h); row < end; row++) {
    for (let o = (row * canvas.width + x0) * 3, last = (row * canvas.width + x1) * 3; o < last; o += 3) {
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
    }
  }
}
