/** Canonical GenerateRequest → an OpenAI chat-completions request body (with same-protocol pass-through). */
import createDebug from 'debug';
import type { GenerateRequest, ResponseFormat, ToolChoice } from '../../canonical';
import { openAIUserId } from './end-user-id';
import { encodeChatMessages } from './encode-messages';
import { reasoningEffortFor } from './map-reasoning';

const log = createDebug('rosetta:provider');

/** Which field carries the output cap: OpenAI's reasoning models need `max_completion_tokens`; many compatible servers only know `max_tokens`. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** What the provider decides for every body. */
export interface EncodeChatOptions {
  maxTokensField: MaxTokensField;
  stream: boolean;
  /**
   * Whether the upstream model is a reasoning model: it takes `reasoning_effort` and (OpenAI's
   * o-series and gpt-5 family) refuses `temperature`/`top_p` other than the defaults. Default false.
   */
  reasoningModel?: boolean;
}

/** The most stop sequences chat completions takes. */
const MAX_STOP_SEQUENCES = 4;

function encodeToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

/**
 * `response_format`: a JSON schema as `json_schema` (named `response` when the caller gave no
 * name; `strict` only when the caller set it), JSON mode as `json_object`, text as nothing.
 */
export function encodeResponseFormat(format: ResponseFormat | undefined): Record<string, unknown> | undefined {
  switch (format?.type) {
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        json_schema: { name: format.name ?? 'response', schema: format.schema, ...(format.strict !== undefined ? { strict: format.strict } : {}) },
      };
    default:
      return undefined;
  }
}

/**
 * Sets the fields the gateway decides, whatever the caller sent, on `body`. Assigned one by one: a
 * computed key in an object literal is defined through the V8 runtime on every call.
 */
function setControlledFields(body: Record<string, unknown>, request: GenerateRequest, upstreamModel: string, maxTokensField: MaxTokensField, stream: boolean): Record<string, unknown> {
  body.model = upstreamModel;
  body.stream = stream;
  if (stream) body.stream_options = { include_usage: true };
  if (request.maxOutputTokens !== undefined) body[maxTokensField] = request.maxOutputTokens;
  return body;
}

/**
 * Reasoning and sampling for another protocol's caller. A reasoning model gets `reasoning_effort`
 * (see {@link reasoningEffortFor}) and loses `temperature`/`top_p`, which OpenAI's reasoning models
 * refuse unless reasoning is off; any other model keeps its sampling and the reasoning settings
 * are dropped (a model without reasoning refuses `reasoning_effort`).
 */
function encodeReasoningAndSampling(request: GenerateRequest, reasoningModel: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const effort = reasoningModel ? reasoningEffortFor(request.reasoning) : undefined;
  if (request.reasoning && !reasoningModel) log('reasoning settings dropped: the upstream model is not configured as a reasoning model (reasoningModels)');
  if (effort) fields.reasoning_effort = effort;
  const samplingAllowed = !reasoningModel || effort === 'none';
  for (const [name, value] of [['temperature', request.temperature], ['top_p', request.topP]] as const) {
    if (value === undefined) continue;
    if (samplingAllowed) fields[name] = value;
    else log('%s dropped: reasoning models take only the default', name);
  }
  if (request.topK !== undefined) log('top_k dropped: chat completions has no top_k');
  return fields;
}

/**
 * Builds the upstream body. When the caller spoke chat completions too, its own body is the
 * starting point, so fields the gateway does not model (logprobs, penalties, metadata, …) pass
 * through unchanged; the model, stream flags and output cap are always the gateway's. Otherwise
 * the canonical request is translated (see docs/translation.md for every mapping and what is dropped).
 */
export function encodeChatRequest(request: GenerateRequest, upstreamModel: string, options: EncodeChatOptions): Record<string, unknown> {
  if (request.origin?.protocol === 'openai-chat') {
    const { max_tokens: _legacy, max_completion_tokens: _cap, stream_options: _options, ...rest } = request.origin.body;
    const field: MaxTokensField = 'max_completion_tokens' in request.origin.body ? 'max_completion_tokens' : 'max_tokens' in request.origin.body ? 'max_tokens' : options.maxTokensField;
    return setControlledFields(rest, request, upstreamModel, field, options.stream);
  }
  const body: Record<string, unknown> = setControlledFields({ messages: encodeChatMessages(request.messages) }, request, upstreamModel, options.maxTokensField, options.stream);
  Object.assign(body, encodeReasoningAndSampling(request, options.reasoningModel ?? false));
  if (request.stopSequences?.length) {
    if (request.stopSequences.length > MAX_STOP_SEQUENCES) log('stop sequences after the first %d dropped: chat completions takes at most %d', MAX_STOP_SEQUENCES, MAX_STOP_SEQUENCES);
    body.stop = request.stopSequences.slice(0, MAX_STOP_SEQUENCES);
  }
  if (request.choiceCount !== undefined && request.choiceCount !== 1) body.n = request.choiceCount;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.user !== undefined) body.user = openAIUserId(request.user);
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters, ...(tool.strict !== undefined ? { strict: tool.strict } : {}) },
    }));
    if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  } else if (request.toolChoice && request.toolChoice.type !== 'none') {
    log('tool_choice %s dropped: the request declares no tools', request.toolChoice.type);
  }
  const responseFormat = encodeResponseFormat(request.responseFormat);
  if (responseFormat) body.response_format = responseFormat;
  return body;
}
