/** Gemini `generationConfig` (sampling, output cap, JSON output, thinkingConfig) → canonical generation settings. */
import type { GenerateRequest, ReasoningEffort, ReasoningSettings, ResponseFormat } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import {
  extensionOf,
  modelledKeys,
  withChild,
  type GeminiExtension,
  type GeminiThinkingExtension,
} from '../../wire/gemini/extensions';
import { toJsonSchema } from './json-schema';

type Config = Record<string, unknown>;

/**
 * The `generationConfig` keys the codec models; the others (`responseModalities`, `speechConfig`, `presencePenalty`, …)
 * ride in the extension.
 */
const CONFIG_KEYS = modelledKeys([
  'temperature',
  'topP',
  'topK',
  'maxOutputTokens',
  'stopSequences',
  'candidateCount',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'thinkingConfig',
]);
const THINKING_KEYS = modelledKeys(['thinkingBudget', 'thinkingLevel', 'includeThoughts']);

const THINKING_LEVELS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * `thinkingConfig` → reasoning: budget 0 disables, -1 enables without a budget, N sets the budget; a level sets the
 * effort.
 */
export function decodeThinkingConfig(config: Config, at: string): ReasoningSettings | undefined {
  const reasoning: ReasoningSettings = {};
  const budget = field<number>(config, 'thinkingBudget');
  if (budget === 0) reasoning.enabled = false;
  else if (budget === -1) reasoning.enabled = true;
  else if (budget !== undefined) Object.assign(reasoning, { enabled: true, budgetTokens: budget });
  const level = field<string>(config, 'thinkingLevel')?.toLowerCase();
  if (level !== undefined && level !== 'thinking_level_unspecified') {
    if (!THINKING_LEVELS.has(level))
      invalidField(`${at}.${keyOf(config, 'thinkingLevel')}`, 'must be one of "MINIMAL", "LOW", "MEDIUM", "HIGH"');
    reasoning.effort = level as ReasoningEffort;
    reasoning.enabled ??= true;
  }
  const includeThoughts = field<boolean>(config, 'includeThoughts');
  if (includeThoughts !== undefined) reasoning.includeThoughts = includeThoughts;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

/**
 * `responseMimeType` with `responseJsonSchema` (JSON Schema) or `responseSchema` (OpenAPI subset) → a response format.
 */
export function decodeResponseFormat(config: Config, at: string): ResponseFormat | undefined {
  const mimeType = field<string>(config, 'responseMimeType')?.split(';', 1)[0]?.trim().toLowerCase();
  const jsonSchema = field<Record<string, unknown>>(config, 'responseJsonSchema');
  const openApiSchema = field<Record<string, unknown>>(config, 'responseSchema');
  const schema = jsonSchema ?? (openApiSchema ? toJsonSchema(openApiSchema) : undefined);
  if (mimeType === undefined || mimeType === 'application/json') {
    if (schema) return { type: 'json-schema', schema };
    return mimeType ? { type: 'json' } : undefined;
  }
  const mimeAt = `${at}.${keyOf(config, 'responseMimeType')}`;
  if (mimeType !== 'text/plain')
    invalidField(mimeAt, `'${mimeType}' is not supported by this gateway; use 'application/json' or 'text/plain'`);
  if (schema) invalidField(mimeAt, "must be 'application/json' when a response schema is given");
  return { type: 'text' };
}

/**
 * The extension of a `thinkingConfig` the reasoning was decoded from: `literal`, so that a Gemini
 * upstream gets the caller's own settings back rather than a translation for the model's family.
 */
function thinkingExtension(thinking: Config): GeminiThinkingExtension {
  return { ...extensionOf(thinking, THINKING_KEYS), literal: true };
}

/**
 * Copies `generationConfig` onto the request; returns the extension of what it does not model (undefined when none).
 */
export function applyGenerationConfig(
  request: GenerateRequest,
  config: Config | undefined,
  at: string,
): GeminiExtension | undefined {
  if (!config) return undefined;
  const number = (name: string) => field<number>(config, name);
  const maxOutputTokens = number('maxOutputTokens');
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const temperature = number('temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = number('topP');
  if (topP !== undefined) request.topP = topP;
  const topK = number('topK');
  if (topK !== undefined) request.topK = topK;
  const stopSequences = field<string[]>(config, 'stopSequences');
  if (stopSequences?.length) request.stopSequences = stopSequences;
  const choiceCount = number('candidateCount');
  if (choiceCount !== undefined) request.choiceCount = choiceCount;
  const seed = number('seed');
  if (seed !== undefined) request.seed = seed;
  const responseFormat = decodeResponseFormat(config, at);
  if (responseFormat) request.responseFormat = responseFormat;
  const thinking = field<Config>(config, 'thinkingConfig');
  const reasoning = thinking ? decodeThinkingConfig(thinking, `${at}.${keyOf(config, 'thinkingConfig')}`) : undefined;
  if (reasoning) request.reasoning = reasoning;
  return withChild(
    extensionOf(config, CONFIG_KEYS),
    'thinkingConfig',
    thinking ? thinkingExtension(thinking) : undefined,
  );
}
