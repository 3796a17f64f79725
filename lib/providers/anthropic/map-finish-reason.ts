/** Anthropic `stop_reason` (and `stop_sequence`) → canonical finish reason. */
import type { FinishReason } from '../../canonical';

/**
 * `end_turn` and `stop_sequence` → stop (keeping the matched sequence); `max_tokens` and
 * `model_context_window_exceeded` → length; `tool_use` → tool-calls; `refusal` → content-filter;
 * `pause_turn` and anything unknown → other. The raw value is always kept.
 */
export function mapAnthropicStopReason(raw: string | null | undefined, stopSequence?: string | null): FinishReason {
  switch (raw) {
    case 'end_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return typeof stopSequence === 'string' ? { unified: 'stop', raw, stopSequence } : { unified: 'stop', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    default:
      return raw ? { unified: 'other', raw } : { unified: 'other' };
  }
}
