/**
 * Canonical tools and tool choice → Responses `tools` (flat, namespaces regrouped, built-ins appended) and
 * `tool_choice`.
 */
import { appendAll } from '../../../arrays';
import type { GenerateRequest, ToolChoice, ToolDefinition } from '../../../canonical';
import type { JsonObject } from '../../../json';
import {
  responsesExtension,
  toolExtension,
  type ResponsesRequestExtension,
  type ResponsesToolExtension,
} from '../../../wire/openai/responses-extensions';

/** Keys of a tool's extension that say its shape rather than being wire fields of it. */
const SHAPE_KEYS: ReadonlySet<string> = new Set(['type', 'format', 'namespace', 'namespace_description', 'name']);

function wireFields(extension: ResponsesToolExtension | undefined): JsonObject {
  const fields: JsonObject = {};
  if (extension) for (const name in extension) if (!SHAPE_KEYS.has(name)) fields[name] = extension[name];
  return fields;
}

/** One canonical tool: a flat `function` tool, or the `custom` tool a Responses caller declared. */
function encodeTool(tool: ToolDefinition, extension: ResponsesToolExtension | undefined): JsonObject {
  const name = extension?.name ?? tool.name;
  const description = tool.description !== undefined ? { description: tool.description } : {};
  if (extension?.type === 'custom')
    return {
      ...wireFields(extension),
      type: 'custom',
      name,
      ...description,
      ...(extension.format ? { format: extension.format } : {}),
    };
  return {
    ...wireFields(extension),
    type: 'function',
    name,
    ...description,
    parameters: tool.parameters,
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
  };
}

/**
 * `tools`: each canonical tool flat (`{type: 'function', name, description, parameters, strict}`),
 * a Responses caller's namespaced tools regrouped under their `namespace` tool and its custom tools
 * as `custom`, then its built-in tools (`web_search`, `mcp`, …) from the request's extension.
 */
export function encodeResponsesTools(request: GenerateRequest): JsonObject[] {
  const tools: JsonObject[] = [];
  const namespaces = new Map<string, JsonObject[]>();
  for (const tool of request.tools ?? []) {
    const extension = responsesExtension<ResponsesToolExtension>(tool.extensions);
    const encoded = encodeTool(tool, extension);
    if (!extension?.namespace) {
      tools.push(encoded);
      continue;
    }
    let members = namespaces.get(extension.namespace);
    if (!members) {
      members = [];
      namespaces.set(extension.namespace, members);
      const description =
        extension.namespace_description !== undefined ? { description: extension.namespace_description } : {};
      tools.push({ type: 'namespace', name: extension.namespace, ...description, tools: members });
    }
    members.push(encoded);
  }
  const builtins = responsesExtension<ResponsesRequestExtension>(request.extensions)?.tools;
  if (builtins) appendAll(tools, builtins);
  return tools;
}

/**
 * `tool_choice`: a Responses caller's own choice object when the canonical choice could not say it
 * (`allowed_tools`, a built-in's), else the canonical choice, a named tool under the caller's name
 * and namespace.
 */
export function encodeResponsesToolChoice(choice: ToolChoice, request: GenerateRequest): unknown {
  const kept = responsesExtension<ResponsesRequestExtension>(request.extensions)?.tool_choice;
  if (kept) return kept;
  if (choice.type !== 'tool') return choice.type;
  const tool = toolExtension(request.tools, choice.name);
  return {
    type: tool?.type === 'custom' ? 'custom' : 'function',
    name: tool?.name ?? choice.name,
    ...(tool?.namespace ? { namespace: tool.namespace } : {}),
  };
}
