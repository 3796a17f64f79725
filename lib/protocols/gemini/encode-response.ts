/** Canonical GenerateResponse → generateContent response body. */
import type { Choice, ContentPart, GenerateResponse, MediaSource, Usage } from '../../canonical';
import type { JsonObject } from '../../json';
import { applyGeminiExtension, geminiExtension, type GeminiExtension } from '../../wire/gemini/extensions';
import { mapFinishReason } from './map-finish-reason';
import { thoughtSignatureOf } from './thought-signature';

/** One part of a candidate, as the Gemini wire carries it. */
export type GeminiPart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: { name: string; args: Record<string, unknown>; id: string }; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string }; thoughtSignature?: string }
  | { fileData: { fileUri: string; mimeType?: string }; thoughtSignature?: string };

/** A tool call's arguments as an object: `{}` when they are not valid JSON or not an object. */
export function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function encodeMedia(source: MediaSource): GeminiPart {
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  return { fileData: { fileUri: source.url, ...(source.mediaType ? { mimeType: source.mediaType } : {}) } };
}

/** A canonical output part as a Gemini part; a tool result (never model output) gives undefined. */
export function encodePart(part: ContentPart): GeminiPart | undefined {
  switch (part.type) {
    case 'image':
    case 'file':
      return { ...encodeMedia(part.source), ...thoughtSignatureOf(part.providerMetadata) };
    case 'text':
      return { text: part.text, ...thoughtSignatureOf(part.providerMetadata) };
    case 'reasoning':
      return { text: part.text, thought: true, ...thoughtSignatureOf(part.providerMetadata) };
    case 'tool-call':
      return {
        functionCall: { name: part.name, args: parseArguments(part.arguments), id: part.id },
        ...thoughtSignatureOf(part.providerMetadata),
      };
    default:
      return undefined;
  }
}

/** A candidate, with what a Gemini upstream's had that the codec does not model (its choice's extension). */
function encodeCandidate(choice: Choice): JsonObject {
  const parts = choice.content.flatMap((part) => encodePart(part) ?? []);
  const candidate: JsonObject = {
    content: { role: 'model' as const, parts: parts.length > 0 ? parts : [{ text: '' }] },
    finishReason: mapFinishReason(choice.finishReason),
    index: choice.index,
  };
  return applyGeminiExtension(candidate, geminiExtension(choice));
}

/**
 * The usage block: candidates exclude thinking, which is reported as `thoughtsTokenCount`. The
 * canonical input counts a Gemini upstream's `toolUsePromptTokenCount` too; when the usage's
 * extension (`extension`) carries it, the prompt count is given as the upstream's, without it.
 */
export function encodeUsageMetadata(usage: Usage, extension?: GeminiExtension) {
  const thoughts = usage.reasoningTokens ?? 0;
  const cached = usage.cacheReadTokens ?? 0;
  const toolUse = extension?.fields?.toolUsePromptTokenCount;
  const prompt =
    typeof toolUse === 'number' && toolUse <= usage.inputTokens ? usage.inputTokens - toolUse : usage.inputTokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  };
}

/**
 * The whole response body. What a Gemini upstream's answer had that the canonical response does
 * not model comes back from its extensions: a candidate's `groundingMetadata`, `citationMetadata`,
 * `safetyRatings`, `logprobsResult`, `avgLogprobs`, `urlContextMetadata`, `finishMessage`; the
 * response's `promptFeedback`; usage's `promptTokensDetails`, `toolUsePromptTokenCount`, …
 */
export function encodeGenerateContentResponse(response: GenerateResponse) {
  const extension = geminiExtension(response);
  const body: JsonObject = {
    candidates: response.choices.map(encodeCandidate),
    usageMetadata: encodeUsageMetadata(response.usage, extension?.children?.usageMetadata),
    modelVersion: response.model,
    responseId: response.id,
  };
  return applyGeminiExtension(body, extension);
}
