/** Anthropic messages request body → canonical GenerateRequest. */
import type { GenerateRequest, ReasoningSettings, ResponseFormat } from '../../canonical';
import { isJsonObject, type JsonObject, unmodelledFields } from '../../json';
import { ANTHROPIC_MESSAGES_KEY, type AnthropicRequestExtension } from '../../wire/anthropic/extensions';
import { invalidField } from '../shared/validate';
import { decodeMessages, decodeSystem } from './decode-messages';
import { decodeToolChoice, decodeTools } from './decode-tools';
import { validateMessagesBody, type MessagesBody } from './schema';

/** The codec's name, which is also the key of the extensions it writes. */
export const ANTHROPIC_MESSAGES = ANTHROPIC_MESSAGES_KEY;

/** Top-level keys the codec models; the rest go to the request's extension. */
const MODELLED_BODY_KEYS: ReadonlySet<string> = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
]);
const MODELLED_THINKING_KEYS: ReadonlySet<string> = new Set(['type', 'budget_tokens', 'display']);
const MODELLED_OUTPUT_CONFIG_KEYS: ReadonlySet<string> = new Set(['effort', 'format']);
const MODELLED_METADATA_KEYS: ReadonlySet<string> = new Set(['user_id']);
const MODELLED_TOOL_CHOICE_KEYS: ReadonlySet<string> = new Set(['type', 'name', 'disable_parallel_tool_use']);
const NONE: ReadonlySet<string> = new Set();

/** The caller's `anthropic-beta` values (a header may repeat and each holds a comma-separated list). */
export function anthropicBetas(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const values = (Array.isArray(header) ? header : [header])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  return values.length > 0 ? values : undefined;
}

/** The unmodelled keys of a settings object, plus `also` (a modelled key whose value canonical cannot say). */
function settingsKeys(object: unknown, modelled: ReadonlySet<string>, also?: JsonObject): JsonObject | undefined {
  if (!isJsonObject(object)) return also;
  const fields = unmodelledFields(object, modelled);
  return also ? { ...fields, ...also } : fields;
}

/**
 * What the body carries that the canonical request does not say (see `AnthropicRequestExtension`); undefined when
 * nothing.
 */
function requestExtension(
  body: MessagesBody,
  serverTools: AnthropicRequestExtension['serverTools'],
  serverToolChoice: JsonObject | undefined,
  betas: string[] | undefined,
): AnthropicRequestExtension | undefined {
  const extension: AnthropicRequestExtension = {};
  const fields = unmodelledFields(body as unknown as JsonObject, MODELLED_BODY_KEYS);
  if (fields) extension.fields = fields;
  const display = body.thinking?.display;
  const thinking = settingsKeys(
    body.thinking,
    MODELLED_THINKING_KEYS,
    display !== undefined && display !== 'omitted' ? { display } : undefined,
  );
  if (thinking) extension.thinking = thinking;
  const outputConfig = settingsKeys(body.output_config, MODELLED_OUTPUT_CONFIG_KEYS);
  if (outputConfig) extension.outputConfig = outputConfig;
  const userId = body.metadata?.user_id;
  const metadata = settingsKeys(
    body.metadata,
    typeof userId === 'string' && userId.length > 0 ? MODELLED_METADATA_KEYS : NONE,
  );
  if (metadata) extension.metadata = metadata;
  const toolChoice = serverToolChoice
    ? undefined
    : settingsKeys(
        body.tool_choice,
        MODELLED_TOOL_CHOICE_KEYS,
        body.tool_choice?.disable_parallel_tool_use === false ? { disable_parallel_tool_use: false } : undefined,
      );
  if (toolChoice) extension.toolChoice = toolChoice;
  if (body.output_config?.effort) extension.answerEffort = true;
  if (serverTools) extension.serverTools = serverTools;
  if (serverToolChoice) extension.serverToolChoice = serverToolChoice;
  if (betas) extension.betas = betas;
  for (const _key in extension) return extension;
  return undefined;
}

/** `thinking` and `output_config.effort` → canonical reasoning settings (undefined when neither is set). */
export function decodeReasoning(
  thinking: MessagesBody['thinking'],
  effort: NonNullable<MessagesBody['output_config']>['effort'],
): ReasoningSettings | undefined {
  const settings: ReasoningSettings = {};
  if (thinking) {
    if (thinking.type === 'disabled') {
      settings.enabled = false;
    } else {
      settings.enabled = true;
      settings.includeThoughts = thinking.display !== 'omitted';
      if (thinking.type === 'adaptive') settings.adaptive = true;
      if (thinking.type === 'enabled') {
        settings.adaptive = false;
        if (thinking.budget_tokens === undefined)
          invalidField('thinking.budget_tokens', "is required when thinking.type is 'enabled'");
        settings.budgetTokens = thinking.budget_tokens;
      }
    }
  }
  if (effort) settings.effort = effort;
  return Object.keys(settings).length > 0 ? settings : undefined;
}

function decodeResponseFormat(
  format: NonNullable<MessagesBody['output_config']>['format'],
): ResponseFormat | undefined {
  return format ? { type: 'json-schema', schema: format.schema } : undefined;
}

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field.
 * Fields without a canonical equivalent (`cache_control`, `context_management`, `service_tier`,
 * `container`, `mcp_servers`, server tools and their blocks, …) are accepted and kept in the
 * `anthropic-messages` extensions of the object they were on (`lib/wire/anthropic/extensions.ts`),
 * with the caller's `anthropic-beta` values, for an Anthropic upstream.
 */
export function decodeMessagesRequest(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): GenerateRequest {
  validateMessagesBody(body);
  // A thread's continue after an unfinished turn (`pause_turn`, `compaction`) sends no new message: the upstream goes
  // on from the stored answer. Anywhere else a conversation needs one.
  if (body.messages.length === 0 && !continuesThread(body)) {
    invalidField('messages', 'must NOT have fewer than 1 items');
  }
  const request: GenerateRequest = {
    model: body.model,
    messages: [...decodeSystem(body.system), ...decodeMessages(body.messages)],
    stream: body.stream === true,
    maxOutputTokens: body.max_tokens,
  };
  if (body.temperature !== null && body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== null && body.top_p !== undefined) request.topP = body.top_p;
  if (body.top_k !== null && body.top_k !== undefined) request.topK = body.top_k;
  if (body.stop_sequences?.length) request.stopSequences = body.stop_sequences;
  const tools = decodeTools(body.tools);
  if (tools.tools.length > 0) request.tools = tools.tools;
  const { toolChoice, parallelToolCalls, serverToolChoice } = decodeToolChoice(body.tool_choice, tools);
  if (toolChoice) request.toolChoice = toolChoice;
  if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
  const reasoning = decodeReasoning(body.thinking, body.output_config?.effort);
  if (reasoning) request.reasoning = reasoning;
  const responseFormat = decodeResponseFormat(body.output_config?.format);
  if (responseFormat) request.responseFormat = responseFormat;
  if (typeof body.metadata?.user_id === 'string' && body.metadata.user_id.length > 0) {
    request.user = body.metadata.user_id;
    // Anthropic has no cache key; the end-user id (Claude Code's names its session) groups a caller's calls the way
    // OpenAI's prompt_cache_key asks for (docs/translation.md, "Prompt caching").
    request.promptCacheKey = body.metadata.user_id;
  }
  const extension = requestExtension(
    body,
    tools.serverTools,
    serverToolChoice,
    anthropicBetas(headers['anthropic-beta']),
  );
  if (extension) request.extensions = { [ANTHROPIC_MESSAGES_KEY]: extension };
  return request;
}

/** Whether the body continues a message thread (`thread.type` is `continue`; the thread state checks the rest). */
function continuesThread(body: MessagesBody): boolean {
  const thread = (body as { thread?: unknown }).thread;
  return typeof thread === 'object' && thread !== null && (thread as { type?: unknown }).type === 'continue';
}
