/**
 * Canonical GenerateRequest → an OpenAI chat-completions request body (with a chat-completions caller's own fields).
 */
import createDebug from 'debug';
import type { GenerateRequest, ResponseFormat, ToolChoice } from '../../canonical';
import { chatExtension, type ChatRequestExtension, type ChatToolExtension } from '../../wire/openai/extensions';
import { encodeCacheControl } from '../../wire/cache-control';
import { openAIUserId } from './end-user-id';
import { breakpointOf, hasBreakpoints, limitChatBreakpoints, type Markers } from './cache-markers';
import { setQwenThinking } from './dashscope';
import { encodeChatMessages } from './encode-messages';
import type { ReasoningReplay } from './reasoning-replay';
import { setSampling, upstreamEffort } from './sampling';
import { reportForeignTools } from '../../wire/vendor-tools';
import { reportDrop, type Warn } from '../../warnings';

const log = createDebug('rosetta:provider');

/**
 * Which field carries the output cap: OpenAI's reasoning models need `max_completion_tokens`; many compatible servers
 * only know `max_tokens`.
 */
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
  /** How the model's earlier reasoning goes back on assistant turns (see {@link ReasoningReplay}). Default `none`. */
  reasoningReplay?: ReasoningReplay;
  /**
   * Whether the caller's prompt-cache breakpoints go to the upstream as `cache_control` (at most four; see
   * ./cache-markers.ts). Default false.
   */
  cacheMarkers?: Markers;
  /**
   * Reasoning settings as Qwen's on DashScope (`enable_thinking`, `thinking_budget`; ./dashscope.ts) rather than
   * `reasoning_effort`. Default false.
   */
  qwenThinking?: boolean;
  /** Where the settings and tools this body drops are reported (the call's `context.warn`). Default: only logged. */
  warn?: Warn;
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
export function encodeResponseFormat(
  format: ResponseFormat | undefined,
  schemaFields?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  switch (format?.type) {
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        json_schema: {
          ...schemaFields,
          name: format.name ?? 'response',
          schema: format.schema,
          ...(format.strict !== undefined ? { strict: format.strict } : {}),
        },
      };
    default:
      return undefined;
  }
}

/**
 * Reasoning and sampling. A reasoning model gets `reasoning_effort` (see {@link reasoningEffortFor})
 * and loses `temperature`/`top_p`, which OpenAI's reasoning models refuse unless reasoning is off;
 * any other model keeps its sampling and the reasoning settings are dropped (a model without
 * reasoning refuses `reasoning_effort`). A chat-completions caller's own settings
 * (`samplingAsGiven`) are sent as given: it chose them for this API.
 */
function setReasoningAndSampling(
  body: Record<string, unknown>,
  request: GenerateRequest,
  reasoningModel: boolean,
  asGiven: boolean,
  warn: Warn | undefined,
): void {
  const effort = upstreamEffort(request, reasoningModel, asGiven, warn);
  if (effort) body.reasoning_effort = effort;
  setSampling(body, request, asGiven || !reasoningModel || effort === 'none', warn);
  if (request.topK !== undefined)
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'top_k', details: 'chat completions has no top_k' });
}

function encodeTool(tool: NonNullable<GenerateRequest['tools']>[number], markers: Markers): Record<string, unknown> {
  const extension = chatExtension<ChatToolExtension>(tool.extensions);
  const fn: Record<string, unknown> = { ...extension?.functionFields, name: tool.name };
  if (tool.description) fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  const encoded: Record<string, unknown> = { ...extension?.fields, type: 'function', function: fn };
  const cacheControl = markers ? breakpointOf(tool, markers) : undefined;
  if (cacheControl) encoded.cache_control = encodeCacheControl(cacheControl);
  return encoded;
}

/**
 * `prompt_cache_key` and `prompt_cache_retention` (OpenAI's prompt caching; docs/translation.md,
 * *Prompt caching*): the caller's, or the key an Anthropic caller's end-user id stands for, kept
 * within the length the end-user id is (a longer one as its SHA-256).
 */
export function setPromptCache(body: Record<string, unknown>, request: GenerateRequest): void {
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = openAIUserId(request.promptCacheKey);
  if (request.promptCacheRetention !== undefined) body.prompt_cache_retention = request.promptCacheRetention;
}

/**
 * Builds the upstream body from the canonical request (see docs/translation.md for every mapping
 * and what is dropped). A chat-completions caller's fields that the canonical types do not model
 * (`extensions['openai-chat']`: logprobs, penalties, metadata, …, at every level) go back where
 * they were, and its spellings are kept (the output cap's name, a `stop` string); what the
 * canonical request says always wins over them, and the model, stream flags and output cap are
 * always the gateway's.
 */
export function encodeChatRequest(
  request: GenerateRequest,
  upstreamModel: string,
  options: EncodeChatOptions,
): Record<string, unknown> {
  const extension = chatExtension<ChatRequestExtension>(request.extensions);
  const body: Record<string, unknown> = extension?.fields ? { ...extension.fields } : {};
  // Assigned one by one: a computed key in an object literal is defined through the V8 runtime on every call.
  body.model = upstreamModel;
  const markers = options.cacheMarkers && hasBreakpoints(request, options.cacheMarkers) ? options.cacheMarkers : false;
  body.messages = encodeChatMessages(request.messages, options.reasoningReplay, markers);
  body.stream = options.stream;
  if (options.stream) body.stream_options = { include_usage: true };
  if (request.maxOutputTokens !== undefined)
    body[extension?.maxTokensField ?? options.maxTokensField] = request.maxOutputTokens;
  const warn = options.warn;
  if (options.qwenThinking) {
    setQwenThinking(body, request);
    setSampling(body, request, true, warn);
  } else
    setReasoningAndSampling(body, request, options.reasoningModel ?? false, extension?.samplingAsGiven === true, warn);
  if (request.stopSequences?.length) {
    if (request.stopSequences.length > MAX_STOP_SEQUENCES) {
      reportDrop(log, warn, {
        type: 'unsupported-setting',
        setting: 'stop',
        details: `the stop sequences after the first ${MAX_STOP_SEQUENCES}: chat completions takes at most ${MAX_STOP_SEQUENCES}`,
      });
    }
    body.stop =
      extension?.stopString && request.stopSequences.length === 1
        ? request.stopSequences[0]
        : request.stopSequences.slice(0, MAX_STOP_SEQUENCES);
  }
  if (request.choiceCount !== undefined && request.choiceCount !== 1) body.n = request.choiceCount;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.user !== undefined) {
    if (extension?.userField) body[extension.userField] = request.user;
    else body.user = openAIUserId(request.user);
  }
  setPromptCache(body, request);
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => encodeTool(tool, markers));
    if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  } else if (request.toolChoice && request.toolChoice.type !== 'none') {
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'tool_choice',
      details: `${request.toolChoice.type}: the request declares no tools`,
    });
  }
  reportForeignTools(request, undefined, log, warn);
  if (markers) limitChatBreakpoints(body, warn);
  const responseFormat = encodeResponseFormat(request.responseFormat, extension?.jsonSchemaFields);
  if (responseFormat) body.response_format = responseFormat;
  return body;
}
