/** Canonical GenerateResponse → chat-completions response body. */
import type { Choice, GenerateResponse, Usage } from '../../canonical';
import { carriedSignatureOf, carrySignatureInToolId } from '../shared/signature-carrier';
import { mapFinishReason } from './map-finish-reason';
import { isJsonObject, passThroughFields, type JsonObject } from '../../json';

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
    else if (part.type === 'tool-call') toolCalls.push({ id: carrySignatureInToolId(part.id, carriedSignatureOf(part.providerMetadata)), type: 'function' as const, function: { name: part.name, arguments: part.arguments } });
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

/** Fields the gateway writes itself from the canonical response; an upstream's own value for them is not passed through. */
const MODELLED_RESPONSE_FIELDS: ReadonlySet<string> = new Set(['id', 'object', 'created', 'model', 'choices', 'usage']);
const MODELLED_CHOICE_FIELDS: ReadonlySet<string> = new Set(['index', 'message', 'finish_reason']);
/** `reasoning` too: it is returned as `reasoning_content`. */
const MODELLED_MESSAGE_FIELDS: ReadonlySet<string> = new Set(['role', 'content', 'refusal', 'tool_calls', 'reasoning_content', 'reasoning']);

/**
 * The response body. When the upstream spoke chat completions too (`response.origin`), the fields
 * the gateway does not model pass through unchanged — `logprobs`, a message's `annotations` and
 * `audio`, `system_fingerprint`, `service_tier`, a server's own extras — and its usage block is
 * returned as it sent it, completed with the gateway's figures for what it left out.
 */
export function encodeChatResponse(response: GenerateResponse) {
  const upstream = response.origin?.protocol === 'openai-chat' ? response.origin.body : undefined;
  const upstreamChoices = upstream && Array.isArray(upstream.choices) ? (upstream.choices as unknown[]) : undefined;
  const body: JsonObject = {
    id: chatCompletionId(response.id),
    object: 'chat.completion',
    created: response.created,
    model: response.model,
    choices: response.choices.map((choice, position) => {
      const message: JsonObject = encodeMessage(choice);
      const encoded: JsonObject = { index: choice.index, message, logprobs: null, finish_reason: mapFinishReason(choice.finishReason) };
      const from = upstreamChoices?.[position];
      if (isJsonObject(from)) {
        passThroughFields(encoded, from, MODELLED_CHOICE_FIELDS);
        passThroughFields(message, from.message, MODELLED_MESSAGE_FIELDS);
      }
      return encoded;
    }),
    usage: encodeUsage(response.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
  if (upstream) {
    passThroughFields(body, upstream, MODELLED_RESPONSE_FIELDS, 'usage');
  }
  return body;
}
