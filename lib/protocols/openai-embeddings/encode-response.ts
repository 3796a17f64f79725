/** Canonical EmbedResponse → the embeddings response body (`object: "list"`). */
import { endianness } from 'node:os';
import type { EmbedResponse } from '../../canonical';
import type { EncodingFormat } from './decode-request';

const LITTLE_ENDIAN = endianness() === 'LE';

/** A vector as float32, the form both encodings start from when it is not one already. */
function float32(vector: Float32Array | number[]): Float32Array {
  return vector instanceof Float32Array ? vector : Float32Array.from(vector);
}

/** Base64 of a vector's little-endian float32 bytes (what the official SDKs ask for and decode). */
export function base64Vector(vector: Float32Array | number[]): string {
  const floats = float32(vector);
  if (LITTLE_ENDIAN) return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
  const bytes = Buffer.allocUnsafe(floats.length * 4);
  for (let index = 0; index < floats.length; index++) bytes.writeFloatLE(floats[index]!, index * 4);
  return bytes.toString('base64');
}

/** A vector as JSON numbers: an upstream's numbers as they came, a float32 vector's values. */
function floatVector(vector: Float32Array | number[]): number[] {
  return Array.isArray(vector) ? vector : Array.from(vector);
}

/** The embeddings response: one `data[]` item per input, in input order; `usage` the tokens charged. */
export function encodeEmbeddingsResponse(response: EmbedResponse, format: EncodingFormat, inputTokens: number) {
  const encode = format === 'base64' ? base64Vector : floatVector;
  return {
    object: 'list',
    data: response.vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
    model: response.model,
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
  };
}
