/** Anthropic `tools` and `tool_choice` → canonical tool definitions and choice; server tools are dropped. */
import createDebug from 'debug';
import type { ToolChoice, ToolDefinition } from '../../canonical';
import { type JsonObject, unmodelledFields } from '../../json';
import { ANTHROPIC_MESSAGES_KEY, type AnthropicRequestExtension } from '../../wire/anthropic/extensions';
import { invalidField } from '../shared/validate';
import type { MessagesBody, RawTool } from './schema';

const log = createDebug('rosetta:codec');

/**
 * The decoded tools, the names of server tools that were dropped, and those tools with their places (for an Anthropic
 * upstream).
 */
export interface DecodedTools {
  tools: ToolDefinition[];
  dropped: string[];
  serverTools?: AnthropicRequestExtension['serverTools'];
}

const MODELLED_TOOL_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'input_schema', 'strict']);

/** A versioned Anthropic-defined tool type (`web_search_20250305`, `bash_20250124`, …) or an MCP toolset. */
const SERVER_TOOL_TYPE = /^(?:[a-z0-9_]+_\d{8}|mcp_toolset)$/;

/** Whether a tool is a custom (client-run) tool: no `type`, or `type: "custom"`. */
export function isCustomTool(tool: RawTool): boolean {
  return tool.type === undefined || tool.type === null || tool.type === 'custom';
}

/** Whether a tool is one only Anthropic can serve: a versioned `type` with no `input_schema` of ours to give. */
export function isServerTool(tool: RawTool): boolean {
  return typeof tool.type === 'string' && SERVER_TOOL_TYPE.test(tool.type);
}

function decodeCustomTool(tool: RawTool, at: string): ToolDefinition {
  if (tool.name === undefined) invalidField(`${at}.name`, 'is required');
  if (tool.input_schema === undefined) invalidField(`${at}.input_schema`, 'is required');
  if (tool.input_schema.type !== 'object') invalidField(`${at}.input_schema.type`, 'must be "object"');
  const fields = unmodelledFields(tool as JsonObject, MODELLED_TOOL_KEYS);
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parameters: tool.input_schema,
    ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
    ...(fields ? { extensions: { [ANTHROPIC_MESSAGES_KEY]: { fields } } } : {}),
  };
}

/**
 * Custom tools become canonical tools (`type: "custom"`, `cache_control`, `defer_loading` and the
 * rest of their keys in their extensions). Server tools (a versioned `type` such as
 * `web_search_20250305`) run on Anthropic's side only: they have no canonical tool, are logged, not
 * refused (Claude Code sends them), and are kept for an Anthropic upstream.
 */
export function decodeTools(tools: MessagesBody['tools']): DecodedTools {
  const decoded: DecodedTools = { tools: [], dropped: [] };
  (tools ?? []).forEach((tool, index) => {
    const at = `tools[${index}]`;
    if (isCustomTool(tool)) {
      decoded.tools.push(decodeCustomTool(tool, at));
      return;
    }
    if (!isServerTool(tool))
      invalidField(
        `${at}.type`,
        `'${tool.type}' is not a known tool type; a custom tool has no type (or 'custom') and an input_schema`,
      );
    const name = tool.name ?? String(tool.type);
    log('%s: server tool %s (%s) kept for an Anthropic upstream only', at, name, tool.type);
    decoded.dropped.push(name);
    (decoded.serverTools ??= []).push({ index, tool: tool as JsonObject });
  });
  return decoded;
}

/** The decoded `tool_choice`: the canonical choice and, when given, whether parallel calls are allowed. */
export interface DecodedToolChoice {
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /** A choice of a server tool, whole (kept for an Anthropic upstream; see {@link AnthropicRequestExtension}). */
  serverToolChoice?: JsonObject;
}

/**
 * `auto`/`any`/`tool`/`none`, with `disable_parallel_tool_use` → `parallelToolCalls: false`. A `tool` choice naming a
 * server tool (Claude Code's WebSearch forces `web_search`) has no canonical choice: it is kept whole for an Anthropic
 * upstream.
 */
export function decodeToolChoice(choice: MessagesBody['tool_choice'], tools: DecodedTools): DecodedToolChoice {
  if (choice === null || choice === undefined) return {};
  const decoded: DecodedToolChoice = {};
  switch (choice.type) {
    case 'auto':
    case 'none':
      decoded.toolChoice = { type: choice.type };
      break;
    case 'any':
      decoded.toolChoice = { type: 'required' };
      break;
    case 'tool': {
      const name = choice.name;
      if (name === undefined) invalidField('tool_choice.name', "is required when tool_choice.type is 'tool'");
      if (tools.dropped.includes(name)) {
        log('tool_choice: server tool %s kept for an Anthropic upstream only', name);
        return { serverToolChoice: choice as JsonObject };
      }
      if (!tools.tools.some((tool) => tool.name === name))
        invalidField('tool_choice.name', `'${name}' is not one of the tools`);
      decoded.toolChoice = { type: 'tool', name };
      break;
    }
  }
  if (typeof choice.disable_parallel_tool_use === 'boolean')
    decoded.parallelToolCalls = !choice.disable_parallel_tool_use;
  return decoded;
}
