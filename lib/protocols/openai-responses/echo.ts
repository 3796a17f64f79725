/**
 * The request settings a Responses answer echoes (`instructions`, `tools`, `tool_choice`, `text`,
 * `reasoning`, sampling, …), rebuilt from the canonical request and its extension: what the call
 * really was, with the caller's own tool names and shapes.
 */
import { appendAll } from '../../arrays';
import type { GenerateRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../canonical';
import type { JsonObject } from '../../json';
import {
  responsesExtension,
  toolExtension,
  type ResponsesMessageExtension,
  type ResponsesRequestExtension,
  type ResponsesToolExtension,
} from '../../wire/openai/responses-extensions';

/** Keys of a tool's extension that the echo turns back into the caller's shape rather than copying. */
const TOOL_EXTENSION_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'namespace',
  'namespace_description',
  'name',
]);

function toolKeys(extension: ResponsesToolExtension | undefined): JsonObject {
  const kept: JsonObject = {};
  if (!extension) return kept;
  for (const name in extension) if (!TOOL_EXTENSION_KEYS.has(name)) kept[name] = extension[name];
  return kept;
}

/** A canonical tool as the caller gave it (a function or custom tool; the namespace is built around it). */
function encodeTool(tool: ToolDefinition, extension: ResponsesToolExtension | undefined): JsonObject {
  const name = extension?.name ?? tool.name;
  if (extension?.type === 'custom') {
    return {
      type: 'custom',
      name,
      description: tool.description ?? null,
      ...(extension.format ? { format: extension.format } : {}),
      ...toolKeys(extension),
    };
  }
  return {
    type: 'function',
    name,
    description: tool.description ?? null,
    parameters: tool.parameters,
    strict: tool.strict ?? false,
    ...toolKeys(extension),
  };
}

/** `tools` as given: function and custom tools, namespaces regrouped, then the built-ins. */
export function echoTools(request: GenerateRequest, extension: ResponsesRequestExtension | undefined): JsonObject[] {
  const tools: JsonObject[] = [];
  const namespaces = new Map<string, JsonObject[]>();
  for (const tool of request.tools ?? []) {
    const own = responsesExtension<ResponsesToolExtension>(tool.extensions);
    const encoded = encodeTool(tool, own);
    if (!own?.namespace) {
      tools.push(encoded);
      continue;
    }
    let members = namespaces.get(own.namespace);
    if (!members) {
      members = [];
      namespaces.set(own.namespace, members);
      tools.push({
        type: 'namespace',
        name: own.namespace,
        description: own.namespace_description ?? null,
        tools: members,
      });
    }
    members.push(encoded);
  }
  if (extension?.tools) appendAll(tools, extension.tools);
  return tools;
}

/** A canonical tool choice in the caller's words (its own name and namespace for a named tool). */
export function echoToolChoice(
  choice: ToolChoice | undefined,
  request: GenerateRequest,
  extension: ResponsesRequestExtension | undefined,
): unknown {
  if (extension?.tool_choice) return extension.tool_choice;
  if (!choice) return 'auto';
  if (choice.type !== 'tool') return choice.type;
  const own = toolExtension(request.tools, choice.name);
  const named = { name: own?.name ?? choice.name, ...(own?.namespace ? { namespace: own.namespace } : {}) };
  return { type: own?.type === 'custom' ? 'custom' : 'function', ...named };
}

function echoFormat(format: ResponseFormat | undefined): JsonObject {
  if (!format || format.type === 'text') return { type: 'text' };
  if (format.type === 'json') return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: format.name ?? 'response',
    schema: format.schema,
    strict: format.strict ?? false,
  };
}

/** The text of the system message that was the body's `instructions`, or null. */
function echoInstructions(request: GenerateRequest): string | null {
  const first = request.messages[0];
  if (first?.role !== 'system' || !responsesExtension<ResponsesMessageExtension>(first.extensions)?.instructions)
    return null;
  return first.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Every echoed setting of the Response object, in the order OpenAI writes them; `previousId` is the call's
 * `previous_response_id`.
 */
export function echoSettings(request: GenerateRequest | undefined, previousId?: string): JsonObject {
  const extension = request ? responsesExtension<ResponsesRequestExtension>(request.extensions) : undefined;
  const of = <T>(name: string, fallback: T): unknown =>
    extension && extension[name] !== undefined ? extension[name] : fallback;
  return {
    instructions: request ? echoInstructions(request) : null,
    max_output_tokens: request?.maxOutputTokens ?? null,
    max_tool_calls: of('max_tool_calls', null),
    parallel_tool_calls: request?.parallelToolCalls ?? true,
    previous_response_id: previousId ?? null,
    prompt_cache_key: request?.promptCacheKey ?? null,
    reasoning: {
      effort: request?.reasoning?.effort ?? null,
      summary: extension?.reasoning?.summary ?? extension?.reasoning?.generate_summary ?? null,
    },
    safety_identifier: request?.user ?? null,
    service_tier: of('service_tier', 'default'),
    store: of('store', false),
    temperature: request?.temperature ?? 1,
    text: { format: echoFormat(request?.responseFormat), verbosity: extension?.text?.verbosity ?? 'medium' },
    tool_choice: request ? echoToolChoice(request.toolChoice, request, extension) : 'auto',
    tools: request ? echoTools(request, extension) : [],
    top_logprobs: of('top_logprobs', 0),
    top_p: request?.topP ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    truncation: of('truncation', 'disabled'),
    metadata: of('metadata', {}),
  };
}

/** Whether the caller asked for reasoning items' `encrypted_content` (`include`). */
export function includesEncryptedReasoning(request: GenerateRequest | undefined): boolean {
  const include = responsesExtension<ResponsesRequestExtension>(request?.extensions)?.include;
  return Array.isArray(include) && include.includes('reasoning.encrypted_content');
}
