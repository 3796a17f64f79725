/**
 * The events that open and close an Anthropic messages stream (`message_start`, `message_delta`), and the framing of
 * every event; the content blocks between them are ./encode-stream.ts's.
 */
import type { FinishReason, Usage } from '../../canonical';
import type { AnthropicMessageDeltaFields, AnthropicResponseExtension } from '../../wire/anthropic/extensions';
import { anthropicMessageId, encodeUsage } from './encode-response';
import { mapFinishReason } from './map-finish-reason';

/** `output_tokens` of `message_start`: the API reports at least one before anything is generated. */
const START_OUTPUT_TOKENS = 1;

/** One event: the `event:` name the SDK dispatches on, and the data line, which never spans lines. */
export function sseEvent<Data extends { type: string }>(data: Data): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The usage of `message_delta`: the final totals (the SDK overwrites its snapshot with every non-null one). */
export function encodeDeltaUsage(usage: Usage) {
  const full = encodeUsage(usage);
  return {
    input_tokens: full.input_tokens,
    cache_creation_input_tokens: full.cache_creation_input_tokens,
    cache_read_input_tokens: full.cache_read_input_tokens,
    output_tokens: full.output_tokens,
    output_tokens_details: full.output_tokens_details,
    server_tool_use: null,
  };
}

/**
 * The `message_delta` event: why the message stopped, and its usage; an Anthropic upstream's own keys of
 * its `message_delta` (`upstream`: `delta.container`, `delta.stop_details`, `context_management`, usage
 * keys such as `server_tool_use`) over the codec's defaults, where they stood.
 */
export function messageDeltaEvent(
  finishReason: FinishReason,
  usage: Usage,
  hasToolCalls: boolean,
  upstream: AnthropicMessageDeltaFields = {},
): string {
  const { stopReason, stopSequence } = mapFinishReason(finishReason, hasToolCalls);
  return sseEvent({
    type: 'message_delta',
    ...upstream.fields,
    delta: {
      stop_reason: stopReason,
      stop_sequence: stopSequence,
      stop_details: null,
      container: null,
      ...upstream.delta,
    },
    usage: { ...encodeDeltaUsage(usage), ...upstream.usage },
  });
}

/**
 * What starts the message: its id, model and input usage (all input tokens, cache included), and an
 * Anthropic upstream's unmodelled keys of its `message_start.message` and of that message's usage.
 */
export interface MessageHead {
  id: string;
  model: string;
  usage: Partial<Usage>;
  upstream?: AnthropicResponseExtension | undefined;
}

/**
 * The `message_start` event: the message skeleton of the non-streamed response, without content, an
 * Anthropic upstream's own keys (`container`, usage's `service_tier`, `cache_creation`…) over its defaults.
 */
export function messageStartEvent(head: MessageHead, estimatedInputTokens: () => number): string {
  const usage: Usage = {
    inputTokens: head.usage.inputTokens ?? estimatedInputTokens(),
    outputTokens: START_OUTPUT_TOKENS,
    cacheReadTokens: head.usage.cacheReadTokens ?? 0,
    cacheWriteTokens: head.usage.cacheWriteTokens ?? 0,
    cacheWriteLongTokens: head.usage.cacheWriteLongTokens ?? 0,
  };
  return sseEvent({
    type: 'message_start',
    message: {
      id: anthropicMessageId(head.id),
      type: 'message',
      role: 'assistant',
      model: head.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      context_management: { applied_edits: [] },
      container: null,
      ...head.upstream?.fields,
      usage: { ...encodeUsage(usage), ...head.upstream?.usage },
    },
  });
}
