/** Vendor signatures that an OpenAI caller echoes back: read them from a request, and clean them out of it. */
import { type CarriedSignature, splitToolId } from '../shared/signature-carrier';
import type { ChatCompletionBody } from './schema';
import { isJsonObject, type JsonObject } from '../../json';
import { CARRIED_SIGNATURE_VENDORS } from '../../wire/carried-signatures';

/** Where a vendor's OpenAI-compatible clients echo its signature on a tool call: `extra_content[key][field]`. */
const EXTRA_CONTENT_CARRIERS = CARRIED_SIGNATURE_VENDORS.flatMap((vendor) =>
  vendor.openAIExtraContent ? [{ vendor: vendor.name, ...vendor.openAIExtraContent }] : [],
);

type RawMessage = ChatCompletionBody['messages'][number];

/** The signature a tool call's `extra_content` holds, as a vendor's OpenAI-compatible endpoint writes it. */
function extraContentSignature(call: JsonObject): CarriedSignature | undefined {
  const extra = call.extra_content;
  if (!isJsonObject(extra)) return undefined;
  for (const { vendor, key, field } of EXTRA_CONTENT_CARRIERS) {
    const entry = extra[key];
    const signature = isJsonObject(entry) ? entry[field] : undefined;
    if (typeof signature === 'string' && signature.length > 0) return { vendor, signature };
  }
  return undefined;
}

/**
 * A tool call's id without the gateway's signature carrier, and the signature it came with: from
 * the id (see `carrySignatureInToolId`), else from its `extra_content` (Google's
 * `extra_content.google.thought_signature`).
 */
export function toolCallSignature(id: string, call: JsonObject): { id: string; carried?: CarriedSignature } {
  const split = splitToolId(id);
  const carried = split.carried ?? extraContentSignature(call);
  return carried ? { id: split.id, carried } : { id: split.id };
}

/** A tool call without its carriers: the clean id, the vendors' `extra_content` entries removed (and `extra_content` when it held nothing else). */
function cleanToolCall(call: unknown): unknown {
  if (!isJsonObject(call)) return call;
  const { extra_content: extra, ...rest } = call;
  const cleaned: JsonObject = typeof call.id === 'string' ? { ...rest, id: splitToolId(call.id).id } : { ...rest };
  if (isJsonObject(extra)) {
    const others = { ...extra };
    for (const { key } of EXTRA_CONTENT_CARRIERS) delete others[key];
    if (Object.keys(others).length > 0) cleaned.extra_content = others;
  } else if (extra !== undefined) {
    cleaned.extra_content = extra;
  }
  return cleaned;
}

function idCarries(id: unknown): boolean {
  return typeof id === 'string' && splitToolId(id).carried !== undefined;
}

function toolCallCarries(call: unknown): boolean {
  if (!isJsonObject(call)) return false;
  const extra = call.extra_content;
  return idCarries(call.id) || (isJsonObject(extra) && EXTRA_CONTENT_CARRIERS.some(({ key }) => extra[key] !== undefined));
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
 * The body as another vendor may see it (same-protocol pass-through forwards it): no carried
 * signature in tool-call ids or `extra_content`. The body itself when it carries none.
 */
export function withoutSignatureCarriers(body: ChatCompletionBody): ChatCompletionBody {
  if (!body.messages.some(carriesSignature)) return body;
  return { ...body, messages: body.messages.map(cleanMessage) };
}
