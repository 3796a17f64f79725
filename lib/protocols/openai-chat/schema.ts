/** JSON Schema of the chat-completions request body: types of known fields; unknown fields pass. */
import { bodyValidator, type BodyValidator } from '../shared/validate';

const nullable = (type: string | string[]) => ({ type: [...(Array.isArray(type) ? type : [type]), 'null'] });

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    text: { type: 'string' },
    image_url: {
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string' }, detail: { type: 'string' } },
    },
  },
};

const message = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['system', 'developer', 'user', 'assistant', 'tool', 'function'] },
    content: { type: ['string', 'array', 'null'], items: contentPart },
    name: { type: 'string' },
    tool_calls: nullable('array'),
    tool_call_id: { type: 'string' },
  },
};

const tool = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    function: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        parameters: { type: 'object' },
        strict: nullable('boolean'),
      },
    },
  },
};

/** The request fields this codec reads, with the types it needs. */
export interface ChatCompletionBody {
  model: string;
  messages: Array<Record<string, unknown> & { role: string }>;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  n?: number | null;
  stop?: string | string[] | null;
  tools?: Array<{
    type: string;
    function?: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
  }> | null;
  tool_choice?: string | { type: string; function?: { name: string } } | null;
  parallel_tool_calls?: boolean | null;
  response_format?: {
    type: string;
    json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean | null };
  } | null;
  reasoning_effort?: string | null;
  seed?: number | null;
  user?: string;
  safety_identifier?: string;
  /** Checked by the decoder (a string), not by the schema. */
  prompt_cache_key?: unknown;
  /** Checked by the decoder (a string), not by the schema. */
  prompt_cache_retention?: unknown;
}

/** The chat-completions body schema; scripts/generate-validators.cjs turns it into schema.validator.ts. */
export const chatCompletionBodySchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: { type: 'array', minItems: 1, items: message },
    stream: nullable('boolean'),
    stream_options: { ...nullable('object'), properties: { include_usage: { type: 'boolean' } } },
    max_tokens: { ...nullable('integer'), minimum: 1 },
    max_completion_tokens: { ...nullable('integer'), minimum: 1 },
    temperature: { ...nullable('number'), minimum: 0, maximum: 2 },
    top_p: { ...nullable('number'), minimum: 0, maximum: 1 },
    n: { ...nullable('integer'), minimum: 1, maximum: 128 },
    stop: { type: ['string', 'array', 'null'], items: { type: 'string' }, maxItems: 4 },
    tools: { ...nullable('array'), items: tool },
    tool_choice: { type: ['string', 'object', 'null'] },
    parallel_tool_calls: nullable('boolean'),
    response_format: {
      ...nullable('object'),
      required: ['type'],
      properties: {
        type: { enum: ['text', 'json_object', 'json_schema'] },
        json_schema: {
          type: 'object',
          properties: { name: { type: 'string' }, schema: { type: 'object' }, strict: nullable('boolean') },
        },
      },
    },
    reasoning_effort: {
      ...nullable('string'),
      enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', null],
    },
    seed: nullable('integer'),
    user: { type: 'string' },
    safety_identifier: { type: 'string' },
  },
};

/** Validates a chat-completions body or throws a 400 naming the first bad field. */
export const validateChatCompletionBody: BodyValidator<ChatCompletionBody> = bodyValidator<ChatCompletionBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
