/**
 * Canonical GenerateRequest → an Anthropic Messages request body, with what the `anthropic-messages` extensions carry.
 */
import createDebug from 'debug';
import type { GenerateRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../canonical';
import { GatewayError } from '../../errors';
import type { JsonObject } from '../../json';
import {
  anthropicExtension,
  mergeUnmodelled,
  type AnthropicRequestExtension,
  type AnthropicToolExtension,
} from '../../wire/anthropic/extensions';
import { encodeCacheControl } from '../../wire/cache-control';
import { applyCacheBreakpoints, type PromptCaching } from './cache-breakpoints';
import { pairToolResults } from './clean-tool-results';
import { encodeConversation } from './encode-messages';
import { encodeThinking } from './encode-thinking';
import { toolLoopWithoutThinking, withoutThinkingEdits } from './thinking-replay';
import { reportForeignTools } from '../../wire/vendor-tools';
import { reportDrop, type Warn } from '../../warnings';

const log = createDebug('rosetta:provider');

/** What the provider decides for every body. */
export interface EncodeMessagesOptions {
  stream: boolean;
  /** `max_tokens` when the request has no output cap (Anthropic requires one). */
  defaultMaxTokens: number;
  /**
   * Whether the upstream model takes adaptive thinking (`AnthropicProviderOptions.adaptiveThinking`). Default false.
   */
  adaptiveThinking?: boolean;
  /** Where the settings and tools this body drops are reported (the call's `context.warn`). Default: only logged. */
  warn?: Warn;
  /** Whose prompt-cache breakpoints the body carries (`AnthropicProviderOptions.promptCaching`). Default `caller`. */
  promptCaching?: PromptCaching;
}

/** The schema that stands for JSON mode (any JSON object): Anthropic has no schema-less JSON mode. */
export const ANY_JSON_OBJECT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });

function encodeTool(tool: ToolDefinition): Record<string, unknown> {
  const encoded = {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: { type: 'object', ...tool.parameters },
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    ...(tool.cacheControl ? { cache_control: encodeCacheControl(tool.cacheControl) } : {}),
  };
  return mergeUnmodelled(encoded, anthropicExtension<AnthropicToolExtension>(tool.extensions)?.fields);
}

/** The tools, with the server tools an Anthropic caller sent put back at their places. */
function withServerTools(tools: JsonObject[], serverTools: AnthropicRequestExtension['serverTools']): JsonObject[] {
  for (const { index, tool } of serverTools ?? []) tools.splice(Math.min(index, tools.length), 0, tool);
  return tools;
}

/** `tool_choice`, with `disable_parallel_tool_use` when parallel calls are off (`none` takes no such flag). */
export function encodeToolChoice(
  choice: ToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
): Record<string, unknown> | undefined {
  const disableParallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  switch (choice?.type) {
    case undefined:
      return parallelToolCalls === false ? { type: 'auto', ...disableParallel } : undefined;
    case 'none':
      return { type: 'none' };
    case 'auto':
      return { type: 'auto', ...disableParallel };
    case 'required':
      return { type: 'any', ...disableParallel };
    case 'tool':
      return { type: 'tool', name: choice.name, ...disableParallel };
  }
}

/** Temperature in Anthropic's 0..1 range (OpenAI and Gemini allow up to 2). */
export function clampTemperature(temperature: number): number {
  const clamped = Math.min(1, Math.max(0, temperature));
  if (clamped !== temperature) log('temperature %d clamped to %d for Anthropic', temperature, clamped);
  return clamped;
}

/**
 * Whether Anthropic takes a sampling setting with thinking on: `temperature` 1 (its default) and `top_p` from 0.95 to
 * 1.
 */
function allowedWithThinking(name: string, value: number): boolean {
  return (name === 'temperature' && value === 1) || (name === 'top_p' && value >= 0.95 && value <= 1);
}

/**
 * `temperature`, `top_p` and `top_k` for Anthropic: with thinking on, only the values the API takes
 * with it are kept (the rest dropped, logged); otherwise temperature and top_p clamped to 0..1 and
 * top_k made a non-negative integer.
 */
export function encodeSampling(request: GenerateRequest, thinkingOn: boolean, warn?: Warn): Record<string, unknown> {
  const given = { temperature: request.temperature, top_p: request.topP, top_k: request.topK };
  if (thinkingOn) {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(given)) {
      if (value === undefined) continue;
      if (allowedWithThinking(name, value)) kept[name] = value;
      else
        reportDrop(log, warn, {
          type: 'unsupported-setting',
          setting: name,
          details: 'Anthropic refuses it with thinking on',
        });
    }
    return kept;
  }
  const fields: Record<string, unknown> = {};
  if (given.temperature !== undefined) fields.temperature = clampTemperature(given.temperature);
  if (given.top_p !== undefined) fields.top_p = Math.min(1, Math.max(0, given.top_p));
  if (given.top_k !== undefined) fields.top_k = Math.max(0, Math.round(given.top_k));
  return fields;
}

/**
 * `output_config.format`: a JSON schema as it is; JSON mode (OpenAI `json_object`, Gemini
 * `application/json` without a schema) as a schema admitting any object.
 */
export function encodeOutputFormat(format: ResponseFormat | undefined): Record<string, unknown> | undefined {
  if (format?.type === 'json-schema') return { type: 'json_schema', schema: format.schema };
  if (format?.type === 'json') return { type: 'json_schema', schema: { ...ANY_JSON_OBJECT_SCHEMA } };
  return undefined;
}

/** Fields the gateway sets itself, whatever the caller sent. */
function controlledFields(
  request: GenerateRequest,
  upstreamModel: string,
  options: EncodeMessagesOptions,
): { model: string; max_tokens: number; stream: boolean } {
  return {
    model: upstreamModel,
    max_tokens: request.maxOutputTokens ?? options.defaultMaxTokens,
    stream: options.stream,
  };
}

/**
 * Settings another protocol may carry that Anthropic cannot honour: a 400 if dropping would change the answer, else a
 * debug line.
 */
function checkUnsupported(request: GenerateRequest, warn: Warn | undefined): void {
  if ((request.choiceCount ?? 1) > 1) {
    throw new GatewayError(
      'invalid_request',
      'This model is served by Anthropic, which returns one choice only; set n (candidateCount) to 1.',
      { param: 'n' },
    );
  }
  if (request.seed !== undefined)
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'seed', details: 'Anthropic has no seed' });
}

/**
 * Builds the upstream body from the canonical request, for a caller of any protocol: system prompts
 * lifted out, tool results gathered into user turns, turns merged to alternate, ids made
 * Anthropic-safe, reasoning settings turned into `thinking` (see {@link encodeThinking});
 * docs/translation.md has every mapping. What an Anthropic caller sent that canonical does not say
 * comes back from the `anthropic-messages` extensions (`lib/wire/anthropic/extensions.ts`) at
 * every level — `cache_control`, `context_management`, `mcp_servers`, server tools and their
 * blocks, documents, string contents — so its body reaches Anthropic as it sent it, with only the
 * model, `max_tokens` and `stream` the gateway's (and any edit a step made to the canonical request).
 * A history another vendor answered is kept replayable: unsigned thinking is not sent, and thinking
 * is switched off for a tool loop whose assistant turn has none to lead with. With thinking off,
 * `clear_thinking_*` context-management edits (which need it) are not sent.
 */
export function encodeMessagesRequest(
  request: GenerateRequest,
  upstreamModel: string,
  options: EncodeMessagesOptions,
): Record<string, unknown> {
  const warn = options.warn;
  checkUnsupported(request, warn);
  const extension = anthropicExtension<AnthropicRequestExtension>(request.extensions);
  const conversation = encodeConversation(request.messages);
  const controlled = controlledFields(request, upstreamModel, options);
  const body: Record<string, unknown> = { ...controlled, messages: pairToolResults(conversation.messages) };
  if (conversation.system.length > 0) body.system = conversation.system;
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  const tools = request.tools ?? [];
  const hasTools = tools.length > 0 || extension?.serverTools !== undefined;
  // A choice of a server tool (kept whole by the Anthropic codec) goes with the server tools.
  const serverToolChoice = extension?.serverTools ? extension.serverToolChoice : undefined;
  const toolChoice = hasTools
    ? (encodeToolChoice(request.toolChoice, request.parallelToolCalls) ?? serverToolChoice)
    : undefined;
  const thinking = encodeThinking(request.reasoning, {
    maxTokens: controlled.max_tokens,
    adaptive: options.adaptiveThinking ?? false,
    forcesTool: toolChoice?.type === 'any' || toolChoice?.type === 'tool',
    unsignedToolTurn: toolLoopWithoutThinking(conversation.messages),
    answerEffort: extension?.answerEffort === true,
    warn,
  });
  if (thinking.thinking)
    body.thinking = thinking.on ? mergeUnmodelled(thinking.thinking, extension?.thinking) : thinking.thinking;
  Object.assign(body, encodeSampling(request, thinking.on, warn));
  if (hasTools) {
    body.tools = withServerTools(tools.map(encodeTool), extension?.serverTools);
    if (toolChoice) body.tool_choice = mergeUnmodelled(toolChoice, extension?.toolChoice);
  } else if (request.toolChoice && request.toolChoice.type !== 'none') {
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'tool_choice',
      details: `${request.toolChoice.type}: the request declares no tools`,
    });
  }
  reportForeignTools(request, 'anthropic-messages', log, warn);
  const format = encodeOutputFormat(request.responseFormat);
  if (format || thinking.effort || extension?.outputConfig) {
    body.output_config = mergeUnmodelled(
      { ...(thinking.effort ? { effort: thinking.effort } : {}), ...(format ? { format } : {}) },
      extension?.outputConfig,
    );
  }
  if (request.user !== undefined || extension?.metadata)
    body.metadata = mergeUnmodelled(request.user !== undefined ? { user_id: request.user } : {}, extension?.metadata);
  mergeUnmodelled(body, extension?.fields);
  if (!thinking.on && body.context_management !== undefined) {
    const management = withoutThinkingEdits(body.context_management);
    if (management === undefined) delete body.context_management;
    else body.context_management = management;
  }
  applyCacheBreakpoints(body, options.promptCaching ?? 'caller', warn);
  return body;
}

/**
 * The `anthropic-beta` header to send: the configured betas plus an Anthropic caller's own
 * (comma-joined, duplicates removed). Undefined when there are none.
 */
export function anthropicBetaHeader(request: GenerateRequest, configured: string | undefined): string | undefined {
  const values = [...(configured ?? '').split(','), ...callerBetas(request)]
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  return values.length > 0 ? [...new Set(values)].join(',') : undefined;
}

/** The caller's own betas: those its codec kept in the request's `anthropic-messages` extension. */
function callerBetas(request: GenerateRequest): readonly string[] {
  return anthropicExtension<AnthropicRequestExtension>(request.extensions)?.betas ?? [];
}

/**
 * The query of the upstream call: `?beta=true`, as the SDK's beta resource (and Claude Code)
 * sends it, when an Anthropic caller sent `anthropic-beta` values of its own; none otherwise.
 * (The codec does not keep the caller's query string, so its betas stand for it.)
 */
export function anthropicBetaQuery(request: GenerateRequest): Record<string, string> | undefined {
  return callerBetas(request).some((value) => value.trim().length > 0) ? { beta: 'true' } : undefined;
}
