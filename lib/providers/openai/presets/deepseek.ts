/** DeepSeek (`api.deepseek.com`): thinking mode wants `reasoning_content` back; caching is automatic. */
import { BASE_PRESET, type CompatiblePreset, isDomain } from './types';

export const deepseekPreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'deepseek',
  matches: (host) => isDomain(host, 'deepseek.com'),
  reasoningReplay: 'reasoning_content',
};
