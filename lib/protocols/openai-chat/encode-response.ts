/** Canonical GenerateResponse → chat-completions response body. */
import type { Choice, GenerateResponse, Usage } from '../../canonical';
import { carriedSignatureOf, carrySignatureInToolId } from '../shared/signature-carrier';
import { mapFinishReason } from './map-finish-reason';
import { isJsonObject, type JsonObject } from '../../json';
import { chatExtension, type ChatChoiceExtension, type ChatResponseExtension } from '../../wire/openai/extensions';

/** The response id with the protocol's `chatcmpl-` prefix. */
export function chatCompletionId(id: string): string {
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}

/** The chat-completions usage block (`cache_write_tokens`, OpenAI's from GPT-5.6 on, when the upstream wrote any). */
export function encodeUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      audio_tokens: 0,
      ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
    },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * The assistant message. A tool call's vendor signature rides in its id (the one field every
 * client echoes back); signatures on text and reasoning have no carrier here and are not returned.
 */
function encodeMessage(choice: Choice) {
  let text: string | null = null;
  let reasoning: string | undefined;
  const toolCalls = [];
  for (const part of choice.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
    else if (part.type === 'tool-call')
      toolCalls.push({
        id: carrySignatureInToolId(part.id, carriedSignatureOf(part.providerMetadata)),
        type: 'function' as const,
        function: { name: part.name, arguments: part.arguments },
      });
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

/** The usage block with the upstream's own fields (a server's `cost`, the details' other counts) merged in. */
function usageWith(usage: Usage, upstream: JsonObject | undefined): JsonObject {
  const encoded: JsonObject = encodeUsage(usage);
  if (!upstream) return encoded;
  for (const name in upstream) {
    const mine = encoded[name];
    const theirs = upstream[name];
    encoded[name] = isJsonObject(mine) && isJsonObject(theirs) ? { ...mine, ...theirs } : theirs;
  }
  return encoded;
}

/**
 * The response body. The answer's fields the gateway does not model, when the upstream spoke chat
 * completions too (`extensions['openai-chat']` of the response and its choices), are returned as
 * sent — `logprobs`, a message's `annotations` and `audio`, `system_fingerprint`, `service_tier`, a
 * server's own extras — in place of the encoder's defaults, and the usage block's own fields with
 * the gateway's figures.
 */
export function encodeChatResponse(response: GenerateResponse) {
  const extension = chatExtension<ChatResponseExtension>(response.extensions);
  const body: JsonObject = {
    id: chatCompletionId(response.id),
    object: 'chat.completion',
    created: response.created,
    model: response.model,
    choices: response.choices.map((choice) => {
      const message: JsonObject = encodeMessage(choice);
      const encoded: JsonObject = {
        index: choice.index,
        message,
        logprobs: null,
        finish_reason: mapFinishReason(choice.finishReason),
      };
      const from = chatExtension<ChatChoiceExtension>(choice.extensions);
      if (from?.fields) Object.assign(encoded, from.fields);
      if (from?.message) Object.assign(message, from.message);
      return encoded;
    }),
    usage: usageWith(response.usage, extension?.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
  if (extension?.fields) Object.assign(body, extension.fields);
  return body;
}
