/** JSON Schema of the generateContent request body: types of known fields under both spellings; unknown fields pass. */
import { bodyValidator, type BodyValidator } from '../shared/validate';
import { bothSpellings } from '../../wire/gemini/field-names';

const nullable = (type: string) => ({ type: [type, 'null'] });
const string = { type: 'string' };
const object = { type: 'object' };

/**
 * Shared subschemas, each compiled once and referenced (inlining them under both spellings made the validator ~200 KB
 * of code).
 */
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

const blob = { type: 'object', properties: bothSpellings({ mimeType: string, data: string, displayName: string }) };
const fileData = {
  type: 'object',
  properties: bothSpellings({ fileUri: string, mimeType: string, displayName: string }),
};
const functionCall = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, args: nullable('object'), id: string },
};

/** A part nested inside a function response (multimodal function results). */
const innerPart = { type: 'object', properties: bothSpellings({ inlineData: ref('blob') }) };

const functionResponse = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    response: nullable('object'),
    id: string,
    parts: { type: 'array', items: ref('innerPart') },
  },
};

const part = {
  type: 'object',
  properties: bothSpellings({
    text: string,
    thought: nullable('boolean'),
    thoughtSignature: string,
    inlineData: ref('blob'),
    fileData,
    functionCall,
    functionResponse: ref('functionResponse'),
  }),
};

const content = {
  type: 'object',
  required: ['parts'],
  properties: { role: { enum: ['user', 'model'] }, parts: { type: 'array', minItems: 1, items: ref('part') } },
};

const functionDeclaration = {
  type: 'object',
  required: ['name'],
  properties: bothSpellings({
    name: { type: 'string', minLength: 1 },
    description: string,
    parameters: object,
    parametersJsonSchema: object,
  }),
};

const thinkingConfig = {
  ...nullable('object'),
  properties: bothSpellings({
    thinkingBudget: { ...nullable('integer'), minimum: -1 },
    includeThoughts: nullable('boolean'),
    thinkingLevel: nullable('string'),
  }),
};

const generationConfig = {
  ...nullable('object'),
  properties: bothSpellings({
    temperature: { ...nullable('number'), minimum: 0, maximum: 2 },
    topP: { ...nullable('number'), minimum: 0, maximum: 1 },
    topK: { ...nullable('integer'), minimum: 1 },
    maxOutputTokens: { ...nullable('integer'), minimum: 1 },
    stopSequences: { ...nullable('array'), items: string, maxItems: 5 },
    candidateCount: { ...nullable('integer'), minimum: 1, maximum: 8 },
    seed: nullable('integer'),
    responseMimeType: nullable('string'),
    responseSchema: nullable('object'),
    responseJsonSchema: nullable('object'),
    thinkingConfig,
  }),
};

/** Function-calling modes; `MODE_UNSPECIFIED` means the default (`AUTO`). */
export const FUNCTION_CALLING_MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;

const toolConfig = {
  ...nullable('object'),
  properties: bothSpellings({
    functionCallingConfig: {
      ...nullable('object'),
      properties: bothSpellings({
        mode: { enum: [...FUNCTION_CALLING_MODES, null] },
        allowedFunctionNames: { ...nullable('array'), items: string },
      }),
    },
  }),
};

/** A raw part: read its fields with `field()` (either spelling). */
export type RawPart = Record<string, unknown>;

/** A raw content (one turn). */
export interface RawContent {
  role?: 'user' | 'model';
  parts: RawPart[];
}

/**
 * The request body after validation. Fields other than `contents` may be spelt either way: read them with `field()`.
 */
export interface GenerateContentBody extends Record<string, unknown> {
  contents: RawContent[];
}

/** `inlineData` as read with `field()`. */
export type RawBlob = Record<string, unknown>;

/** `functionCall`. */
export interface RawFunctionCall {
  name: string;
  args?: Record<string, unknown> | null;
  id?: string;
}

/** `functionResponse`. */
export interface RawFunctionResponse {
  name: string;
  response?: Record<string, unknown> | null;
  id?: string;
  parts?: RawPart[];
}

/** `tools[].functionDeclarations[]`. */
export type RawFunctionDeclaration = Record<string, unknown> & { name: string };

/** The generateContent body schema; scripts/generate-validators.cjs turns it into schema.validator.ts. */
export const generateContentBodySchema = {
  type: 'object',
  required: ['contents'],
  $defs: { blob, innerPart, functionResponse, part, content, generationConfig, toolConfig },
  properties: bothSpellings({
    contents: { type: 'array', minItems: 1, items: ref('content') },
    systemInstruction: {
      ...nullable('object'),
      required: ['parts'],
      properties: { parts: { type: 'array', items: ref('part') } },
    },
    tools: {
      ...nullable('array'),
      items: {
        type: 'object',
        properties: bothSpellings({ functionDeclarations: { type: 'array', items: functionDeclaration } }),
      },
    },
    toolConfig: ref('toolConfig'),
    generationConfig: ref('generationConfig'),
    safetySettings: nullable('array'),
    cachedContent: nullable('string'),
  }),
};

/** Validates a generateContent body; throws a 400 naming the first bad field (in the spelling the caller used). */
export const validateGenerateContentBody: BodyValidator<GenerateContentBody> = bodyValidator<GenerateContentBody>(
  () => (require('./schema.validator') as typeof import('./schema.validator')).validate,
);
