/** Renders the local provider's images: a prompt-seeded pattern with the prompt captioned in a built-in bitmap font. */
import { createHash } from 'node:crypto';
import { encodePng } from './png';

/** Largest width or height, in pixels, that {@link renderImage} accepts. */
export const MAX_IMAGE_EDGE = 4096;

/** The character {@link wrapText} appends when the prompt does not fit. */
export const ELLIPSIS = '\u2026';

/** Caption text colour. Backgrounds are capped at {@link MAX_BACKGROUND_LEVEL}, so only text is pure white. */
const TEXT_RGB: Rgb = [255, 255, 255];
/** Highest channel value any background, pattern or shape pixel may take. */
const MAX_BACKGROUND_LEVEL = 235;
/** Colour and opacity (out of 256) of the panel that darkens the background behind the caption. */
const PANEL_RGB: Rgb = [10, 10, 18];
const PANEL_ALPHA = 196;

type Rgb = [number, number, number];

/** An RGB pixel buffer being painted: three bytes per pixel, rows top to bottom. */
interface Canvas {
  width: number;
  height: number;
  data: Buffer;
}

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

// ---------------------------------------------------------------------------------------------
// Randomness and colour

/** A deterministic generator of numbers in [0, 1), seeded from the SHA-256 of `seed` (mulberry32). */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function between(random: () => number, low: number, high: number): number {
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

/** Four colours around a prompt-chosen hue (analogous, complementary or triadic); `variant` turns the wheel a little. */
function makePalette(random: () => number, variant: number): Rgb[] {
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

// ---------------------------------------------------------------------------------------------
// Background: gradient modulated by a two-tone pattern

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
function paintBackground(canvas: Canvas, palette: Rgb[], random: () => number): void {
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

// ---------------------------------------------------------------------------------------------
// Shapes: translucent circles and rectangles

/** Blends `rgb` over pixels x0..x1-1 of row y (clipped) with opacity `alpha` out of 256. */
function blendSpan(canvas: Canvas, y: number, x0: number, x1: number, rgb: Rgb, alpha: number): void {
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

function blendRect(canvas: Canvas, x: number, y: number, w: number, h: number, rgb: Rgb, alpha: number): void {
  for (let row = Math.max(0, y), end = Math.min(canvas.height, y + h); row < end; row++) {
    blendSpan(canvas, row, x, x + w, rgb, alpha);
  }
}

function blendCircle(canvas: Canvas, cx: number, cy: number, radius: number, rgb: Rgb, alpha: number): void {
  const top = Math.max(0, Math.floor(cy - radius));
  const bottom = Math.min(canvas.height, Math.ceil(cy + radius));
  for (let y = top; y < bottom; y++) {
    const dy = y + 0.5 - cy;
    const half = Math.sqrt(Math.max(0, radius * radius - dy * dy));
    blendSpan(canvas, y, Math.round(cx - half), Math.round(cx + half), rgb, alpha);
  }
}

/** Scatters 3-6 translucent circles and rectangles in palette colours (blends of capped colours stay capped). */
function paintShapes(canvas: Canvas, palette: Rgb[], random: () => number): void {
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

// ---------------------------------------------------------------------------------------------
// Caption: 5x7 bitmap font with a descender row, word wrap, panel

const GLYPH_WIDTH = 5;
/** Seven rows down to the baseline plus one for descenders (g, j, p, q, y, comma). */
const GLYPH_HEIGHT = 8;
/** Blank font pixels between characters and between lines. */
const CHAR_GAP = 1;
const LINE_GAP = 1;

/**
 * Glyphs for ASCII 32..126, then the ellipsis, then the box drawn for anything else.
 * Each glyph is 8 rows of 2 hex digits, top to bottom; bit 4 of a row is its leftmost pixel.
 */
const FONT_HEX = [
  '000000000000000004040404040004000a0a0000000000000a0a1f0a1f0a0a00', // space ! " #
  '040f140e051e040018190204081303000c12140815120d000404080000000000', // $ % & '
  '020408080804020008040202020408000004150e150400000004041f04040000', // ( ) * +
  '00000000000c04080000001f0000000000000000000c0c000001020408100000', // , - . /
  '0e11131519110e00040c040404040e000e11010204081f001f02040201110e00', // 0 1 2 3
  '02060a121f0202001f101e0101110e000608101e11110e001f01020408080800', // 4 5 6 7
  '0e11110e11110e000e11110f01020c00000c0c000c0c000000000c0c000c0408', // 8 9 : ;
  '020408100804020000001f001f00000008040201020408000e11010204000400', // < = > ?
  '0e11010d15150e000e11111f111111001e11111e11111e000e11101010110e00', // @ A B C
  '1c12111111121c001f10101e10101f001f10101e101010000e11101711110f00', // D E F G
  '1111111f111111000e04040404040e000702020202120c001112141814121100', // H I J K
  '1010101010101f00111b15151111110011111915131111000e11111111110e00', // L M N O
  '1e11111e101010000e11111115120d001e11111e141211000f10100e01011e00', // P Q R S
  '1f040404040404001111111111110e0011111111110a04001111111515150a00', // T U V W
  '11110a040a11110011110a04040404001f01020408101f000e08080808080e00', // X Y Z [
  '00100804020100000e02020202020e00040a1100000000000000000000001f00', // \ ] ^ _
  '080402000000000000000e010f110f001010161911111e0000000e1010110e00', // ` a b c
  '01010d1311110f0000000e111f100e000609081c0808080000000f11110f010e', // d e f g
  '101016191111110004000c0404040e00020006020202120c1010121418141200', // h i j k
  '0c04040404040e0000001a1515111100000016191111110000000e1111110e00', // l m n o
  '00001e11111e101000000f11110f0101000016191010100000000f100e011e00', // p q r s
  '08081c08080906000000111111130d0000001111110a04000000111115150a00', // t u v w
  '0000110a040a110000001111110f010e00001f0204081f000204040804040200', // x y z {
  '0404040404040400080404020404080000000815020000000000000000001500', // | } ~ …
  '1f11111111111f00', // box
].join('');

/** Row bitmaps of every glyph, {@link GLYPH_HEIGHT} bytes per glyph. */
const FONT = Uint8Array.from(FONT_HEX.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const ELLIPSIS_GLYPH = 95;
const BOX_GLYPH = 96;

/** The font index used to draw one character (a whole code point). */
function glyphIndex(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 32 && code <= 126) return code - 32;
  return char === ELLIPSIS ? ELLIPSIS_GLYPH : BOX_GLYPH;
}

/**
 * Greedily word-wraps text into at most `maxLines` lines of at most `maxChars` characters.
 * Runs of whitespace collapse to one space, words longer than a line are split, and when the
 * text does not fit the last line is cut short and ends with {@link ELLIPSIS}. Characters are
 * counted as code points, matching one font cell each.
 *
 * @param text - Text to wrap.
 * @param maxChars - Line width in characters.
 * @param maxLines - Line count limit.
 * @returns The lines; empty when the text has no visible characters or the limits are below 1.
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  if (!(maxChars >= 1 && maxLines >= 1)) return [];
  maxChars = Math.floor(maxChars);
  maxLines = Math.floor(maxLines);
  const lines: string[][] = [];
  let current: string[] = [];
  let overflow = false;
  for (const piece of wordPieces(text, maxChars)) {
    if (current.length > 0 && current.length + 1 + piece.length > maxChars) {
      lines.push(current);
      current = [];
      if (lines.length === maxLines) {
        overflow = true;
        break;
      }
    }
    if (current.length > 0) current.push(' ');
    current.push(...piece);
  }
  if (overflow) {
    const last = lines[maxLines - 1].slice(0, maxChars - 1);
    while (last.length > 0 && last[last.length - 1] === ' ') last.pop();
    lines[maxLines - 1] = [...last, ELLIPSIS];
  } else if (current.length > 0) {
    lines.push(current);
  }
  return lines.map((line) => line.join(''));
}

/** Yields the words of `text` as code-point arrays, splitting words longer than `maxChars`; lazy so huge prompts stop early. */
function* wordPieces(text: string, maxChars: number): Generator<string[]> {
  for (const match of text.matchAll(/\S+/g)) {
    const chars = Array.from(match[0]);
    for (let start = 0; start < chars.length; start += maxChars) yield chars.slice(start, start + maxChars);
  }
}

/**
 * Prepares prompt text for the ASCII font: accented Latin letters lose their accents
 * ("é" → "e") so they stay readable; other non-ASCII characters are later drawn as boxes.
 */
function captionText(prompt: string): string {
  return prompt.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/** Where and how large the caption is drawn. */
interface CaptionLayout {
  lines: string[];
  /** Screen pixels per font pixel. */
  scale: number;
  cellWidth: number;
  lineHeight: number;
  padding: number;
  panelX: number;
  panelY: number;
  panelWidth: number;
  panelHeight: number;
}

/**
 * Sizes the font to the image (about 170 font pixels across the shorter edge) and fits the
 * wrapped prompt into a panel at most ~60% of the image high, or null when not even one
 * character fits.
 */
function layoutCaption(prompt: string, width: number, height: number): CaptionLayout | null {
  const unit = Math.min(width, height);
  const scale = Math.max(1, Math.round(unit / 170));
  const margin = Math.max(1, Math.round(unit * 0.04));
  const padding = scale === 1 ? 1 : 2 * scale;
  const cellWidth = (GLYPH_WIDTH + CHAR_GAP) * scale;
  const lineHeight = (GLYPH_HEIGHT + LINE_GAP) * scale;
  // n characters span n cells minus the trailing gap; likewise for lines.
  const maxChars = Math.floor((width - 2 * margin - 2 * padding + CHAR_GAP * scale) / cellWidth);
  const oneLine = GLYPH_HEIGHT * scale + 2 * padding;
  const maxPanelHeight = Math.min(height - 2 * margin, Math.max(Math.floor(height * 0.6), oneLine));
  const maxLines = Math.floor((maxPanelHeight - 2 * padding + LINE_GAP * scale) / lineHeight);
  if (maxChars < 1 || maxLines < 1) return null;
  const lines = wrapText(captionText(prompt), maxChars, maxLines);
  if (lines.length === 0) return null;
  const longest = Math.max(...lines.map((line) => Array.from(line).length));
  const panelWidth = longest * cellWidth - CHAR_GAP * scale + 2 * padding;
  const panelHeight = lines.length * lineHeight - LINE_GAP * scale + 2 * padding;
  return {
    lines,
    scale,
    cellWidth,
    lineHeight,
    padding,
    panelX: Math.floor((width - panelWidth) / 2),
    panelY: height - margin - panelHeight,
    panelWidth,
    panelHeight,
  };
}

/** Paints pixels of `rgb` (opaque) in a clipped rectangle. */
function fillRect(canvas: Canvas, x: number, y: number, w: number, h: number, rgb: Rgb): void {
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

/** Draws one glyph with its top-left corner at (x, y), each font pixel a `scale`-sized square. */
function drawGlyph(canvas: Canvas, glyph: number, x: number, y: number, scale: number): void {
  for (let row = 0; row < GLYPH_HEIGHT; row++) {
    const bits = FONT[glyph * GLYPH_HEIGHT + row];
    for (let col = 0; col < GLYPH_WIDTH; col++) {
      if (bits & (0x10 >> col)) fillRect(canvas, x + col * scale, y + row * scale, scale, scale, TEXT_RGB);
    }
  }
}

/** Darkens a panel near the bottom and writes the wrapped prompt on it, each line centred. */
function paintCaption(canvas: Canvas, prompt: string): void {
  const layout = layoutCaption(prompt, canvas.width, canvas.height);
  if (!layout) return;
  const { lines, scale, cellWidth, lineHeight, padding, panelX, panelY, panelWidth, panelHeight } = layout;
  blendRect(canvas, panelX, panelY, panelWidth, panelHeight, PANEL_RGB, PANEL_ALPHA);
  lines.forEach((line, index) => {
    const chars = Array.from(line);
    const lineWidth = chars.length * cellWidth - CHAR_GAP * scale;
    let x = panelX + Math.floor((panelWidth - lineWidth) / 2);
    const y = panelY + padding + index * lineHeight;
    for (const char of chars) {
      drawGlyph(canvas, glyphIndex(char), x, y, scale);
      x += cellWidth;
    }
  });
}
