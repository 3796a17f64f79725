/** Moonshot's Kimi (`api.moonshot.ai`, `.cn`): `reasoning_content` back on a tool-call turn; caching is automatic. */
import { BASE_PRESET, type CompatiblePreset, isDomain } from './types';

export const moonshotPreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'moonshot',
  matches: (host) => isDomain(host, 'moonshot.ai') || isDomain(host, 'moonshot.cn'),
  reasoningReplay: 'reasoning_content',
};
