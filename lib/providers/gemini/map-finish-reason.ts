/** Gemini `finishReason` (and a blocked prompt's `blockReason`) → canonical finish reason. */
import type { FinishReason } from '../../canonical';

/** Finish reasons that mean a filter stopped the answer (protocols.md 5.2: the safety family, LANGUAGE and OTHER). */
const FILTERED: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * STOP → stop, or tool-calls when the candidate holds function calls; MAX_TOKENS → length; the
 * filter family → content-filter; anything else (MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, …)
 * → other, or tool-calls when calls were made. The raw value is always kept.
 */
export function mapGeminiFinishReason(raw: string | undefined, sawToolCalls: boolean): FinishReason {
  if (raw === 'MAX_TOKENS') return { unified: 'length', raw };
  if (raw !== undefined && FILTERED.has(raw)) return { unified: 'content-filter', raw };
  if (sawToolCalls) return { unified: 'tool-calls', ...(raw !== undefined ? { raw } : {}) };
  if (raw === 'STOP') return { unified: 'stop', raw };
  return { unified: 'other', ...(raw !== undefined ? { raw } : {}) };
}

/** A prompt refused before generation (`promptFeedback.blockReason`, no candidates). */
export function blockedPromptFinish(blockReason: string): FinishReason {
  return { unified: 'content-filter', raw: blockReason };
}
