/**
 * OpenRouter (`openrouter.ai`): `reasoning_details` back exactly as it sent them, and `cache_control` breakpoints
 * for the models it documents them for (Claude, Gemini, Qwen; openrouter.ai/docs/guides/best-practices/prompt-caching).
 */
import { BASE_PRESET, type CompatiblePreset, isDomain } from './types';

/** Model ids OpenRouter documents explicit `cache_control` breakpoints for: Claude, Gemini and Qwen. */
const EXPLICIT_CACHING = /^(anthropic|google|qwen)\//;

export const openrouterPreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'openrouter',
  matches: (host) => isDomain(host, 'openrouter.ai'),
  reasoningReplay: 'reasoning_details',
  cacheMarkers: (upstreamModel) => (EXPLICIT_CACHING.test(upstreamModel) ? 'all' : false),
};
