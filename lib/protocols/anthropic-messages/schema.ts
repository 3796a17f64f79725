/** JSON Schema of the Anthropic messages request body: types of known fields; unknown fields pass. */
import { bodyValidator, type BodyValidator } from '../shared/validate';

const nullable = (type: string | string[]) => ({ type: [...(Array.isArray(type) ? type : [type]), 'null'] });

const block = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } };

const textBlock = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string' } },
};

const message = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { enum: ['user', 'assistant', 'system'] },
    content: { type: ['string', 'array'], items: block },
  },
};

const tool = {
  type: 'object',
  properties: {
    type: nullable('string'),
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    input_schema: { type: 'object' },
    strict: { type: 'boolean' },
  },
};

/** A content block as it arrives: its `type`, and fields the decoder checks per type. */
export type RawBlock = Record<string, unknown> & { type: string };

/** A message as it arrives. */
export interface RawMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | RawBlock[];
}

/** A tool definition as it arrives: a custom tool, or a server tool with a versioned `type`. */
export interface RawTool {
  type?: string | null;
  name?: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  strict?: boolean;
}

/** Effort levels of `output_config.effort`. */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** The request fields this codec reads, with the types it needs. */
export interface MessagesBody {
  model: string;
  max_tokens: number;
  messages: RawMessage[];
  system?: string | Array<{ type: 'text'; text: string }> | null;
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  stop_sequences?: string[] | null;
  stream?: boolean | null;
  tools?: RawTool[] | null;
  tool_choice?: {
    type: 'auto' | 'any' | 'tool' | 'none';
    name?: string;
    disable_parallel_tool_use?: boolean | null;
  } | null;
  thinking?: { type: 'enabled' | 'disabled' | 'adaptive'; budget_tokens?: number; display?: string | null } | null;
  output_config?: {
    effort?: AnthropicEffort | null;
    format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  } | null;
  metadata?: { user_id?: string | null } | null;
}

/** The messages body schema; scripts/generate-validators.cjs turns it into schema.validator.ts. */
export const messagesBodySchema = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    max_tokens: { type: 'integer', minimum: 1 },
    // May be empty only in a thread's continue (checked by the decoder).
    messages: { type: 'array', items: message },
    system: { type: ['string', 'array', 'null'], items: textBlock },
    temperature: { ...nullable('number'), minimum: 0, maximum: 1 },
    top_p: { ...nullable('number'), minimum: 0, maximum: 1 },
    top_k: { ...nullable('integer'), minimum: 0 },
    stop_sequences: { ...nullable('array'), items: { type: 'string' } },
    stream: nullable('boolean'),
    tools: { ...nullable('array'), items: tool },
    tool_choice: {
      ...nullable('object'),
      required: ['type'],
      properties: {
        type: { enum: ['auto', 'any', 'tool', 'none'] },
        name: { type: 'string', minLength: 1 },
        disable_parallel_tool_use: nullable('boolean'),
      },
    },
    thinking: {
      ...nullable('object'),
      required: ['type'],
      properties: {
        type: { enum: ['enabled', 'disabled', 'adaptive'] },
        budget_tokens: { type: 'integer', minimum: 1024 },
        display: nullable('string'),
      },
    },
    output_config: {
      ...nullable('object'),
      properties: {
        effort: { enum: ['low', 'medium', 'high', 'xhigh', 'max', null] },
        format: {
          ...nullable('object'),
          required: ['type', 'schema'],
          properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
        },
      },
    },
    metadata: { ...nullable('object'), properties: { user_id: nullable('string') } },
  },
};

/** Validates the body's known fields; content blocks and tools are checked per type by the decoder. */
export const validateMessagesBody: BodyValidator<MessagesBody> = bodyValidator<MessagesBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
