/** generateContent request body → canonical GenerateRequest. */
import type { GenerateRequest } from '../../canonical';
import { invalidField } from '../shared/validate';
import { decodeMessages } from './decode-contents';
import { applyGenerationConfig } from './decode-generation-config';
import { decodeToolChoice, decodeTools } from './decode-tools';
import { field, keyOf } from '../../wire/gemini/field-names';
import { logCodec } from './log';
import { validateGenerateContentBody } from './schema';

/** What the path says about the call: the model id and whether the response streams. */
export interface GeminiCallTarget {
  model: string;
  stream: boolean;
}

/** Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field. */
export function decodeGenerateContentRequest(target: GeminiCallTarget, body: unknown, headers: Record<string, string | string[] | undefined>): GenerateRequest {
  validateGenerateContentBody(body);
  if (field(body, 'cachedContent') !== undefined) invalidField(keyOf(body, 'cachedContent'), 'is not supported by this gateway; send the cached contents inline');
  if (field(body, 'safetySettings') !== undefined) logCodec('gemini: dropped %s (no canonical equivalent)', keyOf(body, 'safetySettings'));
  const request: GenerateRequest = {
    model: target.model,
    messages: decodeMessages(body),
    stream: target.stream,
    origin: { protocol: 'gemini', body, headers },
  };
  applyGenerationConfig(request, field(body, 'generationConfig'), keyOf(body, 'generationConfig'));
  const { tools, toolChoice } = decodeToolChoice(body, decodeTools(body));
  if (tools) request.tools = tools;
  if (toolChoice) request.toolChoice = toolChoice;
  return request;
}
