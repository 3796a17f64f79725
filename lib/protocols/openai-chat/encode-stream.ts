/** Canonical stream → chat-completions server-sent events (`chat.completion.chunk` frames, then `[DONE]`). */
import type { StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import { carrySignatureInToolId, geminiSignatureOf, lookAheadToToolCallEnds } from '../shared/signature-carrier';
import type { EncodeContext, EncodedStream } from '../types';
import { openAIErrorBody } from './encode-error';
import { chatCompletionId, encodeUsage } from './encode-response';
import { mapFinishReason } from './map-finish-reason';

const DONE = 'data: [DONE]\n\n';

function wantsUsage(context: EncodeContext): boolean {
  const body = context.call?.request.origin?.body as { stream_options?: { include_usage?: unknown } | null } | undefined;
  return body?.stream_options?.include_usage === true;
}

/**
 * Encodes a stream; with `stream_options.include_usage` a usage chunk with empty `choices` precedes `[DONE]`.
 * A tool call sent whole (start, one delta, end) carries its end's Gemini signature in its id, as non-streamed.
 */
export function encodeChatStream(parts: AsyncIterable<StreamPart>, context: EncodeContext): EncodedStream {
  return { chunks: chatChunks(parts, wantsUsage(context)) };
}

async function* chatChunks(parts: AsyncIterable<StreamPart>, includeUsage: boolean): AsyncGenerator<string> {
  let head = { id: '', object: 'chat.completion.chunk' as const, created: 0, model: '', system_fingerprint: null };
  const usageField = includeUsage ? { usage: null } : {};
  const frame = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...usageField })}\n\n`;
  const toolIndexes = new Map<string, number>();

  for await (const { part, toolCallEnd } of lookAheadToToolCallEnds(parts)) {
    switch (part.type) {
      case 'response-start':
        head = { ...head, id: chatCompletionId(part.id), created: part.created, model: part.model };
        yield frame({ role: 'assistant', content: '', refusal: null });
        break;
      case 'text-delta':
        yield frame({ content: part.delta });
        break;
      case 'reasoning-delta':
        yield frame({ reasoning_content: part.delta });
        break;
      case 'tool-call-start': {
        const index = toolIndexes.size;
        toolIndexes.set(part.id, index);
        const id = carrySignatureInToolId(part.id, geminiSignatureOf(toolCallEnd));
        yield frame({ tool_calls: [{ index, id, type: 'function', function: { name: part.name, arguments: '' } }] });
        break;
      }
      case 'tool-call-delta':
        yield frame({ tool_calls: [{ index: toolIndexes.get(part.id) ?? 0, function: { arguments: part.delta } }] });
        break;
      case 'finish':
        yield frame({}, mapFinishReason(part.finishReason));
        if (includeUsage) yield `data: ${JSON.stringify({ ...head, choices: [], usage: encodeUsage(part.usage) })}\n\n`;
        yield DONE;
        return;
      case 'error':
        yield `data: ${JSON.stringify(openAIErrorBody(toGatewayError(part.error)))}\n\n`;
        return;
      default:
        break;
    }
  }
}
