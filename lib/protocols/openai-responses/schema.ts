/** JSON Schema of the Responses API request body (`POST /v1/responses`): types of known fields; unknown fields pass. */
import { bodyValidator, type BodyValidator } from '../shared/validate';

const nullable = (type: string | string[]) => ({ type: [...(Array.isArray(type) ? type : [type]), 'null'] });

/** An input item: its type is checked per item by the decoder (a message item may leave `type` out). */
const inputItem = {
  type: 'object',
  properties: {
    type: { type: 'string' },
    role: { type: 'string' },
    content: {
      type: ['string', 'array', 'null'],
      items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } },
    },
    call_id: { type: 'string' },
    name: { type: 'string' },
    arguments: { type: 'string' },
    input: { type: 'string' },
    output: { type: ['string', 'array'] },
    summary: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } },
    encrypted_content: nullable('string'),
  },
};

const tool = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    description: nullable('string'),
    parameters: nullable('object'),
    strict: nullable('boolean'),
    tools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string' }, name: { type: 'string', minLength: 1 } },
      },
    },
  },
};

/** A part of an input message as it arrives: its `type`, and fields the decoder checks per type. */
export type RawPart = Record<string, unknown> & { type: string };

/** An input item as it arrives. */
export type RawItem = Record<string, unknown> & { type?: string };

/** A tool as it arrives: a function, custom or namespace tool, or a built-in. */
export type RawTool = Record<string, unknown> & {
  type: string;
  name?: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
  tools?: RawTool[];
};

/** The request fields this codec reads, with the types it needs. */
export interface ResponsesBody {
  model: string;
  input?: string | RawItem[];
  instructions?: string | null;
  stream?: boolean | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  tools?: RawTool[] | null;
  tool_choice?: string | (Record<string, unknown> & { type: string }) | null;
  parallel_tool_calls?: boolean | null;
  text?: (Record<string, unknown> & { format?: Record<string, unknown> & { type: string } }) | null;
  reasoning?: (Record<string, unknown> & { effort?: string | null; summary?: string | null }) | null;
  user?: string;
  safety_identifier?: string;
  background?: boolean | null;
  previous_response_id?: string | null;
  conversation?: unknown;
}

/** The Responses body schema; scripts/generate-validators.cjs turns it into schema.validator.ts. */
export const responsesBodySchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { type: ['string', 'array'], items: inputItem },
    instructions: nullable('string'),
    stream: nullable('boolean'),
    max_output_tokens: { ...nullable('integer'), minimum: 1 },
    temperature: { ...nullable('number'), minimum: 0, maximum: 2 },
    top_p: { ...nullable('number'), minimum: 0, maximum: 1 },
    tools: { ...nullable('array'), items: tool },
    tool_choice: { type: ['string', 'object', 'null'] },
    parallel_tool_calls: nullable('boolean'),
    text: {
      ...nullable('object'),
      properties: {
        format: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { enum: ['text', 'json_object', 'json_schema'] },
            name: { type: 'string' },
            schema: { type: 'object' },
            strict: nullable('boolean'),
            description: { type: 'string' },
          },
        },
        verbosity: { ...nullable('string'), enum: ['low', 'medium', 'high', null] },
      },
    },
    reasoning: {
      ...nullable('object'),
      properties: {
        effort: { ...nullable('string'), enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', null] },
        summary: { ...nullable('string'), enum: ['auto', 'concise', 'detailed', null] },
        generate_summary: { ...nullable('string'), enum: ['auto', 'concise', 'detailed', null] },
      },
    },
    metadata: { ...nullable('object'), additionalProperties: { type: 'string' } },
    user: { type: 'string' },
    safety_identifier: { type: 'string' },
    prompt_cache_key: { type: 'string' },
    include: { ...nullable('array'), items: { type: 'string' } },
    store: nullable('boolean'),
    truncation: { ...nullable('string'), enum: ['auto', 'disabled', null] },
    service_tier: nullable('string'),
    background: nullable('boolean'),
    previous_response_id: nullable('string'),
  },
};

/** Validates a Responses body or throws a 400 naming the first bad field. */
export const validateResponsesBody: BodyValidator<ResponsesBody> = bodyValidator<ResponsesBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
