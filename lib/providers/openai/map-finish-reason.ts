/** OpenAI `finish_reason` → canonical finish reason. */
import type { FinishReason } from '../../canonical';

export function mapOpenAIFinishReason(raw: string | null | undefined, sawToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case 'stop':
      return sawToolCalls ? { unified: 'tool-calls', raw } : { unified: 'stop', raw };
    default:
      return sawToolCalls
        ? { unified: 'tool-calls', raw: raw ?? undefined }
        : { unified: 'other', raw: raw ?? undefined };
  }
}
