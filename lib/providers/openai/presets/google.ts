/**
 * Google's OpenAI-compatible endpoint (`generativelanguage.googleapis.com/…/openai`): Gemini 3 thought signatures
 * back on the tool calls (`extra_content.google`); caching is automatic.
 */
import { BASE_PRESET, type CompatiblePreset } from './types';

export const googlePreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'google',
  matches: (host) => host === 'generativelanguage.googleapis.com',
  reasoningReplay: 'google',
};
