/** Canonical GenerateRequest → an Anthropic Messages request body (with same-protocol pass-through). */
import createDebug from 'debug';
import type { GenerateRequest, ToolChoice, ToolDefinition } from '../../canonical';
import { GatewayError } from '../../errors';
import { encodeConversation } from './encode-messages';

const log = createDebug('rosetta:provider');

/** The inbound protocol whose bodies this provider passes through. */
export const ANTHROPIC_MESSAGES_PROTOCOL = 'anthropic-messages';

/** What the provider decides for every body. */
export interface EncodeMessagesOptions {
  stream: boolean;
  /** `max_tokens` when the request has no output cap (Anthropic requires one). */
  defaultMaxTokens: number;
}

function encodeTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: { type: 'object', ...tool.parameters },
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
  };
}

/** `tool_choice`, with `disable_parallel_tool_use` when parallel calls are off (`none` takes no such flag). */
export function encodeToolChoice(choice: ToolChoice | undefined, parallelToolCalls: boolean | undefined): Record<string, unknown> | undefined {
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

/** Fields the gateway sets itself, whatever the caller sent. */
function controlledFields(request: GenerateRequest, upstreamModel: string, options: EncodeMessagesOptions): Record<string, unknown> {
  return { model: upstreamModel, max_tokens: request.maxOutputTokens ?? options.defaultMaxTokens, stream: options.stream };
}

/** Settings another protocol may carry that Anthropic cannot honour: a 400 if dropping would change the answer, else a debug line. */
function checkUnsupported(request: GenerateRequest): void {
  if ((request.choiceCount ?? 1) > 1) {
    throw new GatewayError('invalid_request', 'This model is served by Anthropic, which returns one choice only; set n (candidateCount) to 1.', { param: 'n' });
  }
  if (request.seed !== undefined) log('seed dropped: Anthropic has no seed');
  if (request.reasoning) log('reasoning settings dropped: not translated to Anthropic thinking yet');
  if (request.responseFormat?.type === 'json') log('response format json dropped: Anthropic has no JSON mode without a schema');
}

/**
 * Builds the upstream body. When the caller spoke Anthropic messages too, its own body is the
 * starting point, so `thinking`, `cache_control`, `context_management`, `output_config`,
 * `mcp_servers` and the rest pass through unchanged; only the model, `max_tokens` and `stream` are
 * the gateway's. Otherwise the canonical request is translated: system prompts lifted out, tool
 * results gathered into user turns, turns merged to alternate, ids made Anthropic-safe.
 */
export function encodeMessagesRequest(request: GenerateRequest, upstreamModel: string, options: EncodeMessagesOptions): Record<string, unknown> {
  if (request.origin?.protocol === ANTHROPIC_MESSAGES_PROTOCOL) {
    return { ...request.origin.body, ...controlledFields(request, upstreamModel, options) };
  }
  checkUnsupported(request);
  const conversation = encodeConversation(request.messages);
  const body: Record<string, unknown> = { ...controlledFields(request, upstreamModel, options), messages: conversation.messages };
  if (conversation.system.length > 0) body.system = conversation.system;
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  if (request.temperature !== undefined) body.temperature = clampTemperature(request.temperature);
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  if (request.tools?.length) {
    body.tools = request.tools.map(encodeTool);
    const toolChoice = encodeToolChoice(request.toolChoice, request.parallelToolCalls);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (request.responseFormat?.type === 'json-schema') body.output_config = { format: { type: 'json_schema', schema: request.responseFormat.schema } };
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  return body;
}

/**
 * The `anthropic-beta` header to send: the configured betas plus, for a same-protocol caller, its
 * own (comma-joined, duplicates removed). Undefined when there are none.
 */
export function anthropicBetaHeader(request: GenerateRequest, configured: string | undefined): string | undefined {
  const fromCaller = request.origin?.protocol === ANTHROPIC_MESSAGES_PROTOCOL ? request.origin.headers['anthropic-beta'] : undefined;
  const values = [configured, ...(Array.isArray(fromCaller) ? fromCaller : [fromCaller])]
    .flatMap((value) => (value ?? '').split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  return values.length > 0 ? [...new Set(values)].join(',') : undefined;
}
