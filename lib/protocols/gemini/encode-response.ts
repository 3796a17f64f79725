/** Canonical GenerateResponse → generateContent response body. */
import type { Choice, ContentPart, GenerateResponse, MediaSource, ProviderMetadata, Usage } from '../../canonical';
import { passThroughFields, type JsonObject } from '../../json';
import { mapFinishReason } from './map-finish-reason';

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
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function signature(metadata: ProviderMetadata | undefined): { thoughtSignature?: string } {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' ? { thoughtSignature: value } : {};
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
      return { ...encodeMedia(part.source), ...signature(part.providerMetadata) };
    case 'text':
      return { text: part.text, ...signature(part.providerMetadata) };
    case 'reasoning':
      return { text: part.text, thought: true, ...signature(part.providerMetadata) };
    case 'tool-call':
      return { functionCall: { name: part.name, args: parseArguments(part.arguments), id: part.id }, ...signature(part.providerMetadata) };
    default:
      return undefined;
  }
}

function encodeCandidate(choice: Choice): JsonObject {
  const parts = choice.content.flatMap((part) => encodePart(part) ?? []);
  return {
    content: { role: 'model' as const, parts: parts.length > 0 ? parts : [{ text: '' }] },
    finishReason: mapFinishReason(choice.finishReason),
    index: choice.index,
  };
}

/** Fields the codec writes itself from the canonical response; an upstream's own value for them is not passed through. */
const MODELLED_RESPONSE_FIELDS: ReadonlySet<string> = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
const MODELLED_CANDIDATE_FIELDS: ReadonlySet<string> = new Set(['content', 'finishReason', 'index']);

/** The usage block: candidates exclude thinking, which is reported as `thoughtsTokenCount`. */
export function encodeUsageMetadata(usage: Usage) {
  const thoughts = usage.reasoningTokens ?? 0;
  const cached = usage.cacheReadTokens ?? 0;
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  };
}

/**
 * The whole response body. When the upstream spoke generateContent too (`response.origin`), the
 * fields the codec does not model pass through unchanged — a candidate's `groundingMetadata`,
 * `citationMetadata`, `safetyRatings`, `logprobsResult`, `avgLogprobs`, `urlContextMetadata`,
 * `finishMessage`; the response's `promptFeedback` — and its `usageMetadata` is returned as it sent
 * it (`promptTokensDetails`, `toolUsePromptTokenCount`, …), completed with the gateway's figures.
 */
export function encodeGenerateContentResponse(response: GenerateResponse) {
  const upstream = response.origin?.protocol === 'gemini' ? response.origin.body : undefined;
  const upstreamCandidates = upstream && Array.isArray(upstream.candidates) ? (upstream.candidates as unknown[]) : undefined;
  const body: JsonObject = {
    candidates: response.choices.map((choice, position) => {
      const candidate = encodeCandidate(choice);
      if (upstreamCandidates) passThroughFields(candidate, upstreamCandidates[position], MODELLED_CANDIDATE_FIELDS);
      return candidate;
    }),
    usageMetadata: encodeUsageMetadata(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
  if (upstream) {
    passThroughFields(body, upstream, MODELLED_RESPONSE_FIELDS, 'usageMetadata');
  }
  return body;
}
