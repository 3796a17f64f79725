/** JSON Schema of the images-generation request body: types of known fields; unknown fields pass. */
import { bodyValidator, type BodyValidator } from '../shared/validate';

/** Longest prompt accepted, in characters (the GPT image models' limit). */
export const MAX_PROMPT_LENGTH = 32_000;

/** Most images one request may ask for. */
export const MAX_IMAGE_COUNT = 10;

const nullable = (type: string) => ({ type: [type, 'null'] });

/** The request fields this codec reads, with the types it needs. */
export interface ImageGenerationBody {
  model: string;
  prompt: string;
  n?: number | null;
  size?: string | null;
  response_format?: 'b64_json' | 'url' | null;
  quality?: string | null;
  style?: string | null;
  background?: string | null;
  output_format?: string | null;
  user?: string | null;
  stream?: boolean | null;
}

/** The images-generation body schema; scripts/generate-validators.cjs turns it into schema.validator.ts. */
export const imageGenerationBodySchema = {
  type: 'object',
  required: ['model', 'prompt'],
  properties: {
    model: { type: 'string', minLength: 1 },
    prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH },
    n: { ...nullable('integer'), minimum: 1, maximum: MAX_IMAGE_COUNT },
    size: nullable('string'),
    response_format: { enum: ['b64_json', 'url', null] },
    quality: nullable('string'),
    style: nullable('string'),
    background: nullable('string'),
    output_format: nullable('string'),
    user: nullable('string'),
    stream: nullable('boolean'),
  },
};

/** Validates an images-generation body or throws a 400 naming the first bad field. */
export const validateImageGenerationBody: BodyValidator<ImageGenerationBody> = bodyValidator<ImageGenerationBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
