/** Canonical finish reason → chat-completions `finish_reason`. */
import type { FinishReason } from '../../canonical';

/** The chat-completions finish reasons. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export function mapFinishReason(reason: FinishReason): ChatFinishReason {
  switch (reason.unified) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}
