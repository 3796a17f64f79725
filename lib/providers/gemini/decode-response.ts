/** A generateContent response → canonical GenerateResponse; its usageMetadata → canonical Usage. */
import type { Choice, ContentPart, GenerateResponse, ProviderMetadata, ToolCallPart, Usage } from '../../canonical';
import { isJsonObject } from '../../json';
import { extensionOf, modelledKeys, withChild, withGeminiExtension } from '../../wire/gemini/extensions';
import { malformedUpstream } from '../../upstream/malformed';
import { logProvider } from './log';
import { blockedPromptFinish, mapGeminiFinishReason } from './map-finish-reason';
import type { GeminiFunctionCall, GeminiPart, GeminiUsageMetadata, GenerateContentResponse } from './wire-types';

/**
 * Usage per protocols.md 5.3: input = prompt (cached included) + tool-use prompt; output =
 * candidates + thoughts (Gemini counts thinking apart from candidates); reasoning = thoughts;
 * cache reads = cached content.
 */
export function decodeGeminiUsage(metadata: GeminiUsageMetadata | undefined): Usage {
  const thoughts = metadata?.thoughtsTokenCount ?? 0;
  const usage: Usage = {
    inputTokens: (metadata?.promptTokenCount ?? 0) + (metadata?.toolUsePromptTokenCount ?? 0),
    outputTokens: (metadata?.candidatesTokenCount ?? 0) + thoughts,
  };
  if (thoughts > 0) usage.reasoningTokens = thoughts;
  if (metadata?.cachedContentTokenCount) usage.cacheReadTokens = metadata.cachedContentTokenCount;
  return usage;
}

/**
 * Mints ids for function calls that carry none: `call_<responseId>_<n>` (or `call_<n>`), counting
 * the calls of one response, so ids are stable for a response and differ between turns.
 */
export function callIdMinter(responseId: string | undefined): () => string {
  const prefix = responseId ? `call_${responseId.replace(/[^A-Za-z0-9_-]/g, '_')}_` : 'call_';
  let count = 0;
  return () => `${prefix}${count++}`;
}

/** `{gemini: {thoughtSignature?, functionCallId?}}`, or nothing when there is neither. */
export function geminiMetadata(
  signature: string | undefined,
  functionCallId?: string,
): { providerMetadata?: ProviderMetadata } {
  const gemini: Record<string, unknown> = {};
  if (signature) gemini.thoughtSignature = signature;
  if (functionCallId) gemini.functionCallId = functionCallId;
  return Object.keys(gemini).length > 0 ? { providerMetadata: { gemini } } : {};
}

/**
 * A function call as a canonical tool call: the upstream id (remembered as Gemini's) or a minted one; args as JSON
 * text.
 */
export function decodeFunctionCall(
  call: GeminiFunctionCall,
  signature: string | undefined,
  mintId: () => string,
): ToolCallPart {
  const id = call.id || mintId();
  return {
    type: 'tool-call',
    id,
    name: call.name ?? '',
    arguments: JSON.stringify(call.args ?? {}),
    ...geminiMetadata(signature, call.id || undefined),
  };
}

/**
 * One response part; parts with no canonical equivalent (executableCode, codeExecutionResult, …) are dropped with a
 * debug line.
 */
function decodePart(part: GeminiPart, mintId: () => string): ContentPart | undefined {
  const signature = part.thoughtSignature;
  if (part.functionCall) return decodeFunctionCall(part.functionCall, signature, mintId);
  if (typeof part.text === 'string') {
    return part.thought === true
      ? { type: 'reasoning', text: part.text, ...geminiMetadata(signature) }
      : { type: 'text', text: part.text, ...geminiMetadata(signature) };
  }
  if (part.inlineData?.data !== undefined) {
    const mediaType = part.inlineData.mimeType ?? 'application/octet-stream';
    const source = { kind: 'base64' as const, mediaType, data: part.inlineData.data };
    return mediaType.startsWith('image/')
      ? { type: 'image', source, ...geminiMetadata(signature) }
      : { type: 'file', source, ...geminiMetadata(signature) };
  }
  if (part.fileData?.fileUri) {
    const source = {
      kind: 'url' as const,
      url: part.fileData.fileUri,
      ...(part.fileData.mimeType ? { mediaType: part.fileData.mimeType } : {}),
    };
    return part.fileData.mimeType?.startsWith('image/')
      ? { type: 'image', source, ...geminiMetadata(signature) }
      : { type: 'file', source, ...geminiMetadata(signature) };
  }
  if (signature) return { type: 'text', text: '', ...geminiMetadata(signature) };
  logProvider(
    'gemini: dropped a response part with %s (no canonical equivalent)',
    Object.keys(part).join(', ') || 'no fields',
  );
  return undefined;
}

/** The parts of one candidate, in order. */
function decodeParts(parts: readonly GeminiPart[] | undefined, mintId: () => string): ContentPart[] {
  return (parts ?? []).flatMap((part) => decodePart(part, mintId) ?? []);
}

/**
 * What a response (or a streamed chunk of one) lacks, or undefined when it is well formed:
 * `candidates`, when present, an array of objects, each with a `content` object (whose `parts`,
 * when present, are an array of objects) or a `finishReason`. Without candidates a response must
 * say why (`promptFeedback`) or, streamed, carry `usageMetadata` (`candidatesRequired` false).
 */
export function responseFault(body: GenerateContentResponse, candidatesRequired: boolean): string | undefined {
  const candidates: unknown = body.candidates;
  if (candidates !== undefined && !Array.isArray(candidates)) return 'candidates that are not an array';
  if (!Array.isArray(candidates) || candidates.length === 0) {
    if (isJsonObject(body.promptFeedback)) return undefined;
    return !candidatesRequired && isJsonObject(body.usageMetadata) ? undefined : 'no candidates';
  }
  for (const candidate of candidates as unknown[]) {
    if (!isJsonObject(candidate)) return 'a candidate that is not an object';
    const content = candidate.content;
    if (content === undefined || content === null) {
      if (typeof candidate.finishReason !== 'string') return 'a candidate without content';
    } else if (
      !isJsonObject(content) ||
      (content.parts !== undefined && !(Array.isArray(content.parts) && content.parts.every(isJsonObject)))
    ) {
      return 'a candidate whose content is malformed';
    }
  }
  return undefined;
}

const RESPONSE_KEYS = modelledKeys(['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
const CANDIDATE_KEYS = modelledKeys(['content', 'finishReason', 'index']);
/**
 * The usage figures the canonical usage models; `toolUsePromptTokenCount` (folded into the input) rides along, so a
 * Gemini caller gets the prompt count as sent.
 */
const USAGE_KEYS = modelledKeys([
  'promptTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'cachedContentTokenCount',
  'totalTokenCount',
]);

/** The answer's unmodelled fields (`promptFeedback`, usage details, …) for `extensions.gemini`. */
function responseExtension(body: GenerateContentResponse) {
  const usage = isJsonObject(body.usageMetadata) ? extensionOf(body.usageMetadata, USAGE_KEYS) : undefined;
  return withGeminiExtension(
    withChild(extensionOf(body as Record<string, unknown>, RESPONSE_KEYS), 'usageMetadata', usage),
  );
}

/**
 * Decodes the response: each candidate is a choice; a prompt blocked before generation (no
 * candidates, `promptFeedback.blockReason`) is one empty choice finished by the content filter.
 * A malformed body ({@link responseFault}) is a 502 `upstream_malformed`. What the canonical
 * response does not model goes to `extensions.gemini`: the response's fields (`promptFeedback`, …)
 * with usage's (`promptTokensDetails`, `toolUsePromptTokenCount`, …), and each candidate's
 * (`safetyRatings`, `citationMetadata`, `groundingMetadata`, `avgLogprobs`, …) on its choice.
 */
export function decodeGenerateContentResponse(
  body: GenerateContentResponse,
  fallbackModel: string,
  upstream: string,
): GenerateResponse {
  if (!isJsonObject(body as unknown)) throw malformedUpstream(upstream, 'a response that is not a JSON object');
  const fault = responseFault(body, true);
  if (fault) throw malformedUpstream(upstream, `a response with ${fault}`);
  const mintId = callIdMinter(body.responseId);
  let choices: Choice[];
  if (Array.isArray(body.candidates) && body.candidates.length > 0) {
    choices = body.candidates.map((candidate, position) => {
      const content = decodeParts(candidate.content?.parts, mintId);
      const finishReason = mapGeminiFinishReason(
        candidate.finishReason,
        content.some((part) => part.type === 'tool-call'),
      );
      return {
        index: candidate.index ?? position,
        content,
        finishReason,
        ...withGeminiExtension(extensionOf(candidate as Record<string, unknown>, CANDIDATE_KEYS)),
      };
    });
  } else if (body.promptFeedback?.blockReason) {
    choices = [{ index: 0, content: [], finishReason: blockedPromptFinish(body.promptFeedback.blockReason) }];
  } else {
    throw malformedUpstream(upstream, 'a response with no candidates');
  }
  return {
    id: body.responseId ?? '',
    model: body.modelVersion ?? fallbackModel,
    created: Math.floor(Date.now() / 1000),
    choices,
    usage: decodeGeminiUsage(body.usageMetadata),
    ...responseExtension(body),
  };
}
