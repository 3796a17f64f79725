/** Chat-completions request body → canonical GenerateRequest. */
import type { GenerateRequest, ReasoningEffort, ResponseFormat, ToolChoice, ToolDefinition } from '../../canonical';
import { unmodelledFields, type JsonObject } from '../../json';
import { liftCacheControl } from '../../wire/cache-control';
import { chatExtensions, type ChatRequestExtension, type ChatToolExtension } from '../../wire/openai/extensions';
import { invalidField } from '../shared/validate';
import { decodeChatMessages } from './decode-messages';
import { validateChatCompletionBody, type ChatCompletionBody } from './schema';

/**
 * The body fields this codec models (or that the gateway controls: `stream_options`). `n: 1` and
 * `response_format: {type: 'text'}`, the defaults, are left as fields: nothing canonical needs them,
 * and a chat-completions upstream gets them as sent.
 */
const MODELLED_BODY: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'n',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning_effort',
  'response_format',
  'seed',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
]);
const MODELLED_JSON_SCHEMA: ReadonlySet<string> = new Set(['name', 'schema', 'strict']);
const MODELLED_TOOL: ReadonlySet<string> = new Set(['type', 'function']);
const MODELLED_FUNCTION: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'strict']);

function decodeTools(tools: ChatCompletionBody['tools']): ToolDefinition[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool, index) => {
    if (tool.type !== 'function' || !tool.function)
      invalidField(`tools[${index}].type`, `'${tool.type}' tools are not supported; use 'function'`);
    const fn = tool.function;
    const decoded: ToolDefinition = { name: fn.name, parameters: fn.parameters ?? { type: 'object', properties: {} } };
    if (fn.description !== undefined) decoded.description = fn.description;
    if (typeof fn.strict === 'boolean') decoded.strict = fn.strict;
    const { cacheControl, fields } = liftCacheControl(unmodelledFields(tool, MODELLED_TOOL));
    if (cacheControl) decoded.cacheControl = cacheControl;
    const functionFields = unmodelledFields(fn, MODELLED_FUNCTION);
    if (fields || functionFields)
      decoded.extensions = chatExtensions({
        ...(fields ? { fields } : {}),
        ...(functionFields ? { functionFields } : {}),
      } satisfies ChatToolExtension);
    return decoded;
  });
}

function decodeToolChoice(choice: ChatCompletionBody['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (typeof choice === 'object' && choice.type === 'function' && typeof choice.function?.name === 'string')
    return { type: 'tool', name: choice.function.name };
  return invalidField('tool_choice', "must be 'auto', 'none', 'required' or {type: 'function', function: {name}}");
}

function decodeResponseFormat(format: ChatCompletionBody['response_format']): ResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type === 'json_schema') {
    const spec = format.json_schema;
    if (!spec?.schema) invalidField('response_format.json_schema.schema', 'is required');
    return {
      type: 'json-schema',
      schema: spec.schema,
      ...(spec.name ? { name: spec.name } : {}),
      ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}),
    };
  }
  return undefined;
}

/**
 * The request's extension: the body's unmodelled fields and the caller's spellings that the
 * canonical request does not keep (see {@link ChatRequestExtension}); undefined when it has none.
 */
function requestExtension(body: ChatCompletionBody): ChatRequestExtension | undefined {
  let extension: ChatRequestExtension | undefined;
  let fields = unmodelledFields(body as unknown as JsonObject, MODELLED_BODY);
  if (body.n === 1) (fields ??= {}).n = 1;
  if (body.response_format?.type === 'text') (fields ??= {}).response_format = body.response_format;
  const schemaFields =
    body.response_format?.type === 'json_schema' && body.response_format.json_schema
      ? unmodelledFields(body.response_format.json_schema, MODELLED_JSON_SCHEMA)
      : undefined;
  if (schemaFields) (extension ??= {}).jsonSchemaFields = schemaFields;
  if (fields) (extension ??= {}).fields = fields;
  if (body.max_completion_tokens !== null && body.max_completion_tokens !== undefined)
    (extension ??= {}).maxTokensField = 'max_completion_tokens';
  else if (body.max_tokens !== null && body.max_tokens !== undefined) (extension ??= {}).maxTokensField = 'max_tokens';
  if (typeof body.stop === 'string') (extension ??= {}).stopString = true;
  if (body.safety_identifier) {
    (extension ??= {}).userField = 'safety_identifier';
    if (body.user !== undefined) (extension.fields ??= {}).user = body.user;
  } else if (body.user) {
    (extension ??= {}).userField = 'user';
  }
  if ((body.temperature ?? body.top_p ?? body.reasoning_effort ?? null) !== null)
    (extension ??= {}).samplingAsGiven = true;
  return extension;
}

/** A string field's value (absent or null: undefined); anything else is a 400 naming it. */
function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : invalidField(name, 'must be a string');
}

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field.
 * Vendor signatures carried in tool-call ids are recovered into the calls' provider metadata and
 * cleaned out of the ids. What the canonical request does not model is in `extensions['openai-chat']`
 * at each level (body, message, part, tool call, tool).
 */
export function decodeChatRequest(body: unknown): GenerateRequest {
  validateChatCompletionBody(body);
  const stop =
    body.stop === null || body.stop === undefined ? undefined : typeof body.stop === 'string' ? [body.stop] : body.stop;
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const effort = body.reasoning_effort ?? undefined;
  const request: GenerateRequest = {
    model: body.model,
    messages: decodeChatMessages(body.messages),
    stream: body.stream === true,
  };
  if (body.stream_options?.include_usage === true) request.includeStreamUsage = true;
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  if (body.temperature !== null && body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== null && body.top_p !== undefined) request.topP = body.top_p;
  if (stop?.length) request.stopSequences = stop;
  if (body.n !== null && body.n !== undefined && body.n !== 1) request.choiceCount = body.n;
  const tools = decodeTools(body.tools);
  if (tools) request.tools = tools;
  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice) request.toolChoice = toolChoice;
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  if (effort) request.reasoning = { enabled: effort !== 'none', effort: effort as ReasoningEffort };
  const responseFormat = decodeResponseFormat(body.response_format);
  if (responseFormat) request.responseFormat = responseFormat;
  if (body.seed !== null && body.seed !== undefined) request.seed = body.seed;
  const user = body.safety_identifier || body.user;
  if (user) request.user = user;
  const cacheKey = optionalString(body.prompt_cache_key, 'prompt_cache_key');
  if (cacheKey !== undefined) request.promptCacheKey = cacheKey;
  const retention = optionalString(body.prompt_cache_retention, 'prompt_cache_retention');
  if (retention !== undefined) request.promptCacheRetention = retention;
  const extension = requestExtension(body);
  if (extension) request.extensions = chatExtensions(extension);
  return request;
}
