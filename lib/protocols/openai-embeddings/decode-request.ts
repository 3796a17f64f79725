/** Embeddings request body → canonical EmbedRequest. */
import type { EmbedInput, EmbedRequest } from '../../canonical';
import { unmodelledFields, type JsonObject } from '../../json';
import type { EmbeddingsRequestExtension } from '../../wire/openai/extensions';
import { invalidField } from '../shared/validate';
import { MAX_EMBEDDING_INPUTS, validateEmbeddingsBody } from './schema';

/** How the caller wants the vectors: JSON numbers, or base64 of their little-endian float32 bytes. */
export type EncodingFormat = 'float' | 'base64';

/** The body fields this codec models. */
const MODELLED_BODY: ReadonlySet<string> = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);

const INPUT_FORMS =
  'must be a non-empty string, an array of non-empty strings, an array of token ids or an array of non-empty token-id arrays';

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A token-id array, checked: non-empty, every id a non-negative integer. */
function tokenIds(value: unknown[], where: string): number[] {
  if (value.length === 0) invalidField(where, 'a token-id array must not be empty');
  const bad = value.findIndex((id) => !isTokenId(id));
  if (bad !== -1) invalidField(`${where}[${bad}]`, 'a token id must be a non-negative integer');
  return value as number[];
}

/**
 * The inputs of `input` in its four forms: a string, an array of strings, an array of token ids (one input), an
 * array of token-id arrays. Empty strings and arrays, mixed arrays, other types and more than
 * {@link MAX_EMBEDDING_INPUTS} inputs are a 400 naming the field.
 */
export function decodeEmbeddingInputs(input: unknown): EmbedInput[] {
  if (typeof input === 'string') {
    if (input.length === 0) invalidField('input', 'must not be an empty string');
    return [input];
  }
  if (!Array.isArray(input)) invalidField('input', INPUT_FORMS);
  if (input.length === 0) invalidField('input', 'must not be an empty array');
  if (typeof input[0] === 'number') return [tokenIds(input, 'input')];
  if (input.length > MAX_EMBEDDING_INPUTS)
    invalidField('input', `holds ${input.length} inputs; at most ${MAX_EMBEDDING_INPUTS} may be sent in one request`);
  const strings = typeof input[0] === 'string';
  return input.map((item: unknown, index) => {
    const where = `input[${index}]`;
    if (strings) {
      if (typeof item !== 'string') invalidField(where, `must be a string like the other inputs (${INPUT_FORMS})`);
      if (item.length === 0) invalidField(where, 'must not be an empty string');
      return item;
    }
    if (!Array.isArray(item)) invalidField(where, INPUT_FORMS.replace('must be', 'input'));
    return tokenIds(item, where);
  });
}

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field. Fields it does not model
 * (a compatible server's own), and `encoding_format: 'base64'`, are in `extensions['openai-embeddings']`.
 */
export function decodeEmbeddingsRequest(body: unknown): EmbedRequest {
  validateEmbeddingsBody(body);
  const request: EmbedRequest = { model: body.model, inputs: decodeEmbeddingInputs(body.input) };
  if (typeof body.dimensions === 'number') request.dimensions = body.dimensions;
  if (body.user) request.user = body.user;
  const fields = unmodelledFields(body as unknown as JsonObject, MODELLED_BODY);
  const base64 = body.encoding_format === 'base64';
  if (fields || base64) {
    const extension: EmbeddingsRequestExtension = {};
    if (fields) extension.fields = fields;
    if (base64) extension.encodingFormat = 'base64';
    request.extensions = { 'openai-embeddings': extension };
  }
  return request;
}

/** The format the caller asked for: `float` unless it says `base64`. */
export function encodingFormatOf(body: unknown): EncodingFormat {
  return (body as { encoding_format?: unknown }).encoding_format === 'base64' ? 'base64' : 'float';
}
