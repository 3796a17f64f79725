/** Vendor signatures that an OpenAI caller echoes back on tool calls: read them, and what is left of their carriers. */
import { type CarriedSignature, splitToolId } from '../shared/signature-carrier';
import { isJsonObject, type JsonObject } from '../../json';
import { CARRIED_SIGNATURE_VENDORS } from '../../wire/carried-signatures';

/** Where a vendor's OpenAI-compatible clients echo its signature on a tool call: `extra_content[key][field]`. */
const EXTRA_CONTENT_CARRIERS = CARRIED_SIGNATURE_VENDORS.flatMap((vendor) =>
  vendor.openAIExtraContent ? [{ vendor: vendor.name, ...vendor.openAIExtraContent }] : [],
);

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

/**
 * A tool call's `extra_content` without the vendors' signature entries (which travel as the call's
 * provider metadata, to their vendor alone), or undefined when nothing else is in it.
 */
export function extraContentWithoutCarriers(extra: unknown): unknown {
  if (!isJsonObject(extra)) return extra;
  if (!EXTRA_CONTENT_CARRIERS.some(({ key }) => extra[key] !== undefined)) return extra;
  const others = { ...extra };
  for (const { key } of EXTRA_CONTENT_CARRIERS) delete others[key];
  return Object.keys(others).length > 0 ? others : undefined;
}
