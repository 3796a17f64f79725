/** The local renderer's background: a gradient between two palette colours modulated by a two-tone pattern. */
import { type Canvas, MAX_BACKGROUND_LEVEL, type Rgb } from './canvas';
import { between } from './random';

/** A two-tone pattern; `fillPatternRow` marks each pixel of a row as tone 0 or 1. */
type Pattern =
  | { kind: 'stripes'; cos: number; sin: number; period: number }
  | { kind: 'rings'; cx: number; cy: number; period: number }
  | { kind: 'checker'; period: number }
  | { kind: 'waves'; period: number; offsets: Float64Array };

function makePattern(random: () => number, width: number, height: number): Pattern {
  const period = Math.max(2, Math.min(width, height) * between(random, 0.035, 0.12));
  const kind = Math.floor(random() * 4);
  if (kind === 0) {
    const angle = random() * Math.PI;
    return { kind: 'stripes', cos: Math.cos(angle), sin: Math.sin(angle), period };
  }
  if (kind === 1) {
    return { kind: 'rings', cx: random() * width, cy: random() * height, period };
  }
  if (kind === 2) {
    return { kind: 'checker', period };
  }
  const amplitude = period * between(random, 0.5, 2);
  const frequency = (Math.PI * 2 * between(random, 1, 4)) / width;
  const phase = random() * Math.PI * 2;
  const offsets = new Float64Array(width);
  for (let x = 0; x < width; x++) offsets[x] = amplitude * Math.sin(x * frequency + phase);
  return { kind: 'waves', period, offsets };
}

/** Writes the pattern's tone (0 or 1) for every pixel of row `y` into `out`. */
function fillPatternRow(pattern: Pattern, y: number, out: Uint8Array): void {
  const width = out.length;
  const inverse = 1 / pattern.period;
  switch (pattern.kind) {
    case 'stripes':
      for (let x = 0; x < width; x++) out[x] = Math.floor((x * pattern.cos + y * pattern.sin) * inverse) & 1;
      break;
    case 'rings': {
      const dy2 = (y - pattern.cy) * (y - pattern.cy);
      for (let x = 0; x < width; x++) {
        const dx = x - pattern.cx;
        out[x] = Math.floor(Math.sqrt(dx * dx + dy2) * inverse) & 1;
      }
      break;
    }
    case 'checker': {
      const rowTone = Math.floor(y * inverse);
      for (let x = 0; x < width; x++) out[x] = (Math.floor(x * inverse) + rowTone) & 1;
      break;
    }
    case 'waves':
      for (let x = 0; x < width; x++) out[x] = Math.floor((y + pattern.offsets[x]) * inverse) & 1;
      break;
  }
}

/** Gradient positions per tone in {@link gradientTable}; finer than any 8-bit colour step. */
const GRADIENT_STEPS = 1024;

/**
 * Precomputes the colour at each gradient position for both pattern tones.
 * Entry `(tone * GRADIENT_STEPS + step) * 3` holds R, G, B.
 */
function gradientTable(from: Rgb, to: Rgb, tones: [number, number]): Buffer {
  const table = Buffer.alloc(2 * GRADIENT_STEPS * 3);
  for (let tone = 0; tone < 2; tone++) {
    for (let step = 0; step < GRADIENT_STEPS; step++) {
      const t = step / (GRADIENT_STEPS - 1);
      const o = (tone * GRADIENT_STEPS + step) * 3;
      for (let c = 0; c < 3; c++) {
        table[o + c] = Math.min(MAX_BACKGROUND_LEVEL, Math.round((from[c] + (to[c] - from[c]) * t) * tones[tone]));
      }
    }
  }
  return table;
}

/** Byte offset in {@link gradientTable} of the colour at position `t` (0..1) for `tone`. */
function tableOffset(tone: number, t: number): number {
  return (tone * GRADIENT_STEPS + Math.round(t * (GRADIENT_STEPS - 1))) * 3;
}

/** For a row index, the row's pixels in tone 0 and in tone 1 (each `width * 3` bytes). */
type RowSources = (y: number) => [Buffer, Buffer];

/**
 * A gradient running across the image whose lines of equal colour lean `slope` pixels per row
 * (-1..1, so up to 45 degrees). Every row is then a shifted slice of one precomputed strip per tone.
 */
function tiltedGradient(table: Buffer, width: number, height: number, slope: number): RowSources {
  const lastShift = Math.round(slope * (height - 1));
  const firstShift = Math.min(0, lastShift);
  const length = width + Math.abs(lastShift);
  const strips = [0, 1].map((tone) => {
    const strip = Buffer.allocUnsafe(length * 3);
    for (let u = 0; u < length; u++) {
      const offset = tableOffset(tone, length > 1 ? u / (length - 1) : 0.5);
      table.copy(strip, u * 3, offset, offset + 3);
    }
    return strip;
  });
  return (y) => {
    const start = (Math.round(slope * y) - firstShift) * 3;
    const end = start + width * 3;
    return [strips[0].subarray(start, end), strips[1].subarray(start, end)];
  };
}

/** A gradient running top to bottom: each row is one colour per tone. */
function verticalGradient(table: Buffer, width: number, height: number): RowSources {
  const rows: [Buffer, Buffer] = [Buffer.allocUnsafe(width * 3), Buffer.allocUnsafe(width * 3)];
  let filledFor = -1;
  return (y) => {
    const offset = tableOffset(0, height > 1 ? y / (height - 1) : 0.5);
    if (offset !== filledFor) {
      rows[0].fill(table.subarray(offset, offset + 3));
      rows[1].fill(table.subarray(offset + GRADIENT_STEPS * 3, offset + GRADIENT_STEPS * 3 + 3));
      filledFor = offset;
    }
    return rows;
  };
}

/**
 * Fills the canvas with a gradient between two palette colours, darkened or lightened by a
 * two-tone pattern. Rows are assembled from runs copied out of precomputed gradient rows, so
 * the per-pixel work is only the pattern test.
 */
export function paintBackground(canvas: Canvas, palette: Rgb[], random: () => number): void {
  const { width, height, data } = canvas;
  const [from, to] = random() < 0.5 ? [palette[0], palette[1]] : [palette[1], palette[0]];
  const table = gradientTable(from, to, [between(random, 0.72, 0.9), between(random, 1.05, 1.25)]);
  const sources =
    random() < 0.7
      ? tiltedGradient(table, width, height, between(random, -1, 1))
      : verticalGradient(table, width, height);
  const pattern = makePattern(random, width, height);
  const tones = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    fillPatternRow(pattern, y, tones);
    const [dark, light] = sources(y);
    const rowStart = y * width * 3;
    dark.copy(data, rowStart);
    let x = 0;
    while (x < width) {
      if (tones[x] === 0) {
        x++;
        continue;
      }
      const runStart = x;
      while (x < width && tones[x] === 1) x++;
      light.copy(data, rowStart + runStart * 3, runStart * 3, x * 3);
    }
  }
}
