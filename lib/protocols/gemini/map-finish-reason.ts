/** Canonical finish reason → Gemini `finishReason`. */
import type { FinishReason } from '../../canonical';
import { GEMINI_FINISH_REASONS } from '../../wire/gemini/finish-reasons';

/** stop and tool-calls → `STOP`, length → `MAX_TOKENS`, content-filter → `SAFETY`, anything else → `OTHER`. */
export function mapFinishReason(reason: FinishReason): string {
  if (reason.raw !== undefined && GEMINI_FINISH_REASONS.has(reason.raw)) return reason.raw;
  switch (reason.unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
