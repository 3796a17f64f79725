/** Tests the local provider's PNG encoder and prompt renderer by decoding their output independently. */
import { crc32, inflateSync } from 'node:zlib';
import { encodePng, PNG_SIGNATURE } from '../../../lib/providers/local/png';
import { renderImage } from '../../../lib/providers/local/render-image';
import { ELLIPSIS, wrapText } from '../../../lib/providers/local/wrap-text';

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlace: number;
  chunkTypes: string[];
  /** Length of the inflated IDAT stream (filter bytes included). */
  rawLength: number;
  /** Unfiltered RGB bytes, row by row. */
  pixels: Buffer;
}

/** A small, strict PNG reader for 8-bit RGB files: checks every CRC and undoes all five row filters. */
function decodePng(file: Buffer): DecodedPng {
  expect(file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  let offset = 8;
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const typeAndData = file.subarray(offset + 4, offset + 8 + length);
    const type = typeAndData.subarray(0, 4).toString('latin1');
    const data = typeAndData.subarray(4);
    expect(crc32(typeAndData)).toBe(file.readUInt32BE(offset + 8 + length));
    chunkTypes.push(type);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  expect(offset).toBe(file.length);
  if (!header) throw new Error('no IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(idat));
  return {
    width,
    height,
    bitDepth: header[8],
    colourType: header[9],
    interlace: header[12],
    chunkTypes,
    rawLength: raw.length,
    pixels: raw.length === height * (1 + 3 * width) ? unfilter(raw, width, height) : Buffer.alloc(0),
  };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

function unfilter(raw: Buffer, width: number, height: number): Buffer {
  const stride = width * 3;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    if (filter > 4) throw new Error(`row ${y}: unknown filter ${filter}`);
    for (let i = 0; i < stride; i++) {
      const o = y * stride + i;
      const left = i >= 3 ? out[o - 3] : 0;
      const up = y > 0 ? out[o - stride] : 0;
      out[o] = raw[y * (stride + 1) + 1 + i] + predict(filter, left, up, i >= 3 && y > 0 ? out[o - stride - 3] : 0);
    }
  }
  return out;
}

/** The PNG filter predictor for one byte (0 none, 1 Sub, 2 Up, 3 Average, 4 Paeth). */
function predict(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4:
      return paeth(left, up, upLeft);
    default:
      return 0;
  }
}

function pixelsOf(prompt: string, width: number, height: number, variant = 0): Buffer {
  return decodePng(renderImage(prompt, width, height, variant)).pixels;
}

function distinctColours(pixels: Buffer): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 3) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

/** Positions of pure-white pixels: only caption text is drawn in white (backgrounds stop at 235). */
function whitePixels(pixels: Buffer, width: number): Array<{ x: number; y: number }> {
  const found: Array<{ x: number; y: number }> = [];
  for (let i = 0; i < pixels.length; i += 3) {
    if (pixels[i] === 255 && pixels[i + 1] === 255 && pixels[i + 2] === 255) {
      found.push({ x: (i / 3) % width, y: Math.floor(i / 3 / width) });
    }
  }
  return found;
}

const PROMPT = 'A watercolor painting of a lighthouse at dawn, seagulls circling overhead';

describe('encodePng', () => {
  it('round-trips known pixels through a standard decoder path', () => {
    const rgb = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const decoded = decodePng(encodePng(3, 2, rgb));
    expect(decoded).toMatchObject({ width: 3, height: 2, bitDepth: 8, colourType: 2, interlace: 0 });
    expect(decoded.chunkTypes).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(decoded.pixels.equals(rgb)).toBe(true);
  });

  it('starts with the PNG signature', () => {
    expect(
      encodePng(1, 1, Buffer.from([1, 2, 3]))
        .subarray(0, 8)
        .equals(PNG_SIGNATURE),
    ).toBe(true);
  });

  it('rejects pixel buffers of the wrong length and impossible sizes', () => {
    expect(() => encodePng(2, 2, Buffer.alloc(11))).toThrow(RangeError);
    expect(() => encodePng(0, 1, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => encodePng(1.5, 2, Buffer.alloc(9))).toThrow(RangeError);
  });
});

describe('renderImage', () => {
  it.each([
    [1024, 1024],
    [1536, 1024],
    [1024, 1536],
    [17, 33],
    [16, 16],
    [4096, 16],
    [1, 1],
  ])('writes a valid %ix%i PNG', (width, height) => {
    const file = renderImage(PROMPT, width, height, 0);
    expect(file.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(file.toString('latin1', 12, 16)).toBe('IHDR');
    expect(file.readUInt32BE(16)).toBe(width);
    expect(file.readUInt32BE(20)).toBe(height);
    const decoded = decodePng(file);
    expect(decoded).toMatchObject({ width, height, bitDepth: 8, colourType: 2, interlace: 0 });
    expect(decoded.chunkTypes[0]).toBe('IHDR');
    expect(decoded.chunkTypes[decoded.chunkTypes.length - 1]).toBe('IEND');
    expect(decoded.rawLength).toBe(height * (1 + 3 * width));
    expect(decoded.pixels.length).toBe(width * height * 3);
  });

  it('draws a picture, not a flat square', () => {
    expect(distinctColours(pixelsOf(PROMPT, 256, 256))).toBeGreaterThan(50);
    expect(distinctColours(pixelsOf('x', 16, 16))).toBeGreaterThan(3);
  });

  it('is deterministic', () => {
    expect(renderImage(PROMPT, 300, 200, 2).equals(renderImage(PROMPT, 300, 200, 2))).toBe(true);
  });

  it('gives different prompts different pixels', () => {
    const a = pixelsOf('a red fox in the snow', 128, 128);
    const b = pixelsOf('a red fox in the snow!', 128, 128);
    const c = pixelsOf('blueprint of a submarine', 128, 128);
    expect(a.equals(b)).toBe(false);
    expect(a.equals(c)).toBe(false);
  });

  it('gives each variant of one prompt different pixels outside the caption', () => {
    const images = [0, 1, 2, 3].map((variant) => pixelsOf(PROMPT, 128, 128, variant));
    const topHalf = (pixels: Buffer): Buffer => pixels.subarray(0, pixels.length / 2);
    for (let i = 0; i < images.length; i++) {
      for (let j = i + 1; j < images.length; j++) expect(topHalf(images[i]).equals(topHalf(images[j]))).toBe(false);
    }
  });

  it('draws the prompt as white text in a panel near the bottom', () => {
    const width = 512;
    const height = 384;
    const text = whitePixels(pixelsOf('HELLO WORLD', width, height), width);
    expect(text.length).toBeGreaterThan(200);
    const xs = text.map((p) => p.x);
    const ys = text.map((p) => p.y);
    expect(Math.min(...ys)).toBeGreaterThan(height / 2);
    // One centred line: roughly symmetric about the middle, and only a few font pixels tall.
    expect(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - width / 2)).toBeLessThanOrEqual(3);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(height / 8);
  });

  it('draws each character from its own glyph', () => {
    // I has 11 lit font pixels, M has 18: the white area must follow the letters, not the length.
    const narrow = whitePixels(pixelsOf('IIII', 256, 256), 256).length;
    const wide = whitePixels(pixelsOf('MMMM', 256, 256), 256).length;
    expect(narrow).toBeGreaterThan(0);
    expect(wide / narrow).toBeCloseTo(18 / 11, 5);
  });

  it('draws no text for a blank prompt and boxes for characters outside ASCII', () => {
    expect(whitePixels(pixelsOf(' \n\t ', 256, 256), 256)).toHaveLength(0);
    expect(whitePixels(pixelsOf('日本語', 256, 256), 256).length).toBeGreaterThan(0);
  });

  it('keeps a very long prompt inside its panel', () => {
    const height = 200;
    const text = whitePixels(pixelsOf('word '.repeat(5000), 300, height), 300);
    expect(text.length).toBeGreaterThan(0);
    expect(Math.min(...text.map((p) => p.y))).toBeGreaterThan(height * 0.3);
  });

  it('rejects sizes outside 1..4096', () => {
    expect(() => renderImage('x', 0, 10, 0)).toThrow(RangeError);
    expect(() => renderImage('x', 10, 4097, 0)).toThrow(RangeError);
    expect(() => renderImage('x', 10.5, 10, 0)).toThrow(RangeError);
  });
});

describe('wrapText', () => {
  it('wraps at spaces and collapses whitespace', () => {
    expect(wrapText('the  quick\nbrown fox jumps', 10, 5)).toEqual(['the quick', 'brown fox', 'jumps']);
  });

  it('splits words longer than a line', () => {
    expect(wrapText('abcdefghij k', 4, 5)).toEqual(['abcd', 'efgh', 'ij k']);
  });

  it('ends with an ellipsis when the text does not fit', () => {
    expect(wrapText('one two three four five', 7, 2)).toEqual(['one two', `three${ELLIPSIS}`]);
    expect(wrapText('aaaa bbbb', 4, 1)).toEqual([`aaa${ELLIPSIS}`]);
  });

  it('counts characters as code points and returns nothing for blank text', () => {
    expect(wrapText('🎨🎨 ok', 2, 2)).toEqual(['🎨🎨', 'ok']);
    expect(wrapText('   ', 5, 5)).toEqual([]);
  });

  it('returns nothing when there is no room', () => {
    expect(wrapText('abc', 0, 3)).toEqual([]);
    expect(wrapText('abc', 3, 0)).toEqual([]);
    expect(wrapText('abc', Number.NaN, 3)).toEqual([]);
  });
});
