/** Gemini thought signatures that an OpenAI caller echoes back: read them from a request, and clean them out of it. */
import { splitToolId } from '../shared/signature-carrier';
import type { ChatCompletionBody } from './schema';
import { isJsonObject, type JsonObject } from '../../json';

type RawMessage = ChatCompletionBody['messages'][number];

/** `extra_content.google.thought_signature` of a tool call, as Google's OpenAI-compatible endpoint writes it. */
function extraContentSignature(call: JsonObject): string | undefined {
  const extra = call.extra_content;
  const google = isJsonObject(extra) ? extra.google : undefined;
  const signature = isJsonObject(google) ? google.thought_signature : undefined;
  return typeof signature === 'string' && signature.length > 0 ? signature : undefined;
}

/**
 * A tool call's id without the gateway's signature carrier, and the Gemini signature it came
 * with: from the id (see `carrySignatureInToolId`), else from `extra_content.google.thought_signature`.
 */
export function toolCallSignature(id: string, call: JsonObject): { id: string; signature?: string } {
  const split = splitToolId(id);
  const signature = split.signature ?? extraContentSignature(call);
  return signature ? { id: split.id, signature } : { id: split.id };
}

/** A tool call without its carriers: the clean id, `extra_content.google` removed (and `extra_content` when it held nothing else). */
function cleanToolCall(call: unknown): unknown {
  if (!isJsonObject(call)) return call;
  const { extra_content: extra, ...rest } = call;
  const cleaned: JsonObject = typeof call.id === 'string' ? { ...rest, id: splitToolId(call.id).id } : { ...rest };
  if (isJsonObject(extra)) {
    const { google: _google, ...others } = extra;
    if (Object.keys(others).length > 0) cleaned.extra_content = others;
  } else if (extra !== undefined) {
    cleaned.extra_content = extra;
  }
  return cleaned;
}

function idCarries(id: unknown): boolean {
  return typeof id === 'string' && splitToolId(id).signature !== undefined;
}

function toolCallCarries(call: unknown): boolean {
  return isJsonObject(call) && (idCarries(call.id) || (isJsonObject(call.extra_content) && call.extra_content.google !== undefined));
}

function carriesSignature(message: RawMessage): boolean {
  return idCarries(message.tool_call_id) || (Array.isArray(message.tool_calls) && message.tool_calls.some(toolCallCarries));
}

function cleanMessage(message: RawMessage): RawMessage {
  if (!carriesSignature(message)) return message;
  const cleaned: RawMessage = { ...message };
  if (typeof message.tool_call_id === 'string') cleaned.tool_call_id = splitToolId(message.tool_call_id).id;
  if (Array.isArray(message.tool_calls)) cleaned.tool_calls = message.tool_calls.map(cleanToolCall);
  return cleaned;
}

/**
 * The body as another vendor may see it (same-protocol pass-through forwards it): no Gemini
 * signature in tool-call ids or `extra_content.google`. The body itself when it carries none.
 */
export function withoutSignatureCarriers(body: ChatCompletionBody): ChatCompletionBody {
  if (!body.messages.some(carriesSignature)) return body;
  return { ...body, messages: body.messages.map(cleanMessage) };
}
