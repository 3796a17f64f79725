/** Canonical GenerateRequest → a generateContent request body (with same-protocol pass-through). */
import type { GenerateRequest, ToolChoice, ToolDefinition } from '../../canonical';
import { keyOf } from '../../wire/gemini/field-names';
import { encodeContents } from './encode-contents';
import { encodeThinkingConfig } from './encode-thinking-config';
import { logProvider } from './log';
import { geminiModelFamily, validatesSignatures, type GeminiModelFamily } from './model-family';
import { withPlaceholderSignatures } from './placeholder-signatures';

type Body = Record<string, unknown>;

/** `generationConfig` from the canonical settings; reasoning becomes `thinkingConfig` for the model's family. */
export function encodeGenerationConfig(request: GenerateRequest, family: GeminiModelFamily = geminiModelFamily(request.model)): Body {
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
  if (format?.type === 'json-schema') Object.assign(config, { responseMimeType: 'application/json', responseJsonSchema: format.schema });
  const thinking = request.reasoning ? encodeThinkingConfig(request.reasoning, family) : undefined;
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/** Function declarations with `parametersJsonSchema`: the caller's JSON Schema as is, no OpenAPI-subset cleaning. */
export function encodeTools(tools: readonly ToolDefinition[]): Body[] {
  if (tools.some((tool) => tool.strict !== undefined)) logProvider('gemini: dropped tools[].strict (no Gemini equivalent)');
  return [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parametersJsonSchema: tool.parameters })) }];
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
 * A Gemini caller's own body, so everything the gateway does not model (safetySettings,
 * thinkingConfig, googleSearch tools, thought signatures on any part…) reaches the upstream
 * unchanged; only the output cap is the gateway's, under the caller's spelling of the field, and
 * a model that validates signatures gets the placeholder on unsigned current-turn calls.
 */
function passThrough(request: GenerateRequest, original: Body, family: GeminiModelFamily): Body {
  const body: Body = { ...original };
  if (validatesSignatures(family) && Array.isArray(body.contents)) body.contents = withPlaceholderSignatures(body.contents as object[]);
  const configKey = keyOf(body, 'generationConfig');
  const given = body[configKey];
  const config: Body = typeof given === 'object' && given !== null && !Array.isArray(given) ? { ...(given as Body) } : {};
  const capKey = keyOf(config, 'maxOutputTokens', configKey);
  delete config.maxOutputTokens;
  delete config.max_output_tokens;
  if (request.maxOutputTokens !== undefined) config[capKey] = request.maxOutputTokens;
  if (Object.keys(config).length > 0) body[configKey] = config;
  return body;
}

/**
 * Builds the upstream body for `upstreamModel` (its family decides the thinking settings and
 * whether unsigned current-turn function calls need the placeholder signature). A request that
 * arrived as generateContent starts from the caller's own body; any other is translated from the
 * canonical request, dropping (with a debug line) what Gemini cannot express without changing
 * the answer: `parallelToolCalls`, `user`.
 */
export function encodeGenerateContentRequest(request: GenerateRequest, upstreamModel: string = request.model): Body {
  const family = geminiModelFamily(upstreamModel);
  if (request.origin?.protocol === 'gemini') return passThrough(request, request.origin.body, family);
  const { contents, ...system } = encodeContents(request.messages);
  const body: Body = { contents: validatesSignatures(family) ? withPlaceholderSignatures(contents) : contents, ...system };
  const config = encodeGenerationConfig(request, family);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (request.tools?.length) {
    body.tools = encodeTools(request.tools);
    if (request.toolChoice) body.toolConfig = encodeToolConfig(request.toolChoice);
  } else if (request.toolChoice) {
    logProvider('gemini: dropped toolChoice (no tools declared)');
  }
  if (request.parallelToolCalls !== undefined) logProvider('gemini: dropped parallelToolCalls (no Gemini equivalent)');
  if (request.user !== undefined) logProvider('gemini: dropped user (no Gemini equivalent)');
  return body;
}
