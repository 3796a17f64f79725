/** Gemini `generationConfig` (sampling, output cap, JSON output, thinkingConfig) → canonical generation settings. */
import type { GenerateRequest, ReasoningEffort, ReasoningSettings, ResponseFormat } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import { toJsonSchema } from './json-schema';
import { logCodec } from './log';

type Config = Record<string, unknown>;

/** Generation settings this gateway cannot pass on; dropped with a debug line (they do not change what is asked). */
const DROPPED = ['presencePenalty', 'frequencyPenalty', 'responseLogprobs', 'logprobs', 'mediaResolution', 'speechConfig', 'responseModalities'];

const THINKING_LEVELS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/** `thinkingConfig` → reasoning: budget 0 disables, -1 enables without a budget, N sets the budget; a level sets the effort. */
export function decodeThinkingConfig(config: Config, at: string): ReasoningSettings | undefined {
  const reasoning: ReasoningSettings = {};
  const budget = field<number>(config, 'thinkingBudget');
  if (budget === 0) reasoning.enabled = false;
  else if (budget === -1) reasoning.enabled = true;
  else if (budget !== undefined) Object.assign(reasoning, { enabled: true, budgetTokens: budget });
  const level = field<string>(config, 'thinkingLevel')?.toLowerCase();
  if (level !== undefined && level !== 'thinking_level_unspecified') {
    if (!THINKING_LEVELS.has(level)) invalidField(`${at}.${keyOf(config, 'thinkingLevel')}`, 'must be one of "MINIMAL", "LOW", "MEDIUM", "HIGH"');
    reasoning.effort = level as ReasoningEffort;
    reasoning.enabled ??= true;
  }
  const includeThoughts = field<boolean>(config, 'includeThoughts');
  if (includeThoughts !== undefined) reasoning.includeThoughts = includeThoughts;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

/** `responseMimeType` with `responseJsonSchema` (JSON Schema) or `responseSchema` (OpenAPI subset) → a response format. */
export function decodeResponseFormat(config: Config, at: string): ResponseFormat | undefined {
  const mimeType = field<string>(config, 'responseMimeType')?.split(';', 1)[0]!.trim().toLowerCase();
  const jsonSchema = field<Record<string, unknown>>(config, 'responseJsonSchema');
  const openApiSchema = field<Record<string, unknown>>(config, 'responseSchema');
  const schema = jsonSchema ?? (openApiSchema ? toJsonSchema(openApiSchema) : undefined);
  if (mimeType === undefined || mimeType === 'application/json') {
    if (schema) return { type: 'json-schema', schema };
    return mimeType ? { type: 'json' } : undefined;
  }
  const mimeAt = `${at}.${keyOf(config, 'responseMimeType')}`;
  if (mimeType !== 'text/plain') invalidField(mimeAt, `'${mimeType}' is not supported by this gateway; use 'application/json' or 'text/plain'`);
  if (schema) invalidField(mimeAt, "must be 'application/json' when a response schema is given");
  return { type: 'text' };
}

/** Copies `generationConfig` onto the request. */
export function applyGenerationConfig(request: GenerateRequest, config: Config | undefined, at: string): void {
  if (!config) return;
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
  for (const name of DROPPED) if (field(config, name) !== undefined) logCodec('gemini: dropped %s.%s (no canonical equivalent)', at, keyOf(config, name));
}
