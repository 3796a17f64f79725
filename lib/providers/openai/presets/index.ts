/**
 * The OpenAI-compatible vendors' presets: a new vendor is a file here and one line in {@link PRESETS}. The provider's
 * base URL picks one (the first whose `matches` takes its host; `generic` takes every other), or the `preset` option
 * names one (a proxy in front of a vendor).
 */
import { configError } from '../../../config-check';
import { dashscopePreset } from './dashscope';
import { deepseekPreset } from './deepseek';
import { genericPreset } from './generic';
import { googlePreset } from './google';
import { moonshotPreset } from './moonshot';
import { openaiPreset } from './openai';
import { openrouterPreset } from './openrouter';
import type { CompatiblePreset } from './types';

export type { CompatiblePreset, CompatibleVendor } from './types';
export { isOpenAIReasoningModel } from './openai';

/** Every preset, the catch-all last. */
export const PRESETS: readonly CompatiblePreset[] = [
  openaiPreset,
  deepseekPreset,
  moonshotPreset,
  dashscopePreset,
  openrouterPreset,
  googlePreset,
  genericPreset,
];

/** The preset `name` names, else the one the base URL's host picks. */
export function presetFor(baseUrl: string, name?: unknown): CompatiblePreset {
  if (name !== undefined) {
    const named = PRESETS.find((preset) => preset.name === name);
    if (!named)
      configError(
        'OpenAIProvider',
        'preset',
        `must be one of ${PRESETS.map((preset) => `'${preset.name}'`).join(', ')}.`,
      );
    return named;
  }
  const host = new URL(baseUrl).hostname.toLowerCase();
  return PRESETS.find((preset) => preset.matches(host))!;
}
