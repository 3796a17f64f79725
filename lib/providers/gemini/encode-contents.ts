/** Canonical messages → Gemini `contents` (user/model turns) and `systemInstruction`. */
import type { ContentPart, MediaSource, Message, ProviderMetadata, ToolCallPart, ToolResultPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { logProvider } from './log';
import { parseJsonObject } from './parse-json-object';
import type { GeminiContent, GeminiPart } from './wire-types';

/** A tool call seen earlier in the history: its name, and whether its id was minted by Gemini (then it is sent back). */
interface KnownCall {
  name: string;
  geminiId: boolean;
}

/** The Gemini `thoughtSignature` a part came with; other vendors' signatures are never read. */
function geminiSignature(metadata: ProviderMetadata | undefined): { thoughtSignature?: string } {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' && value.length > 0 ? { thoughtSignature: value } : {};
}

/** Whether a tool call's id came from Gemini itself (recorded in its metadata when decoded), not synthesized. */
function hasGeminiId(part: ToolCallPart): boolean {
  return part.providerMetadata?.gemini?.functionCallId === part.id;
}

/**
 * A media source as a part: base64 → `inlineData`, URL → `fileData`. Gemini only takes its own
 * Files API URIs (and some public URLs) in `fileData`; downloading and inlining other URLs is not done here.
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
  if (args === undefined && part.arguments.trim().length > 0) logProvider('gemini: tool call %s has arguments that are not a JSON object; sent as {}', part.id);
  return { functionCall: { ...(hasGeminiId(part) ? { id: part.id } : {}), name: part.name, args: args ?? {} }, ...geminiSignature(part.providerMetadata) };
}

/** `response`: the result's JSON object as is, else `{output: text}`; an error result is `{error: text}`. */
function encodeFunctionResponse(part: ToolResultPart, call: KnownCall | undefined, at: string): GeminiPart {
  const name = part.toolName ?? call?.name;
  if (!name) {
    throw new GatewayError('invalid_request', `${at}: no earlier tool call has the id '${part.toolCallId}', and Gemini needs the function name of every tool result.`, { param: at });
  }
  const text = textOf(part.content);
  const response = part.isError ? { error: text } : (parseJsonObject(text) ?? { output: text });
  const media = part.content.flatMap((inner) => (inner.type === 'image' ? [encodeMedia(inner.source)] : []));
  return {
    functionResponse: { ...(call?.geminiId ? { id: part.toolCallId } : {}), name, response, ...(media.length > 0 ? { parts: media } : {}) },
    ...geminiSignature(part.providerMetadata),
  };
}

/** One part of a user or model turn; undefined when it is dropped. */
function encodePart(part: ContentPart, turn: 'user' | 'model', at: string): GeminiPart | undefined {
  const signature = geminiSignature(part.providerMetadata);
  switch (part.type) {
    case 'text':
      return part.text.length > 0 || signature.thoughtSignature ? { text: part.text, ...signature } : undefined;
    case 'image':
    case 'file':
      return { ...encodeMedia(part.source), ...signature };
    case 'reasoning':
      if (turn === 'model' && signature.thoughtSignature) return { text: part.text, thought: true, ...signature };
      logProvider('gemini: dropped a reasoning part at %s (no Gemini thought signature)', at);
      return undefined;
    case 'tool-call':
      if (turn !== 'model') throw new GatewayError('invalid_request', `${at}: a tool call can only be sent in an assistant turn.`, { param: at });
      return encodeFunctionCall(part);
    case 'tool-result':
      throw new GatewayError('invalid_request', `${at}: a tool result can only be sent in a tool message.`, { param: at });
  }
}

/** The parts of one message, with the calls it makes recorded for the results that follow. */
function encodeMessageParts(message: Message, index: number, calls: Map<string, KnownCall>): GeminiPart[] {
  const turn = message.role === 'assistant' ? 'model' : 'user';
  return message.content.flatMap((part, position) => {
    const at = `messages[${index}].content[${position}]`;
    if (part.type === 'tool-call') calls.set(part.id, { name: part.name, geminiId: hasGeminiId(part) });
    if (part.type === 'tool-result' && message.role === 'tool') return [encodeFunctionResponse(part, calls.get(part.toolCallId), at)];
    return encodePart(part, turn, at) ?? [];
  });
}

/**
 * Every system message (wherever it stands) becomes a `systemInstruction` text part; user and
 * tool messages become `user` turns (tool results as `functionResponse` parts, named from the
 * result or else from the earlier call with its id), assistant messages `model` turns; adjacent
 * turns of one role are merged, and turns left without parts are dropped.
 */
export function encodeContents(messages: readonly Message[]): { contents: GeminiContent[]; systemInstruction?: { parts: Array<{ text: string }> } } {
  const system: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  const calls = new Map<string, KnownCall>();
  messages.forEach((message, index) => {
    if (message.role === 'system') {
      for (const part of message.content) if (part.type === 'text' && part.text.length > 0) system.push({ text: part.text });
      return;
    }
    const parts = encodeMessageParts(message, index, calls);
    if (parts.length === 0) return;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });
  return { contents, ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}) };
}
