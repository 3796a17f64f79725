/** OpenAI itself (`api.openai.com`): `max_completion_tokens`, its o-series and gpt-5 reason, caching is automatic. */
import { BASE_PRESET, type CompatiblePreset, isDomain } from './types';

/** OpenAI's reasoning models by id: the o-series (`o1`, `o3-mini`, `o4-mini`, …) and the gpt-5 family. */
export function isOpenAIReasoningModel(upstreamModel: string): boolean {
  return /^(o\d|gpt-5)/.test(upstreamModel);
}

export const openaiPreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'openai',
  matches: (host) => isDomain(host, 'openai.com'),
  maxTokensField: 'max_completion_tokens',
  reasoningModels: isOpenAIReasoningModel,
};
