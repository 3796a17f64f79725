/** An OpenAI chat-completions response → canonical GenerateResponse, and its usage block → canonical Usage. */
import type { Choice, ContentPart, GenerateResponse, Usage } from '../../canonical';
import { isJsonObject, unmodelledFields, type JsonObject } from '../../json';
import {
  chatExtensions,
  MODELLED_CHOICE_FIELDS,
  MODELLED_MESSAGE_FIELDS,
  MODELLED_RESPONSE_FIELDS,
  MODELLED_USAGE_DETAILS,
  MODELLED_USAGE_FIELDS,
  type ChatChoiceExtension,
  type ChatResponseExtension,
} from '../../wire/openai/extensions';
import { malformedUpstream } from '../../upstream/malformed';
import { mapOpenAIFinishReason } from './map-finish-reason';
import {
  detailItems,
  detailsMetadata,
  detailsText,
  learnedField,
  mergeMetadata,
  reasoningText,
  toolCallMetadata,
} from './decode-reasoning';
import { argumentsText } from './tool-call-stream';

/** The usage block of chat completions (response or final stream chunk). */
export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: {
    cached_tokens?: number;
    /** OpenAI (GPT-5.6 and later) and OpenRouter: the tokens written to the cache. */
    cache_write_tokens?: number;
    /** LiteLLM's name for them. */
    cache_creation_tokens?: number;
  } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** LiteLLM fronting Anthropic: the writes, also in the details as `cache_creation_tokens`. */
  cache_creation_input_tokens?: number | null;
  /** LiteLLM fronting Anthropic: the reads, also in the details as `cached_tokens`. */
  cache_read_input_tokens?: number | null;
}

interface OpenAIToolCall {
  id?: string;
  function?: { name?: string; arguments?: unknown };
  extra_content?: unknown;
}

interface OpenAIChoice {
  index?: number;
  message?: {
    content?: string | null;
    refusal?: string | null;
    reasoning_content?: unknown;
    reasoning?: unknown;
    reasoning_details?: unknown;
    tool_calls?: OpenAIToolCall[] | null;
  };
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
 * Chat-completions usage → canonical usage: cached and cache-write tokens (both inside `prompt_tokens`),
 * and reasoning tokens (already inside `completion_tokens`). The writes in each dialect that reports
 * them: OpenAI's and OpenRouter's `prompt_tokens_details.cache_write_tokens`, LiteLLM's
 * `prompt_tokens_details.cache_creation_tokens` or `usage.cache_creation_input_tokens` (its reads also
 * as `usage.cache_read_input_tokens`); LiteLLM's `prompt_tokens` counts both (BerriAI/litellm#11364).
 */
export function decodeOpenAIUsage(usage: OpenAIUsage | null | undefined): Usage {
  const result: Usage = { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
  const details = usage?.prompt_tokens_details;
  const cached = details?.cached_tokens || usage?.cache_read_input_tokens;
  const written = details?.cache_write_tokens || details?.cache_creation_tokens || usage?.cache_creation_input_tokens;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  if (cached) result.cacheReadTokens = cached;
  if (written) result.cacheWriteTokens = written;
  if (reasoning) result.reasoningTokens = reasoning;
  return result;
}

/**
 * The message's parts. OpenRouter's `reasoning_details` ride on the reasoning part (made from their readable text when
 * the message has no other) and on the first tool call; a tool call's Gemini thought signature on that call. Reasoning
 * text without `reasoning_details` carries the field it came in, learned for `upstream` (the provider's name; see
 * {@link learnedField}).
 */
function decodeContent(message: OpenAIChoice['message'], upstream: string): ContentPart[] {
  const content: ContentPart[] = [];
  const details = detailItems(message?.reasoning_details);
  const blocks = detailsMetadata(details);
  const own = reasoningText(message);
  const learned = learnedField(own, blocks, upstream);
  const reasoning = own?.text ?? (blocks ? detailsText(details) : undefined);
  const reasoningMetadata = blocks ?? learned?.part;
  if (reasoning !== undefined)
    content.push(
      reasoningMetadata
        ? { type: 'reasoning', text: reasoning, providerMetadata: reasoningMetadata }
        : { type: 'reasoning', text: reasoning },
    );
  if (message?.content) content.push({ type: 'text', text: message.content });
  else if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  for (const [index, call] of (message?.tool_calls ?? []).entries()) {
    const part: ContentPart = {
      type: 'tool-call',
      id: call.id ?? `call_${index}`,
      name: call.function?.name ?? '',
      arguments: argumentsText(call.function?.arguments),
    };
    const metadata = mergeMetadata(toolCallMetadata(call), index === 0 ? (blocks ?? learned?.call) : undefined);
    if (metadata) part.providerMetadata = metadata;
    content.push(part);
  }
  return content;
}

/**
 * The usage block's fields canonical usage does not have (a details object without the counts it has), or undefined.
 */
function usageExtension(usage: unknown): JsonObject | undefined {
  if (!isJsonObject(usage)) return undefined;
  const fields = unmodelledFields(usage, MODELLED_USAGE_FIELDS);
  if (!fields) return undefined;
  for (const name of ['prompt_tokens_details', 'completion_tokens_details']) {
    const details = fields[name];
    if (!isJsonObject(details)) continue;
    const rest = unmodelledFields(details, MODELLED_USAGE_DETAILS);
    if (rest) fields[name] = rest;
    else delete fields[name];
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** A choice's and its message's fields the chat codec does not write (`logprobs`, `annotations`, …), or undefined. */
function choiceExtension(choice: JsonObject): ChatChoiceExtension | undefined {
  const fields = unmodelledFields(choice, MODELLED_CHOICE_FIELDS);
  const message = unmodelledFields(choice.message as JsonObject, MODELLED_MESSAGE_FIELDS);
  if (!fields && !message) return undefined;
  const extension: ChatChoiceExtension = {};
  if (fields) extension.fields = fields;
  if (message) extension.message = message;
  return extension;
}

/**
 * The whole response; a body without a `choices` array of objects, each with a `message` object,
 * is a 502 `upstream_malformed`. The fields the canonical response does not model go in its and
 * its choices' `extensions['openai-chat']`, for a chat-completions caller.
 */
export function decodeChatResponse(
  body: OpenAIChatResponse,
  fallbackModel: string,
  upstream = 'upstream',
): GenerateResponse {
  if (!isJsonObject(body as unknown) || !Array.isArray(body.choices))
    throw malformedUpstream(upstream, 'a response without choices');
  if (!body.choices.every((choice) => isJsonObject(choice) && isJsonObject(choice.message)))
    throw malformedUpstream(upstream, 'a response with a choice without a message');
  const response: GenerateResponse = {
    id: body.id ?? '',
    model: body.model ?? fallbackModel,
    created: body.created ?? Math.floor(Date.now() / 1000),
    choices: body.choices.map((choice, position) => {
      const content = decodeContent(choice.message, upstream);
      const finishReason = mapOpenAIFinishReason(
        choice.finish_reason,
        content.some((part) => part.type === 'tool-call'),
      );
      const decoded: Choice = {
        index: choice.index ?? position,
        content,
        finishReason:
          choice.message?.refusal && !choice.message.content
            ? { unified: 'content-filter', raw: 'refusal' }
            : finishReason,
      };
      const extension = choiceExtension(choice as JsonObject);
      if (extension) decoded.extensions = chatExtensions(extension);
      return decoded;
    }),
    usage: decodeOpenAIUsage(body.usage),
  };
  const fields = unmodelledFields(body as JsonObject, MODELLED_RESPONSE_FIELDS);
  const usage = usageExtension(body.usage);
  if (fields || usage)
    response.extensions = chatExtensions({
      ...(fields ? { fields } : {}),
      ...(usage ? { usage } : {}),
    } satisfies ChatResponseExtension);
  return response;
}
