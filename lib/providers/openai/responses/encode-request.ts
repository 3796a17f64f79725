/** Canonical GenerateRequest → a Responses API request body (with a Responses caller's own fields merged). */
import createDebug from 'debug';
import type { GenerateRequest, ResponseFormat } from '../../../canonical';
import type { JsonObject } from '../../../json';
import { responsesExtension, type ResponsesRequestExtension } from '../../../wire/openai/responses-extensions';
import { openAIUserId } from '../end-user-id';
import { setSampling, upstreamEffort } from '../sampling';
import { responsesOutputCap } from '../output-cap';
import { encodeResponsesInput } from './encode-input';
import { encodeResponsesToolChoice, encodeResponsesTools } from './encode-tools';
import { reportForeignTools } from '../../../wire/vendor-tools';
import { reportDrop, type Warn } from '../../../warnings';

const log = createDebug('rosetta:provider');

/** What the provider decides for every body. */
export interface EncodeResponsesOptions {
  stream: boolean;
  /**
   * Whether the upstream model reasons: it gets `reasoning`, the encrypted reasoning back, and no sampling. Default
   * false.
   */
  reasoningModel?: boolean;
  /** Where the settings and tools this body drops are reported (the call's `context.warn`). Default: only logged. */
  warn?: Warn;
}

/** The `include` value that returns reasoning items' `encrypted_content`, so a tool loop needs no server state. */
export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/** Request-extension keys that hold only part of their wire field, merged below rather than copied. */
const MERGED_KEYS: ReadonlySet<string> = new Set(['tools', 'text', 'reasoning', 'tool_choice']);

/** `text.format` for a canonical response format (flat: `{type: 'json_schema', name, schema, strict}`). */
function encodeFormat(format: ResponseFormat): JsonObject {
  if (format.type === 'json') return { type: 'json_object' };
  if (format.type === 'text') return { type: 'text' };
  return {
    type: 'json_schema',
    name: format.name ?? 'response',
    schema: format.schema,
    ...(format.strict !== undefined ? { strict: format.strict } : {}),
  };
}

/**
 * `reasoning` and sampling. A reasoning model (or a Responses caller that sent `reasoning` itself)
 * gets `reasoning.effort` (see `reasoningEffortFor`), `summary: 'auto'` when a caller of another
 * protocol asked to see thoughts, merged onto the caller's own `reasoning` keys; a reasoning model
 * loses `temperature`/`top_p` unless reasoning is off (OpenAI's reasoning models refuse them).
 */
function setReasoningAndSampling(
  body: JsonObject,
  request: GenerateRequest,
  own: JsonObject | undefined,
  reasoningModel: boolean,
  warn: Warn | undefined,
): void {
  const effort = upstreamEffort(request, reasoningModel, own !== undefined, warn);
  if (own || effort) {
    const reasoning: JsonObject = { ...own };
    if (effort) reasoning.effort = effort;
    if (!own && request.reasoning?.includeThoughts) reasoning.summary = 'auto';
    body.reasoning = reasoning;
  }
  setSampling(body, request, !reasoningModel || effort === 'none', warn);
}

/** Settings the Responses API has no field for. */
function reportDropped(request: GenerateRequest, warn: Warn | undefined): void {
  if (request.topK !== undefined)
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'top_k', details: 'the Responses API has no top_k' });
  if (request.stopSequences?.length)
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'stop',
      details: 'the Responses API has no stop sequences',
    });
  if (request.seed !== undefined)
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'seed', details: 'the Responses API has no seed' });
  if (request.choiceCount !== undefined && request.choiceCount > 1) {
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'n',
      details: `${request.choiceCount} choices asked: the Responses API answers one`,
    });
  }
}

/**
 * Builds the upstream body from the canonical request (docs/translation.md, *The Responses
 * upstream*). A Responses caller's fields the canonical types do not model
 * (`extensions['openai-responses']` at every level: `include`, `prompt_cache_key`,
 * `client_metadata`, built-in tools, `text.verbosity`, `reasoning.summary`, a server's own) go
 * back where they were, `tools` / `text` / `reasoning` / `include` merged with what the canonical
 * request says, which wins; the model, `stream`, `max_output_tokens` and `store` are always the gateway's.
 * `store` is always false: the gateway keeps the conversation (its own response store, or the caller
 * resending it) and sends the whole of it every call, so a copy kept upstream would never be read
 * through the gateway, only retained there. For a reasoning model, `include:
 * ['reasoning.encrypted_content']`: the reasoning comes back with the answer, to be sent again in a
 * tool loop without server state.
 */
export function encodeResponsesRequest(
  request: GenerateRequest,
  upstreamModel: string,
  options: EncodeResponsesOptions,
): JsonObject {
  const extension = responsesExtension<ResponsesRequestExtension>(request.extensions);
  const body: JsonObject = {};
  if (extension) for (const name in extension) if (!MERGED_KEYS.has(name)) body[name] = extension[name];
  body.model = upstreamModel;
  const { instructions, input } = encodeResponsesInput(request);
  if (instructions !== undefined) body.instructions = instructions;
  body.input = input;
  body.stream = options.stream;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = responsesOutputCap(request.maxOutputTokens);
  const reasoningModel = options.reasoningModel ?? false;
  const warn = options.warn;
  setReasoningAndSampling(body, request, extension?.reasoning, reasoningModel, warn);
  reportDropped(request, warn);
  reportForeignTools(request, 'openai-responses', log, warn);
  body.store = false;
  if (reasoningModel) {
    const include = Array.isArray(body.include) ? (body.include as unknown[]) : [];
    if (!include.includes(ENCRYPTED_REASONING)) body.include = [...include, ENCRYPTED_REASONING];
  }
  if (request.user !== undefined && body.safety_identifier === undefined && body.user === undefined)
    body.safety_identifier = openAIUserId(request.user);
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = openAIUserId(request.promptCacheKey);
  if (request.promptCacheRetention !== undefined) body.prompt_cache_retention = request.promptCacheRetention;
  const tools = encodeResponsesTools(request);
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice) body.tool_choice = encodeResponsesToolChoice(request.toolChoice, request);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  } else if (request.toolChoice && request.toolChoice.type !== 'none') {
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'tool_choice',
      details: `${request.toolChoice.type}: the request declares no tools`,
    });
  }
  if (request.responseFormat || extension?.text) {
    const text: JsonObject = { ...extension?.text };
    if (request.responseFormat) text.format = encodeFormat(request.responseFormat);
    body.text = text;
  }
  return body;
}
