/** Canonical GenerateRequest → a generateContent request body (with same-protocol pass-through). */
import type { GenerateRequest, ToolChoice, ToolDefinition } from '../../canonical';
import { keyOf } from '../../protocols/gemini/field-names';
import { encodeContents } from './encode-contents';
import { logProvider } from './log';

type Body = Record<string, unknown>;

/** `generationConfig` from the canonical settings (reasoning is not translated: no `thinkingConfig` is sent). */
export function encodeGenerationConfig(request: GenerateRequest): Body {
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
 * unchanged; only the output cap is the gateway's, under the caller's spelling of the field.
 */
function passThrough(request: GenerateRequest, original: Body): Body {
  const body: Body = { ...original };
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
 * Builds the upstream body. A request that arrived as generateContent starts from the caller's
 * own body; any other is translated from the canonical request, dropping (with a debug line)
 * what Gemini cannot express without changing the answer: `parallelToolCalls`, `user`, reasoning settings.
 */
export function encodeGenerateContentRequest(request: GenerateRequest): Body {
  if (request.origin?.protocol === 'gemini') return passThrough(request, request.origin.body);
  const body: Body = { ...encodeContents(request.messages) };
  const config = encodeGenerationConfig(request);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (request.tools?.length) {
    body.tools = encodeTools(request.tools);
    if (request.toolChoice) body.toolConfig = encodeToolConfig(request.toolChoice);
  } else if (request.toolChoice) {
    logProvider('gemini: dropped toolChoice (no tools declared)');
  }
  if (request.parallelToolCalls !== undefined) logProvider('gemini: dropped parallelToolCalls (no Gemini equivalent)');
  if (request.user !== undefined) logProvider('gemini: dropped user (no Gemini equivalent)');
  if (request.reasoning !== undefined) logProvider('gemini: reasoning settings are not translated to thinkingConfig yet; the model default applies');
  return body;
}
