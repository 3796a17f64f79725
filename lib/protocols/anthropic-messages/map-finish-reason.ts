/** Canonical finish reason → Anthropic `stop_reason` and `stop_sequence`. */
import type { FinishReason } from '../../canonical';

/** The Anthropic stop reasons. */
export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** A stop reason, and the matched stop sequence (only with `stop_sequence`). */
export interface AnthropicStop {
  stopReason: AnthropicStopReason;
  stopSequence: string | null;
}

/**
 * stop → `end_turn`, or `stop_sequence` when the matched sequence is known; length → `max_tokens`;
 * tool-calls → `tool_use`; content-filter → `refusal`. A reply holding tool calls that ended
 * normally is promoted to `tool_use`. Raw Anthropic values with no unified twin are kept
 * (`model_context_window_exceeded`, `pause_turn`).
 */
export function mapFinishReason(reason: FinishReason, hasToolCalls: boolean): AnthropicStop {
  switch (reason.unified) {
    case 'length':
      return {
        stopReason: reason.raw === 'model_context_window_exceeded' ? 'model_context_window_exceeded' : 'max_tokens',
        stopSequence: null,
      };
    case 'tool-calls':
      return { stopReason: 'tool_use', stopSequence: null };
    case 'content-filter':
      return { stopReason: 'refusal', stopSequence: null };
    case 'stop':
      if (hasToolCalls) return { stopReason: 'tool_use', stopSequence: null };
      return reason.stopSequence !== undefined
        ? { stopReason: 'stop_sequence', stopSequence: reason.stopSequence }
        : { stopReason: 'end_turn', stopSequence: null };
    default:
      if (reason.raw === 'pause_turn') return { stopReason: 'pause_turn', stopSequence: null };
      return { stopReason: hasToolCalls ? 'tool_use' : 'end_turn', stopSequence: null };
  }
}
