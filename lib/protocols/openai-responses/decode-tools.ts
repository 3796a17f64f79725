/** Responses `tools` and `tool_choice` → canonical tools and choice; built-ins kept in the request's extension. */
import type { ToolChoice, ToolDefinition } from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';
import { invalidField } from '../shared/validate';
import {
  customToolParameters,
  namespacedName,
  type ResponsesToolExtension,
} from '../../wire/openai/responses-extensions';
import { log } from './log';
import type { RawTool, ResponsesBody } from './schema';
import { extensionOf, unmodelledFields } from './unmodelled';

const FUNCTION_FIELDS: ReadonlySet<string> = new Set(['type', 'name', 'description', 'parameters', 'strict']);
const CUSTOM_FIELDS: ReadonlySet<string> = new Set(['name', 'description']);

/** What the decoder made of `tools`: the canonical tools, and the built-ins no canonical tool can stand for. */
export interface DecodedTools {
  tools: ToolDefinition[];
  builtins: JsonObject[];
}

function decodeFunction(raw: RawTool, at: string, namespace?: JsonObject & { name: string }): ToolDefinition {
  const custom = raw.type === 'custom';
  if (!custom && raw.type !== 'function')
    invalidField(`${at}.type`, "must be 'function' or 'custom' inside a namespace");
  if (typeof raw.name !== 'string' || raw.name.length === 0) invalidField(`${at}.name`, 'is required');
  let extension: ResponsesToolExtension | undefined = custom
    ? (unmodelledFields(raw, CUSTOM_FIELDS) as ResponsesToolExtension)
    : unmodelledFields(raw, FUNCTION_FIELDS);
  if (namespace) {
    extension = { ...extension, namespace: namespace.name, name: raw.name };
    if (typeof namespace.description === 'string') extension.namespace_description = namespace.description;
  }
  const parameters = custom
    ? customToolParameters()
    : isJsonObject(raw.parameters)
      ? raw.parameters
      : { type: 'object', properties: {} };
  return {
    name: namespace ? namespacedName(namespace.name, raw.name) : raw.name,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    parameters,
    ...(!custom && typeof raw.strict === 'boolean' ? { strict: raw.strict } : {}),
    ...extensionOf(extension),
  };
}

/**
 * `function` tools as they are; `custom` tools as a function of one string `input`; a `namespace`'s
 * tools flattened to `<namespace>__<name>`; every other type (a built-in the upstream runs itself)
 * kept for a Responses upstream and dropped for every other, with a log line.
 */
export function decodeTools(raw: ResponsesBody['tools']): DecodedTools | undefined {
  if (!raw || raw.length === 0) return undefined;
  const decoded: DecodedTools = { tools: [], builtins: [] };
  raw.forEach((tool, index) => {
    const at = `tools[${index}]`;
    if (tool.type === 'function' || tool.type === 'custom') decoded.tools.push(decodeFunction(tool, at));
    else if (tool.type === 'namespace') {
      if (typeof tool.name !== 'string' || tool.name.length === 0) invalidField(`${at}.name`, 'is required');
      if (!Array.isArray(tool.tools)) invalidField(`${at}.tools`, 'is required');
      const namespace = {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      };
      tool.tools.forEach((inner, position) => {
        decoded.tools.push(decodeFunction(inner, `${at}.tools[${position}]`, namespace));
      });
    } else {
      log('openai-responses: %s (%s) is a built-in tool: kept for a Responses upstream only', at, tool.type);
      decoded.builtins.push(tool);
    }
  });
  return decoded;
}

const CHOICE_HINT =
  "must be 'auto', 'none', 'required', {type: 'function', name}, {type: 'custom', name}, {type: 'allowed_tools', mode, tools} or a built-in tool's choice";

/** `tool_choice`: what canonical can say, and the choice as sent when it cannot say it exactly. */
export function decodeToolChoice(raw: ResponsesBody['tool_choice']): { choice?: ToolChoice; kept?: JsonObject } {
  if (raw === null || raw === undefined) return {};
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { choice: { type: raw } };
  if (!isJsonObject(raw) || typeof raw.type !== 'string') return invalidField('tool_choice', CHOICE_HINT);
  if (raw.type === 'function' || raw.type === 'custom') {
    if (typeof raw.name !== 'string' || raw.name.length === 0) invalidField('tool_choice.name', 'is required');
    const name = typeof raw.namespace === 'string' ? namespacedName(raw.namespace, raw.name) : raw.name;
    return { choice: { type: 'tool', name } };
  }
  if (raw.type === 'allowed_tools') {
    if (raw.mode !== 'auto' && raw.mode !== 'required')
      invalidField('tool_choice.mode', "must be 'auto' or 'required'");
    if (!Array.isArray(raw.tools)) invalidField('tool_choice.tools', 'is required');
    log('openai-responses: tool_choice allowed_tools kept for a Responses upstream; %s for others', raw.mode);
    return { choice: { type: raw.mode }, kept: raw };
  }
  log('openai-responses: tool_choice %s (a built-in) kept for a Responses upstream; auto for others', raw.type);
  return { choice: { type: 'auto' }, kept: raw };
}
