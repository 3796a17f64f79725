/** Gemini `tools[].functionDeclarations` and `toolConfig.functionCallingConfig` → canonical tools and tool choice. */
import type { ToolChoice, ToolDefinition } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import { toJsonSchema } from './json-schema';
import { logCodec } from './log';
import type { GenerateContentBody, RawFunctionDeclaration } from './schema';

const EMPTY_PARAMETERS = Object.freeze({ type: 'object', properties: {} });

function decodeDeclaration(declaration: RawFunctionDeclaration, at: string): ToolDefinition {
  const description = field<string>(declaration, 'description');
  const openApi = field<Record<string, unknown>>(declaration, 'parameters');
  const jsonSchema = field<Record<string, unknown>>(declaration, 'parametersJsonSchema');
  if (openApi && jsonSchema) invalidField(`${at}.${keyOf(declaration, 'parametersJsonSchema')}`, 'cannot be combined with parameters');
  const parameters = jsonSchema ?? (openApi ? toJsonSchema(openApi) : { ...EMPTY_PARAMETERS });
  return { name: declaration.name, ...(description !== undefined ? { description } : {}), parameters };
}

/** Function declarations from every `tools[]` entry; other tool kinds (googleSearch, codeExecution, …) are dropped with a debug line. */
export function decodeTools(body: GenerateContentBody): ToolDefinition[] | undefined {
  const tools = field<Array<Record<string, unknown>>>(body, 'tools');
  if (!tools) return undefined;
  const at = keyOf(body, 'tools');
  const definitions: ToolDefinition[] = [];
  tools.forEach((tool, index) => {
    for (const kind of Object.keys(tool)) {
      if (kind !== 'functionDeclarations' && kind !== 'function_declarations') logCodec('gemini: dropped %s[%d].%s (only function declarations are supported)', at, index, kind);
    }
    const declarations = field<RawFunctionDeclaration[]>(tool, 'functionDeclarations') ?? [];
    const where = `${at}[${index}].${keyOf(tool, 'functionDeclarations')}`;
    declarations.forEach((declaration, position) => definitions.push(decodeDeclaration(declaration, `${where}[${position}]`)));
  });
  return definitions.length > 0 ? definitions : undefined;
}

/** The tool choice, and the tools narrowed to `allowedFunctionNames` when mode `ANY` lists several. */
export function decodeToolChoice(body: GenerateContentBody, tools: ToolDefinition[] | undefined): { toolChoice?: ToolChoice; tools?: ToolDefinition[] } {
  const toolConfig = field<Record<string, unknown>>(body, 'toolConfig');
  const config = toolConfig ? field<Record<string, unknown>>(toolConfig, 'functionCallingConfig') : undefined;
  if (!toolConfig || !config) return { tools };
  const at = `${keyOf(body, 'toolConfig')}.${keyOf(toolConfig, 'functionCallingConfig')}`;
  const mode = field<string>(config, 'mode');
  const names = field<string[]>(config, 'allowedFunctionNames');
  if (names?.length && mode !== 'ANY') logCodec('gemini: ignored %s.allowedFunctionNames (only used with mode ANY)', at);
  switch (mode) {
    case 'NONE':
      return { toolChoice: { type: 'none' }, tools };
    case 'AUTO':
    case 'VALIDATED':
      return { toolChoice: { type: 'auto' }, tools };
    case 'ANY': {
      if (!names?.length) return { toolChoice: { type: 'required' }, tools };
      names.forEach((name, index) => {
        if (!tools?.some((tool) => tool.name === name)) invalidField(`${at}.${keyOf(config, 'allowedFunctionNames')}[${index}]`, `'${name}' is not a declared function`);
      });
      if (names.length === 1) return { toolChoice: { type: 'tool', name: names[0]! }, tools };
      return { toolChoice: { type: 'required' }, tools: tools!.filter((tool) => names.includes(tool.name)) };
    }
    default:
      return { tools };
  }
}
