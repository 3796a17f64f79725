/**
 * Any other OpenAI-compatible server (vLLM, llama.cpp, Ollama, a LiteLLM proxy…): no reasoning replay until the
 * upstream answers reasoning (then the field it answered in, learned: ../reasoning-replay.ts); a caller's
 * breakpoints go to a model whose id names Claude (a LiteLLM proxy passes them on; Claude caches only at markers),
 * and to other models only a chat-completions caller's own, written for this API.
 */
import { BASE_PRESET, type CompatiblePreset, claudeOrCallerMarkers } from './types';

export const genericPreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'generic',
  matches: () => true,
  cacheMarkers: claudeOrCallerMarkers,
};
