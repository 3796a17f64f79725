/** Gemini `finishReason` (and a blocked prompt's `blockReason`) → canonical finish reason. */
import type { FinishReason } from '../../canonical';
import { GEMINI_FILTER_FINISH_REASONS } from '../../wire/gemini/finish-reasons';

/**
 * STOP → stop, or tool-calls when the candidate holds function calls; MAX_TOKENS → length; the
 * filter family → content-filter; anything else (MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, …)
 * → other, or tool-calls when calls were made. The raw value is always kept.
 */
export function mapGeminiFinishReason(raw: string | undefined, sawToolCalls: boolean): FinishReason {
  if (raw === 'MAX_TOKENS') return { unified: 'length', raw };
  if (raw !== undefined && GEMINI_FILTER_FINISH_REASONS.has(raw)) return { unified: 'content-filter', raw };
  if (sawToolCalls) return { unified: 'tool-calls', ...(raw !== undefined ? { raw } : {}) };
  if (raw === 'STOP') return { unified: 'stop', raw };
  return { unified: 'other', ...(raw !== undefined ? { raw } : {}) };
}

/** A prompt refused before generation (`promptFeedback.blockReason`, no candidates). */
export function blockedPromptFinish(blockReason: string): FinishReason {
  return { unified: 'content-filter', raw: blockReason };
}
