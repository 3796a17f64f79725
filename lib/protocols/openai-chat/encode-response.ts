/** Canonical GenerateResponse → chat-completions response body. */
import type { Choice, GenerateResponse, Usage } from '../../canonical';
import { carrySignatureInToolId, geminiSignatureOf } from '../shared/signature-carrier';
import { mapFinishReason } from './map-finish-reason';

/** The response id with the protocol's `chatcmpl-` prefix. */
export function chatCompletionId(id: string): string {
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}

/** The chat-completions usage block. */
export function encodeUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * The assistant message. A tool call's Gemini thought signature rides in its id (the one field every
 * client echoes back); signatures on text and reasoning have no carrier here and are not returned.
 */
function encodeMessage(choice: Choice) {
  let text: string | null = null;
  let reasoning: string | undefined;
  const toolCalls = [];
  for (const part of choice.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
    else if (part.type === 'tool-call') toolCalls.push({ id: carrySignatureInToolId(part.id, geminiSignatureOf(part.providerMetadata)), type: 'function' as const, function: { name: part.name, arguments: part.arguments } });
  }
  if (text === null && toolCalls.length === 0) text = '';
  return {
    role: 'assistant' as const,
    content: text,
    refusal: null,
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

export function encodeChatResponse(response: GenerateResponse) {
  return {
    id: chatCompletionId(response.id),
    object: 'chat.completion' as const,
    created: response.created,
    model: response.model,
    choices: response.choices.map((choice) => ({
      index: choice.index,
      message: encodeMessage(choice),
      logprobs: null,
      finish_reason: mapFinishReason(choice.finishReason),
    })),
    usage: encodeUsage(response.usage),
    service_tier: 'default' as const,
    system_fingerprint: null,
  };
}
