/**
 * The local embedding model `rosetta-embed`: deterministic, lexical vectors from hashed word and character n-gram
 * features. Texts that share words (or word pieces) score a higher cosine than texts that share none; it knows nothing
 * of meaning (synonyms, paraphrases, other languages), so it is for offline development, tests and demos, not for
 * retrieval quality.
 */
import type { EmbedInput } from '../../canonical';
import { GatewayError } from '../../errors';

/** Vector length when a request does not ask for one. */
export const LOCAL_EMBED_DIMENSIONS = 256;

/** The longest vector the local model makes. */
export const LOCAL_EMBED_MAX_DIMENSIONS = 1024;

/** Weight of a whole word, and of each of its character trigrams (`#walking#` → `#wa`, `wal`, … `ng#`). */
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.4;
/** Weight of two adjacent words together (word order counts a little). */
const BIGRAM_WEIGHT = 0.5;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * FNV-1a over a string's UTF-16 code units, 32 bits, finished with MurmurHash3's mixer (FNV's low bits depend only on
 * the inputs' low bits; the mixer spreads every bit over all of them).
 */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  value = Math.imul(value, 0xc2b2ae35);
  value ^= value >>> 16;
  return value >>> 0;
}

/**
 * Adds one feature: its bucket from the hash's low bits, its sign from the top bit (so features that share a bucket
 * tend to cancel out rather than add up).
 */
function add(vector: Float64Array, feature: string, weight: number): void {
  const value = hash(feature);
  vector[value % vector.length]! += value >= 0x80000000 ? -weight : weight;
}

/** Word, word-pair and character-trigram features of a text; a text without words uses its characters. */
function addText(vector: Float64Array, text: string): void {
  const words = text.toLowerCase().normalize('NFKC').match(WORD) ?? [];
  if (words.length === 0) {
    for (const character of text) add(vector, `c:${character}`, WORD_WEIGHT);
    return;
  }
  words.forEach((word, index) => {
    add(vector, `w:${word}`, WORD_WEIGHT);
    if (index > 0) add(vector, `b:${words[index - 1]} ${word}`, BIGRAM_WEIGHT);
    const padded = `#${word}#`;
    for (let start = 0; start + 3 <= padded.length; start++)
      add(vector, `t:${padded.slice(start, start + 3)}`, TRIGRAM_WEIGHT);
  });
}

/** Token ids are words of their own (`#<id>`), pairs of adjacent ids their bigrams. */
function addTokens(vector: Float64Array, tokens: readonly number[]): void {
  tokens.forEach((token, index) => {
    add(vector, `i:${token}`, WORD_WEIGHT);
    if (index > 0) add(vector, `j:${tokens[index - 1]} ${token}`, BIGRAM_WEIGHT);
  });
}

/** The vector length a request asks for, checked against the model's range (400 outside it). */
export function localDimensions(requested: number | undefined): number {
  const dimensions = requested ?? LOCAL_EMBED_DIMENSIONS;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > LOCAL_EMBED_MAX_DIMENSIONS)
    throw new GatewayError(
      'invalid_request',
      `This model makes vectors of 1 to ${LOCAL_EMBED_MAX_DIMENSIONS} dimensions, not ${dimensions}.`,
      { param: 'dimensions' },
    );
  return dimensions;
}

/**
 * The vector of one input: features hashed into `dimensions` buckets (a sub-linear weight per repeated feature), then
 * L2-normalised. The same input and length always give the same vector.
 */
export function localEmbedding(input: EmbedInput, dimensions: number): Float32Array {
  const sums = new Float64Array(dimensions);
  if (typeof input === 'string') addText(sums, input);
  else addTokens(sums, input);
  let norm = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = sums[index]!;
    // Sub-linear: a word said ten times does not outweigh ten different words.
    sums[index] = Math.sign(value) * Math.log1p(Math.abs(value));
    norm += sums[index]! * sums[index]!;
  }
  const vector = new Float32Array(dimensions);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let index = 0; index < dimensions; index++) vector[index] = sums[index]! * scale;
  return vector;
}
