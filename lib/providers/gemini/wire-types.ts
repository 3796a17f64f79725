/** The generateContent wire shapes the provider writes and reads (camelCase, as the API answers). */
import type { GeminiPartialArg } from './partial-args';

/** An `inlineData` payload: base64 data and its MIME type. */
export interface GeminiBlob {
  mimeType?: string;
  data?: string;
}

/** A `fileData` payload: a Files API URI (or another URL the API accepts). */
export interface GeminiFileData {
  fileUri?: string;
  mimeType?: string;
}

/**
 * A `functionCall`: complete arguments as an object; `id` is optional and often absent. Streamed in pieces when the
 * request set `streamFunctionCallArguments` (Vertex): `partialArgs`, and `willContinue` on every piece but the last
 * (./partial-args.ts).
 */
export interface GeminiFunctionCall {
  name?: string;
  args?: Record<string, unknown>;
  id?: string;
  partialArgs?: GeminiPartialArg[];
  willContinue?: boolean;
}

/** A `functionResponse`: output under `response.output` (or the object itself), failures under `response.error`. */
export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
  parts?: Array<{ inlineData?: GeminiBlob; fileData?: GeminiFileData }>;
}

/** One part: exactly one payload plus optional flags. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

/** One turn: Gemini has only `user` and `model` (absent: `user`, as a Gemini caller may send it). */
export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

/** `usageMetadata` of a response (cumulative on every streamed chunk). */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** One candidate of a response (index 0 unless `candidateCount` asked for more). */
export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

/** A GenerateContentResponse (also each event of an `alt=sse` stream), or an error body in a stream. */
export interface GenerateContentResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  error?: { code?: number; message?: string; status?: string };
}
