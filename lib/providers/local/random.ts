/** The local renderer's seeded randomness and palettes: same prompt, same numbers, same colours. */
import { createHash } from 'node:crypto';
import { MAX_BACKGROUND_LEVEL, type Rgb } from './canvas';

/** A deterministic generator of numbers in [0, 1), seeded from the SHA-256 of `seed` (mulberry32). */
export function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number drawn evenly from [`low`, `high`). */
export function between(random: () => number, low: number, high: number): number {
  return low + (high - low) * random();
}

/** Converts hue (degrees), saturation and lightness (0..1) to 0..255 channels. */
function hslToRgb(hue: number, saturation: number, lightness: number): Rgb {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = (((hue % 360) + 360) % 360) / 60;
  const x = chroma * (1 - Math.abs((h % 2) - 1));
  const m = lightness - chroma / 2;
  const sector: Rgb[] = [
    [chroma, x, 0],
    [x, chroma, 0],
    [0, chroma, x],
    [0, x, chroma],
    [x, 0, chroma],
    [chroma, 0, x],
  ];
  const [r, g, b] = sector[Math.min(5, Math.floor(h))];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/**
 * Four colours around a prompt-chosen hue (analogous, complementary or triadic); `variant` turns
 * the wheel a little.
 */
export function makePalette(random: () => number, variant: number): Rgb[] {
  const schemes = [
    [0, 30, -30, 60],
    [0, 180, 20, 200],
    [0, 120, 240, 60],
  ];
  const offsets = schemes[Math.floor(random() * schemes.length)];
  const baseHue = random() * 360 + variant * 29;
  return offsets.map((offset): Rgb => {
    const [r, g, b] = hslToRgb(baseHue + offset, between(random, 0.45, 0.85), between(random, 0.28, 0.62));
    const cap = MAX_BACKGROUND_LEVEL;
    return [Math.min(cap, r), Math.min(cap, g), Math.min(cap, b)];
  });
}
