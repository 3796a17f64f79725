/** An OpenAI chat-completions response → canonical GenerateResponse, and its usage block → canonical Usage. */
import type { ContentPart, GenerateResponse, Usage } from '../../canonical';
import { isJsonObject } from '../../json';
import { malformedUpstream } from '../../upstream/malformed';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { argumentsText } from './tool-call-stream';

/** The usage block of chat completions (response or final stream chunk). */
export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

interface OpenAIToolCall {
  id?: string;
  function?: { name?: string; arguments?: unknown };
}

interface OpenAIChoice {
  index?: number;
  message?: { content?: string | null; refusal?: string | null; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: OpenAIToolCall[] | null };
  finish_reason?: string | null;
}

/** The response fields the provider reads. */
export interface OpenAIChatResponse {
  id?: string;
  created?: number;
  model?: string;
  choices?: OpenAIChoice[];
  usage?: OpenAIUsage | null;
}

/**
 * The reasoning text of a message or delta: `reasoning_content` (DeepSeek, vLLM, litellm) or
 * `reasoning` (OpenRouter, newer vLLM, Ollama). Only strings count; the first one present wins.
 */
export function reasoningText(fields: { reasoning_content?: unknown; reasoning?: unknown } | null | undefined): string | undefined {
  if (typeof fields?.reasoning_content === 'string' && fields.reasoning_content.length > 0) return fields.reasoning_content;
  if (typeof fields?.reasoning === 'string' && fields.reasoning.length > 0) return fields.reasoning;
  return undefined;
}

/** Chat-completions usage → canonical usage: cached and cache-write tokens, and reasoning tokens (already inside `completion_tokens`). */
export function decodeOpenAIUsage(usage: OpenAIUsage | null | undefined): Usage {
  const result: Usage = { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const written = usage?.prompt_tokens_details?.cache_write_tokens;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  if (cached) result.cacheReadTokens = cached;
  if (written) result.cacheWriteTokens = written;
  if (reasoning) result.reasoningTokens = reasoning;
  return result;
}

function decodeContent(message: OpenAIChoice['message']): ContentPart[] {
  const content: ContentPart[] = [];
  const reasoning = reasoningText(message);
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  if (message?.content) content.push({ type: 'text', text: message.content });
  else if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  for (const [index, call] of (message?.tool_calls ?? []).entries()) {
    content.push({ type: 'tool-call', id: call.id ?? `call_${index}`, name: call.function?.name ?? '', arguments: argumentsText(call.function?.arguments) });
  }
  return content;
}

/**
 * The whole response; a body without a `choices` array of objects, each with a `message` object,
 * is a 502 `upstream_malformed`. The body rides along as the response's `origin`, so that a
 * chat-completions caller gets the fields the gateway does not model.
 */
export function decodeChatResponse(body: OpenAIChatResponse, fallbackModel: string, upstream = 'upstream'): GenerateResponse {
  if (!isJsonObject(body as unknown) || !Array.isArray(body.choices)) throw malformedUpstream(upstream, 'a response without choices');
  if (!body.choices.every((choice) => isJsonObject(choice) && isJsonObject(choice.message))) throw malformedUpstream(upstream, 'a response with a choice without a message');
  return {
    id: body.id ?? '',
    model: body.model ?? fallbackModel,
    created: body.created ?? Math.floor(Date.now() / 1000),
    choices: body.choices.map((choice, position) => {
      const content = decodeContent(choice.message);
      const finishReason = mapOpenAIFinishReason(choice.finish_reason, content.some((part) => part.type === 'tool-call'));
      return { index: choice.index ?? position, content, finishReason: choice.message?.refusal && !choice.message.content ? { unified: 'content-filter', raw: 'refusal' } : finishReason };
    }),
    usage: decodeOpenAIUsage(body.usage),
    origin: { protocol: 'openai-chat', body: body as unknown as Record<string, unknown> },
  };
}
