/**
 * Embedding vectors as the wire carries them. An upstream's vectors are kept as its own text — a JSON array of numbers,
 * or base64 of little-endian float32 — and written into the caller's answer as they came when the caller's encoding
 * is the same (no number parsed or printed), converted between the two encodings without an array of JavaScript
 * numbers when it is not (docs/performance.md, "Embeddings").
 */
import { endianness } from 'node:os';

const LITTLE_ENDIAN = endianness() === 'LE';

/** One vector as the upstream wrote it: `json` the text of an array of numbers, `base64` the text of a base64 string. */
export class WireVector {
  constructor(
    /** The text: `[0.1,-0.2,…]` for `json`, the base64 characters (no quotes) for `base64`. */
    readonly text: string,
    readonly form: 'json' | 'base64',
  ) {}

  /** Its values (JSON numbers as parsed, base64 as float32), for code that reads a vector as numbers. */
  *[Symbol.iterator](): IterableIterator<number> {
    yield* this.form === 'json' ? (JSON.parse(this.text) as number[]) : float32FromBase64(this.text);
  }
}

/** A canonical vector: float32 values, JSON numbers, or the upstream's own text. */
export type EmbeddingVector = Float32Array | number[] | WireVector;

/** A pre-serialised JSON body: written as it is (`sendJson`); `JSON.stringify` of it gives the same JSON. */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Float32 values from base64 of little-endian float32 bytes. */
function float32FromBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const vector = new Float32Array(bytes.length >> 2);
  if (LITTLE_ENDIAN) new Uint8Array(vector.buffer).set(bytes.subarray(0, vector.length * 4));
  else for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}

/** Float32 values from the text of a JSON array of numbers (checked by {@link isNumberArray}), number by number. */
function float32FromJson(text: string): Float32Array {
  const end = text.lastIndexOf(']');
  let body = 1;
  while (body < end && text.charCodeAt(body) <= 32) body++;
  if (body === end) return new Float32Array(0);
  let count = 1;
  for (let at = text.indexOf(',', body); at !== -1 && at < end; at = text.indexOf(',', at + 1)) count++;
  const vector = new Float32Array(count);
  let start = body;
  for (let index = 0; index < count; index++) {
    let stop = text.indexOf(',', start);
    if (stop === -1 || stop > end) stop = end;
    vector[index] = Number(text.slice(start, stop));
    start = stop + 1;
  }
  return vector;
}

/** A vector's values as float32 (what the base64 encoding carries, and what a consumer of the numbers reads). */
export function vectorFloat32(vector: EmbeddingVector): Float32Array {
  if (vector instanceof Float32Array) return vector;
  if (vector instanceof WireVector)
    return vector.form === 'base64' ? float32FromBase64(vector.text) : float32FromJson(vector.text);
  return Float32Array.from(vector);
}

/** Base64 of a vector's little-endian float32 bytes (what the official SDKs ask for and decode). */
export function vectorBase64(vector: EmbeddingVector): string {
  if (vector instanceof WireVector && vector.form === 'base64') return vector.text;
  const floats = vectorFloat32(vector);
  if (LITTLE_ENDIAN) return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
  const bytes = Buffer.allocUnsafe(floats.length * 4);
  for (let index = 0; index < floats.length; index++) bytes.writeFloatLE(floats[index]!, index * 4);
  return bytes.toString('base64');
}

/**
 * The text of a vector as a JSON array of numbers: an upstream's JSON as it came (every digit kept), float32 values
 * printed as the doubles they are (`JSON.stringify` of `Array.from` of them, without the array), non-finite ones `null`.
 */
export function vectorJson(vector: EmbeddingVector): string {
  if (vector instanceof WireVector) {
    if (vector.form === 'json') return vector.text;
    vector = float32FromBase64(vector.text);
  }
  if (Array.isArray(vector)) return JSON.stringify(vector);
  for (let index = 0; index < vector.length; index++) {
    if (!Number.isFinite(vector[index]!)) return JSON.stringify(Array.from(vector));
  }
  return `[${vector.join(',')}]`;
}

/** A vector's values as JSON numbers (a consumer that needs an array; the answer paths use {@link vectorJson}). */
export function vectorNumbers(vector: EmbeddingVector): number[] {
  if (Array.isArray(vector)) return vector;
  return Array.from(vectorFloat32(vector));
}

const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** A JSON array of numbers, from where the regex's `lastIndex` is (sticky). */
const NUMBER_ARRAY = new RegExp(`\\[\\s*(?:${NUMBER}\\s*(?:,\\s*${NUMBER}\\s*)*)?\\]`, 'y');
/** A base64 string's characters and its closing quote, from `lastIndex`. */
const BASE64_STRING = /[A-Za-z0-9+/=]*"/y;

/** Whether text is a JSON array of numbers and nothing else. */
export function isNumberArray(text: string): boolean {
  NUMBER_ARRAY.lastIndex = 0;
  return NUMBER_ARRAY.test(text) && NUMBER_ARRAY.lastIndex === text.length;
}

/** A placeholder's prefix: a NUL, which no base64 vector starts with. */
const MARK = '\u0000';

/** Where the value after `"<key>"` at `at` starts (past blanks, a colon, blanks), or -1 when no colon follows. */
function valueStart(text: string, at: number): number {
  let position = at;
  while (text.charCodeAt(position) <= 32) position++;
  if (text.charCodeAt(position) !== 58) return -1;
  position++;
  while (text.charCodeAt(position) <= 32) position++;
  return position;
}

/**
 * An upstream answer's text with the value of every `"<key>":` that is a base64 string or an array of numbers (the
 * vectors) cut out and replaced by a placeholder string, so that `JSON.parse` of the rest reads no vector's numbers.
 * The cut values are in `cut`, each checked as it is found (a sticky regex: the one pass over a vector's text);
 * {@link takeVector} turns a placeholder back into its {@link WireVector}. A key inside a string cannot match (its
 * quotes are escaped); a value that is neither stays in the text and is parsed.
 */
export function cutVectors(text: string, key: string): { skeleton: string; cut: string[] } {
  const cut: string[] = [];
  const pieces: string[] = [];
  const name = `"${key}"`;
  let copied = 0;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const start = valueStart(text, at + name.length);
    if (start === -1) continue;
    const first = text.charCodeAt(start);
    const pattern = first === 91 ? NUMBER_ARRAY : first === 34 ? BASE64_STRING : undefined;
    if (pattern === undefined) continue;
    pattern.lastIndex = first === 34 ? start + 1 : start;
    if (!pattern.test(text)) continue;
    const end = pattern.lastIndex;
    pieces.push(text.slice(copied, start), `"\\u0000${cut.length}"`);
    cut.push(text.slice(start, end));
    copied = end;
    at = end - 1;
  }
  if (cut.length === 0) return { skeleton: text, cut };
  pieces.push(text.slice(copied));
  return { skeleton: pieces.join(''), cut };
}

/**
 * The vector a parsed value of the skeleton stands for: a placeholder's cut text as a {@link WireVector}, any other
 * value as `parse` reads it (undefined: not a vector).
 */
export function takeVector(
  value: unknown,
  cut: readonly string[],
  parse: (value: unknown) => EmbeddingVector | undefined,
): EmbeddingVector | undefined {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return parse(value);
  const text = cut[Number(value.slice(1))];
  if (text === undefined) return undefined;
  return text.charCodeAt(0) === 34 ? new WireVector(text.slice(1, -1), 'base64') : new WireVector(text, 'json');
}

/** JSON.parse of an upstream's text with its vectors cut out ({@link cutVectors}); the whole text when that fails. */
export function parseWithoutVectors(text: string, key: string): { body: unknown; cut: string[] } {
  // A NUL of the upstream's own would read as a placeholder: such (malformed) text is read whole.
  if (text.includes('\\u0000')) return { body: JSON.parse(text), cut: [] };
  const { skeleton, cut } = cutVectors(text, key);
  try {
    return { body: JSON.parse(skeleton), cut };
  } catch {
    return { body: JSON.parse(text), cut: [] };
  }
}
