/** JSON Schema of the embeddings request body: types of known fields; unknown fields pass. `input` is checked in code. */
import { bodyValidator, type BodyValidator } from '../shared/validate';

/** Most inputs one request may carry (OpenAI's limit). */
export const MAX_EMBEDDING_INPUTS = 2048;

/** The request fields this codec reads, with the types it needs (`input` as sent: decode-request.ts checks it). */
export interface EmbeddingsBody {
  model: string;
  input: unknown;
  encoding_format?: 'float' | 'base64' | null;
  dimensions?: number | null;
  user?: string | null;
}

export const embeddingsBodySchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    encoding_format: { enum: ['float', 'base64', null] },
    dimensions: { type: ['integer', 'null'], minimum: 1 },
    user: { type: ['string', 'null'] },
  },
};

/** Validates an embeddings body or throws a 400 naming the first bad field. */
export const validateEmbeddingsBody: BodyValidator<EmbeddingsBody> = bodyValidator<EmbeddingsBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
