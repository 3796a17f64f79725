/** generateContent request body → canonical GenerateRequest; what it does not model goes to `extensions.gemini`. */
import type { GenerateRequest } from '../../canonical';
import { decodeMessages } from './decode-contents';
import { applyGenerationConfig } from './decode-generation-config';
import { decodeToolChoice, decodeTools } from './decode-tools';
import { field, keyOf } from '../../wire/gemini/field-names';
import {
  extensionOf,
  modelledKeys,
  withChild,
  withGeminiExtension,
  type GeminiRequestExtension,
} from '../../wire/gemini/extensions';
import { validateGenerateContentBody } from './schema';

/** What the path says about the call: the model id and whether the response streams. */
export interface GeminiCallTarget {
  model: string;
  stream: boolean;
}

const BODY_KEYS = modelledKeys(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field.
 * Top-level fields it does not model (`safetySettings`, `labels`, `cachedContent`, …) and the unmodelled parts of
 * `generationConfig`, `toolConfig` and `tools` ride in `extensions.gemini` (see lib/wire/gemini/extensions.ts).
 */
export function decodeGenerateContentRequest(target: GeminiCallTarget, body: unknown): GenerateRequest {
  validateGenerateContentBody(body);
  const request: GenerateRequest = {
    model: target.model,
    messages: decodeMessages(body),
    stream: target.stream,
  };
  let extension: GeminiRequestExtension | undefined = extensionOf(body, BODY_KEYS);
  extension = withChild(
    extension,
    'generationConfig',
    applyGenerationConfig(request, field(body, 'generationConfig'), keyOf(body, 'generationConfig')),
  );
  const decodedTools = decodeTools(body);
  const { tools, toolChoice, extension: toolConfig } = decodeToolChoice(body, decodedTools.tools);
  extension = withChild(extension, 'toolConfig', toolConfig);
  if (decodedTools.entries) extension = { ...extension, tools: decodedTools.entries };
  if (tools) request.tools = tools;
  if (toolChoice) request.toolChoice = toolChoice;
  return Object.assign(request, withGeminiExtension(extension));
}
