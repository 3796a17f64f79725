/**
 * Canonical GenerateRequest → a generateContent request body, with what a Gemini caller sent unmodelled
 * (`extensions.gemini`).
 */
import type { GenerateRequest, ToolChoice, ToolDefinition } from '../../canonical';
import {
  applyGeminiExtension,
  geminiExtension,
  type GeminiExtension,
  type GeminiRequestExtension,
  type GeminiThinkingExtension,
  type GeminiToolEntry,
  type GeminiToolExtension,
} from '../../wire/gemini/extensions';
import { encodeContents } from './encode-contents';
import { encodeThinkingConfig, literalThinkingConfig } from './encode-thinking-config';
import { logProvider } from './log';
import { geminiModelFamily, validatesSignatures, type GeminiModelFamily } from './model-family';
import { withPlaceholderSignatures } from './placeholder-signatures';
import { geminiToolSchema } from './tool-schema';
import { reportForeignTools } from '../../wire/vendor-tools';
import { reportDrop, type Warn } from '../../warnings';

type Body = Record<string, unknown>;

/**
 * `generationConfig` from the canonical settings; reasoning becomes `thinkingConfig` for the model's
 * family, or in the caller's own terms when it came as one (`extension`: generationConfig's).
 */
export function encodeGenerationConfig(
  request: GenerateRequest,
  family: GeminiModelFamily = geminiModelFamily(request.model),
  extension?: GeminiExtension,
  warn?: Warn,
): Body {
  const config: Body = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.stopSequences?.length) config.stopSequences = request.stopSequences;
  if (request.choiceCount !== undefined) config.candidateCount = request.choiceCount;
  if (request.seed !== undefined) config.seed = request.seed;
  const format = request.responseFormat;
  if (format?.type === 'json') config.responseMimeType = 'application/json';
  if (format?.type === 'json-schema')
    Object.assign(config, { responseMimeType: 'application/json', responseJsonSchema: format.schema });
  const literal = (extension?.children?.thinkingConfig as GeminiThinkingExtension | undefined)?.literal === true;
  const thinking = request.reasoning
    ? literal
      ? literalThinkingConfig(request.reasoning)
      : encodeThinkingConfig(request.reasoning, family, warn)
    : undefined;
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/**
 * A function declaration with `parametersJsonSchema`: the caller's JSON Schema with what Gemini does not take
 * rewritten or dropped (./tool-schema.ts; a debug line names it), the rest as it is.
 */
function encodeDeclaration(tool: ToolDefinition): Body {
  const dropped = new Set<string>();
  const parameters = geminiToolSchema(tool.parameters, dropped);
  if (dropped.size > 0)
    logProvider(
      'tool %s: schema keywords Gemini does not take rewritten or dropped: %s',
      tool.name,
      [...dropped].join(', '),
    );
  const declaration: Body = {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parametersJsonSchema: parameters,
  };
  return applyGeminiExtension(declaration, geminiExtension(tool));
}

/**
 * The `tools` entries: the function declarations in one entry, or, when a Gemini caller's tools
 * came in several entries (`entries`, with its googleSearch, codeExecution, … tools), in the entry
 * each was declared in, every entry in the caller's order (a tool added since goes to the first
 * function entry; an entry left with nothing is dropped).
 */
export function encodeTools(
  tools: readonly ToolDefinition[],
  entries?: readonly GeminiToolEntry[],
  warn?: Warn,
): Body[] {
  if (tools.some((tool) => tool.strict !== undefined))
    reportDrop(logProvider, warn, {
      type: 'unsupported-setting',
      setting: 'strict',
      details: 'tools[].strict has no Gemini equivalent',
    });
  if (!entries) return tools.length > 0 ? [{ functionDeclarations: tools.map(encodeDeclaration) }] : [];
  const first = Math.max(
    0,
    entries.findIndex((entry) => entry.functions),
  );
  const declared: Body[][] = entries.map(() => []);
  for (const tool of tools) {
    const at = geminiExtension<GeminiToolExtension>(tool)?.entry ?? first;
    (declared[at] ?? (declared[first] ??= [])).push(encodeDeclaration(tool));
  }
  return declared.flatMap((declarations, index) => {
    const entry: Body = declarations.length > 0 ? { functionDeclarations: declarations } : {};
    applyGeminiExtension(entry, entries[index]);
    return Object.keys(entry).length > 0 ? [entry] : [];
  });
}

/** auto → AUTO, none → NONE, required → ANY, one tool → ANY limited to that name. */
export function encodeToolConfig(choice: ToolChoice): Body {
  switch (choice.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
}

/**
 * Builds the upstream body for `upstreamModel` (its family decides the thinking settings and
 * whether unsigned current-turn function calls need the placeholder signature) from the canonical
 * request, whatever the caller's protocol. What a Gemini caller sent that the canonical types do
 * not model (`extensions.gemini` on the request, its messages, parts and tools: safetySettings,
 * googleSearch tools, responseModalities, videoMetadata, snake_case spellings, …) is put back on
 * the object it came with; other protocols' extensions are read only to report their vendor-run
 * tools as dropped. Dropped with a warning to `warn`, as Gemini cannot express them:
 * `parallelToolCalls`, `user`, a tool choice without tools, tools' `strict`.
 */
export function encodeGenerateContentRequest(
  request: GenerateRequest,
  upstreamModel: string = request.model,
  warn?: Warn,
): Body {
  const family = geminiModelFamily(upstreamModel);
  const extension = geminiExtension<GeminiRequestExtension>(request);
  const { contents, ...system } = encodeContents(request.messages);
  const body: Body = {
    contents: validatesSignatures(family) ? withPlaceholderSignatures(contents) : contents,
    ...system,
  };
  const config = encodeGenerationConfig(request, family, extension?.children?.generationConfig, warn);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const tools = encodeTools(request.tools ?? [], extension?.tools, warn);
  if (tools.length > 0) body.tools = tools;
  if (request.toolChoice && request.tools?.length) body.toolConfig = encodeToolConfig(request.toolChoice);
  else if (request.toolChoice)
    reportDrop(logProvider, warn, {
      type: 'unsupported-setting',
      setting: 'tool_choice',
      details: `${request.toolChoice.type}: the request declares no tools`,
    });
  if (request.parallelToolCalls !== undefined)
    reportDrop(logProvider, warn, {
      type: 'unsupported-setting',
      setting: 'parallel_tool_calls',
      details: 'no Gemini equivalent',
    });
  if (request.user !== undefined)
    reportDrop(logProvider, warn, { type: 'unsupported-setting', setting: 'user', details: 'no Gemini equivalent' });
  reportForeignTools(request, 'gemini', logProvider, warn);
  return applyGeminiExtension(body, extension);
}
