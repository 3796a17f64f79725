/** Canonical messages → Gemini `contents` (user/model turns) and `systemInstruction`. */
import { appendAll } from '../../arrays';
import type {
  ContentPart,
  GenerateRequest,
  ImagePart,
  MediaSource,
  Message,
  ProviderMetadata,
  ToolCallPart,
  ToolResultPart,
} from '../../canonical';
import { GatewayError } from '../../errors';
import { mediaUrlKind, type FetchedMedia, type MediaFetchRequest } from '../../upstream/fetch-media';
import { logProvider } from './log';
import {
  applyGeminiExtension,
  geminiExtension,
  type GeminiMessageExtension,
  type GeminiPartExtension,
} from '../../wire/gemini/extensions';
import type { JsonObject } from '../../json';
import { parseJsonObject } from './parse-json-object';
import type { GeminiContent, GeminiPart } from './wire-types';
import { hasGeminiId, type KnownCall, KnownCalls } from './call-order';
import { abortSignalOf, type CallSignal } from '../cancellation';

/** The Gemini `thoughtSignature` a part came with; other vendors' signatures are never read. */
function geminiSignature(metadata: ProviderMetadata | undefined): { thoughtSignature?: string } {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' && value.length > 0 ? { thoughtSignature: value } : {};
}

/**
 * A media source as a part: base64 → `inlineData`, URL → `fileData`. Gemini only takes its own
 * Files API URIs (and some public URLs) in `fileData`, so image URLs are normally inlined before
 * this runs (see {@link inlineImageUrls}); what is left here goes as `fileData`.
 */
function encodeMedia(source: MediaSource): GeminiPart {
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  return { fileData: { fileUri: source.url, ...(source.mediaType ? { mimeType: source.mediaType } : {}) } };
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** The `args` object of a call: its arguments parsed, `{}` when they are not a JSON object. */
function encodeFunctionCall(part: ToolCallPart): GeminiPart {
  const args = parseJsonObject(part.arguments);
  if (args === undefined && part.arguments.trim().length > 0)
    logProvider('gemini: tool call %s has arguments that are not a JSON object; sent as {}', part.id);
  return {
    functionCall: { ...(hasGeminiId(part) ? { id: part.id } : {}), name: part.name, args: args ?? {} },
    ...geminiSignature(part.providerMetadata),
  };
}

/**
 * `response`: the result's JSON object as is, else `{output: text}`; an error result is `{error: text}`,
 * or its JSON object as is when that has an `error` (as a Gemini caller's decodes).
 */
function encodeFunctionResponse(part: ToolResultPart, call: KnownCall | undefined, at: string): GeminiPart {
  const name = part.toolName ?? call?.name;
  if (!name) {
    throw new GatewayError(
      'invalid_request',
      `${at}: no earlier tool call has the id '${part.toolCallId}', and Gemini needs the function name of every tool result.`,
      { param: at },
    );
  }
  const text = textOf(part.content);
  const parsed = parseJsonObject(text);
  const response = part.isError
    ? parsed && 'error' in parsed
      ? parsed
      : { error: text }
    : (parsed ?? { output: text });
  const media = part.content.flatMap((inner) => (inner.type === 'image' ? [encodeMedia(inner.source)] : []));
  return {
    functionResponse: {
      ...(call?.geminiId ? { id: part.toolCallId } : {}),
      name,
      response,
      ...(media.length > 0 ? { parts: media } : {}),
    },
    ...geminiSignature(part.providerMetadata),
  };
}

/** A part as a Gemini caller sent it: its extension (unmodelled keys, snake_case spellings) applied. */
function withPartExtension(encoded: GeminiPart, part: ContentPart): GeminiPart {
  return applyGeminiExtension(encoded as unknown as JsonObject, geminiExtension(part)) as unknown as GeminiPart;
}

/** One part of a user or model turn; undefined when it is dropped. */
function encodePart(part: ContentPart, turn: 'user' | 'model', at: string): GeminiPart | undefined {
  const signature = geminiSignature(part.providerMetadata);
  const extension = geminiExtension<GeminiPartExtension>(part);
  switch (part.type) {
    case 'text':
      if (extension?.signatureOnly && part.text.length === 0 && signature.thoughtSignature) return { ...signature };
      return part.text.length > 0 || signature.thoughtSignature ? { text: part.text, ...signature } : undefined;
    case 'image':
    case 'file':
      return { ...encodeMedia(part.source), ...signature };
    case 'reasoning':
      if (turn === 'model' && (signature.thoughtSignature || extension?.thought))
        return { text: part.text, thought: true, ...signature };
      logProvider('gemini: dropped a reasoning part at %s (no Gemini thought signature)', at);
      return undefined;
    case 'tool-call':
      if (turn !== 'model')
        throw new GatewayError('invalid_request', `${at}: a tool call can only be sent in an assistant turn.`, {
          param: at,
        });
      return encodeFunctionCall(part);
    case 'tool-result':
      throw new GatewayError('invalid_request', `${at}: a tool result can only be sent in a tool message.`, {
        param: at,
      });
  }
}

/** A tool message's result as a `functionResponse` part, noted as the answer to its call when that is known. */
function encodeToolResult(part: ToolResultPart, calls: KnownCalls, at: string): GeminiPart {
  const call = calls.get(part.toolCallId);
  const encoded = withPartExtension(encodeFunctionResponse(part, call, at), part);
  if (call) calls.answered(encoded, call);
  return encoded;
}

/** The parts of one message, with the calls it makes recorded for the results that follow. */
function encodeMessageParts(message: Message, index: number, calls: KnownCalls): GeminiPart[] {
  const turn = message.role === 'assistant' ? 'model' : 'user';
  return message.content.flatMap((part, position) => {
    const at = `messages[${index}].content[${position}]`;
    if (part.type === 'tool-call') calls.called(part);
    if (part.type === 'tool-result' && message.role === 'tool') return [encodeToolResult(part, calls, at)];
    const encoded = encodePart(part, turn, at);
    return encoded ? [withPartExtension(encoded, part)] : [];
  });
}

/** A new content for a message, as the Gemini caller's content was (its extension: unmodelled keys, a missing role). */
function startContent(
  role: 'user' | 'model',
  parts: GeminiPart[],
  extension: GeminiMessageExtension | undefined,
): GeminiContent {
  if (!extension) return { role, parts };
  const content: GeminiContent = { role, parts };
  applyGeminiExtension(content as unknown as JsonObject, extension);
  if (extension.roleOmitted && role === 'user') delete content.role;
  return content;
}

/**
 * Every system message (wherever it stands) becomes a `systemInstruction` text part; user and
 * tool messages become `user` turns (tool results as `functionResponse` parts, named from the
 * result or else from the earlier call with its id), assistant messages `model` turns; adjacent
 * turns of one role are merged (unless a Gemini caller sent them apart), and turns left without
 * parts are dropped; within a turn, function responses follow the order of the calls they answer
 * (./call-order.ts). Each part, content and the system instruction gets its Gemini extension back.
 */
export function encodeContents(messages: readonly Message[]): {
  contents: GeminiContent[];
  systemInstruction?: JsonObject;
} {
  const system: JsonObject[] = [];
  let systemExtension: GeminiMessageExtension | undefined;
  const contents: GeminiContent[] = [];
  const calls = new KnownCalls();
  messages.forEach((message, index) => {
    const extension = geminiExtension<GeminiMessageExtension>(message);
    if (message.role === 'system') {
      systemExtension ??= extension;
      for (const part of message.content)
        if (part.type === 'text' && part.text.length > 0)
          system.push(applyGeminiExtension({ text: part.text }, geminiExtension(part)));
      return;
    }
    const parts = encodeMessageParts(message, index, calls);
    if (parts.length === 0) return;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = contents.at(-1);
    if (last && (last.role ?? 'user') === role && !extension?.separate) appendAll(last.parts, parts);
    else contents.push(startContent(role, parts, extension));
  });
  calls.putInCallOrder(contents);
  return {
    contents,
    ...(system.length > 0 ? { systemInstruction: applyGeminiExtension({ parts: system }, systemExtension) } : {}),
  };
}

/** Downloads one image (the provider passes its media fetcher's `fetch`). */
export type ImageDownloader = (request: MediaFetchRequest) => Promise<FetchedMedia>;

/**
 * An image by an http(s) URL that is not a Gemini Files API URI (nor a Gemini caller's own `fileData`): Gemini cannot
 * be trusted to fetch it.
 */
function needsInlining(part: ContentPart): part is ImagePart & { source: { kind: 'url' } } {
  return (
    part.type === 'image' &&
    part.source.kind === 'url' &&
    mediaUrlKind(part.source.url) === 'http' &&
    geminiExtension<GeminiPartExtension>(part)?.keepUri !== true
  );
}

/**
 * Every image given by an http(s) URL (in user turns and inside tool results) downloaded and put
 * inline, keeping its media type; Gemini Files API and `gs://` URIs stay URLs. Downloads run in
 * parallel (one per distinct URL); the first failure (a 400 naming the part) cancels the rest.
 * The messages are copied, never changed in place; without such images they are returned as they are.
 */
export async function inlineImageUrls(
  messages: readonly Message[],
  download: ImageDownloader,
  signal: CallSignal,
): Promise<readonly Message[]> {
  const wanted = new Map<string, { url: string; declaredType?: string; at: string }>();
  const keyOf = (part: ImagePart & { source: { kind: 'url' } }) => `${part.source.mediaType ?? ''} ${part.source.url}`;
  const note = (part: ContentPart, at: string) => {
    if (!needsInlining(part) || wanted.has(keyOf(part))) return;
    wanted.set(keyOf(part), {
      url: part.source.url,
      ...(part.source.mediaType ? { declaredType: part.source.mediaType } : {}),
      at,
    });
  };
  messages.forEach((message, index) => {
    message.content.forEach((part, position) => {
      const at = `messages[${index}].content[${position}]`;
      if (part.type !== 'tool-result') {
        note(part, at);
        return;
      }
      part.content.forEach((inner, innerPosition) => {
        note(inner, `${at}.content[${innerPosition}]`);
      });
    });
  });
  if (wanted.size === 0) return messages;
  const cancel = new AbortController();
  const combined = AbortSignal.any([abortSignalOf(signal), cancel.signal]);
  const fetched = new Map<string, MediaSource>();
  try {
    await Promise.all(
      [...wanted].map(async ([key, request]) => {
        const media = await download({ ...request, signal: combined });
        fetched.set(key, { kind: 'base64', mediaType: media.mediaType, data: media.data });
      }),
    );
  } catch (error) {
    cancel.abort();
    throw error;
  }
  const inline = <T extends ContentPart>(part: T): T =>
    needsInlining(part) ? { ...part, source: fetched.get(keyOf(part))! } : part;
  return messages.map((message) => ({
    ...message,
    content: message.content.map((part) =>
      part.type === 'tool-result' ? { ...part, content: part.content.map(inline) } : inline(part),
    ),
  }));
}

/**
 * The request with its image URLs inlined (see {@link inlineImageUrls}). A Gemini caller's
 * `fileData` parts (marked `keepUri` in their extension) keep their URI.
 */
export async function inlineRequestImageUrls(
  request: GenerateRequest,
  download: ImageDownloader,
  signal: CallSignal,
): Promise<GenerateRequest> {
  const messages = await inlineImageUrls(request.messages, download, signal);
  return messages === request.messages ? request : { ...request, messages: [...messages] };
}
