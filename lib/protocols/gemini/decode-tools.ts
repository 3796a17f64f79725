/** Gemini `tools[].functionDeclarations` and `toolConfig.functionCallingConfig` → canonical tools and tool choice. */
import type { ToolChoice, ToolDefinition } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import { toJsonSchema } from './json-schema';
import { logCodec } from './log';
import {
  extensionOf,
  modelledKeys,
  withChild,
  withGeminiExtension,
  type GeminiExtension,
  type GeminiToolEntry,
  type GeminiToolExtension,
} from '../../wire/gemini/extensions';
import type { GenerateContentBody, RawFunctionDeclaration } from './schema';

const EMPTY_PARAMETERS = Object.freeze({ type: 'object', properties: {} });

const ENTRY_KEYS = modelledKeys(['functionDeclarations']);
const DECLARATION_KEYS = modelledKeys(['name', 'description', 'parameters', 'parametersJsonSchema']);
const TOOL_CONFIG_KEYS = modelledKeys(['functionCallingConfig']);
const CALLING_CONFIG_KEYS = modelledKeys(['mode', 'allowedFunctionNames']);

/**
 * The function declarations and, when the tools hold more than one function entry, the entries (see {@link
 * GeminiToolEntry}).
 */
export interface DecodedTools {
  tools?: ToolDefinition[];
  entries?: GeminiToolEntry[];
}

function decodeDeclaration(declaration: RawFunctionDeclaration, at: string, entry: number | undefined): ToolDefinition {
  const description = field<string>(declaration, 'description');
  const openApi = field<Record<string, unknown>>(declaration, 'parameters');
  const jsonSchema = field<Record<string, unknown>>(declaration, 'parametersJsonSchema');
  if (openApi && jsonSchema)
    invalidField(`${at}.${keyOf(declaration, 'parametersJsonSchema')}`, 'cannot be combined with parameters');
  const parameters = jsonSchema ?? (openApi ? toJsonSchema(openApi) : { ...EMPTY_PARAMETERS });
  let extension: GeminiToolExtension | undefined = extensionOf(declaration, DECLARATION_KEYS);
  if (entry !== undefined) extension = { ...extension, entry };
  return {
    name: declaration.name,
    ...(description !== undefined ? { description } : {}),
    parameters,
    ...withGeminiExtension(extension),
  };
}

/**
 * Function declarations from every `tools[]` entry. Other tool kinds (googleSearch, codeExecution,
 * urlContext, …) have no canonical form: they ride in the entries, for a Gemini upstream.
 */
export function decodeTools(body: GenerateContentBody): DecodedTools {
  const tools = field<Array<Record<string, unknown>>>(body, 'tools');
  if (!tools) return {};
  const at = keyOf(body, 'tools');
  const definitions: ToolDefinition[] = [];
  const entries: GeminiToolEntry[] = [];
  let firstFunctions: number | undefined;
  let needed = false;
  tools.forEach((tool, index) => {
    const declarations = field<RawFunctionDeclaration[]>(tool, 'functionDeclarations');
    const entry: GeminiToolEntry = {
      ...extensionOf(tool, ENTRY_KEYS),
      ...(declarations ? { functions: true as const } : {}),
    };
    entries.push(entry);
    if (entry.fields || entry.snake) needed = true;
    if (!declarations) return;
    if (firstFunctions === undefined) firstFunctions = index;
    else needed = true;
    const where = `${at}[${index}].${keyOf(tool, 'functionDeclarations')}`;
    declarations.forEach((declaration, position) => {
      definitions.push(
        decodeDeclaration(declaration, `${where}[${position}]`, index === firstFunctions ? undefined : index),
      );
    });
  });
  if (tools.length > 1) needed = true;
  return { ...(definitions.length > 0 ? { tools: definitions } : {}), ...(needed ? { entries } : {}) };
}

/** The tool choice, and the tools narrowed to `allowedFunctionNames` when mode `ANY` lists several. */
export function decodeToolChoice(body: GenerateContentBody, tools: ToolDefinition[] | undefined): DecodedToolChoice {
  const toolConfig = field<Record<string, unknown>>(body, 'toolConfig');
  const config = toolConfig ? field<Record<string, unknown>>(toolConfig, 'functionCallingConfig') : undefined;
  const extension = toolConfig
    ? withChild(
        extensionOf(toolConfig, TOOL_CONFIG_KEYS),
        'functionCallingConfig',
        config ? extensionOf(config, CALLING_CONFIG_KEYS) : undefined,
      )
    : undefined;
  return { ...decodeFunctionCalling(body, toolConfig, config, tools), ...(extension ? { extension } : {}) };
}

/**
 * What `toolConfig` decodes to: the tool choice, the tools (narrowed), and the extension of what is not modelled
 * (`retrievalConfig`, …).
 */
export interface DecodedToolChoice {
  toolChoice?: ToolChoice;
  tools?: ToolDefinition[];
  extension?: GeminiExtension;
}

function decodeFunctionCalling(
  body: GenerateContentBody,
  toolConfig: Record<string, unknown> | undefined,
  config: Record<string, unknown> | undefined,
  tools: ToolDefinition[] | undefined,
): DecodedToolChoice {
  if (!toolConfig || !config) return { tools };
  const at = `${keyOf(body, 'toolConfig')}.${keyOf(toolConfig, 'functionCallingConfig')}`;
  const mode = field<string>(config, 'mode');
  const names = field<string[]>(config, 'allowedFunctionNames');
  if (names?.length && mode !== 'ANY')
    logCodec('gemini: ignored %s.allowedFunctionNames (only used with mode ANY)', at);
  switch (mode) {
    case 'NONE':
      return { toolChoice: { type: 'none' }, tools };
    case 'AUTO':
    case 'VALIDATED':
      return { toolChoice: { type: 'auto' }, tools };
    case 'ANY': {
      if (!names?.length) return { toolChoice: { type: 'required' }, tools };
      names.forEach((name, index) => {
        if (!tools?.some((tool) => tool.name === name))
          invalidField(
            `${at}.${keyOf(config, 'allowedFunctionNames')}[${index}]`,
            `'${name}' is not a declared function`,
          );
      });
      if (names.length === 1) return { toolChoice: { type: 'tool', name: names[0]! }, tools };
      return { toolChoice: { type: 'required' }, tools: tools!.filter((tool) => names.includes(tool.name)) };
    }
    default:
      return { tools };
  }
}
