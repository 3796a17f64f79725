/**
 * Carries vendor signatures through protocols that have no field for them: inside tool-call ids,
 * thinking-block signatures and (another vendor's, for a Gemini caller) Gemini thought signatures. Which vendors, and how each is marked, is data
 * (`lib/wire/carried-signatures.ts`); nothing here names one.
 */
import createDebug from 'debug';
import type { ProviderMetadata } from '../../canonical';
import { CARRIED_SIGNATURE_VENDORS } from '../../wire/carried-signatures';
import type { SignatureVendor } from '../../wire/signature-vendor';

const log = createDebug('rosetta:codec');

/** A signature, and the vendor (its `ProviderMetadata` key) that minted it and alone may see it again. */
export interface CarriedSignature {
  vendor: string;
  signature: string;
}

/**
 * Marks the start of a signature carried inside a tool-call id: `<id>__<tag>sig<mode>_<payload>`,
 * `<tag>` the vendor's `idTag`. `<mode>` is `0`, `1` or `2` when the signature is standard base64
 * (the payload is that base64 with `+` → `-`, `/` → `_` and its `mode` trailing `=` removed), or
 * `u` for any other string (the payload is the base64url of its UTF-8 bytes, unpadded). Either way
 * the id keeps to `[A-Za-z0-9_-]` when `<id>` does, which Anthropic requires of `tool_use.id`.
 */
export function toolIdMarker(vendor: SignatureVendor): string {
  return `__${vendor.idTag}sig`;
}

const MARKED_VENDORS = CARRIED_SIGNATURE_VENDORS.map((vendor) => ({
  vendor,
  marker: toolIdMarker(vendor),
  thinkingPrefix: `${vendor.name}:`,
}));

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;

function vendorNamed(name: string) {
  return MARKED_VENDORS.find((entry) => entry.vendor.name === name);
}

/** The signature a part's metadata holds for a carried vendor (the first listed that has one). */
export function carriedSignatureOf(metadata: ProviderMetadata | undefined): CarriedSignature | undefined {
  if (metadata === undefined) return undefined;
  for (const { vendor } of MARKED_VENDORS) {
    const value = metadata[vendor.name]?.[vendor.metadataKey];
    if (typeof value === 'string' && value.length > 0) return { vendor: vendor.name, signature: value };
  }
  return undefined;
}

/** `{providerMetadata: {<vendor>: {<its metadata key>: signature}}}`, or nothing without a signature. */
export function signatureMetadata(carried: CarriedSignature | undefined): { providerMetadata?: ProviderMetadata } {
  const entry = carried && vendorNamed(carried.vendor);
  return entry ? { providerMetadata: { [entry.vendor.name]: { [entry.vendor.metadataKey]: carried!.signature } } } : {};
}

function encodePayload(signature: string): string {
  if (STANDARD_BASE64.test(signature)) {
    const unpadded = signature.replace(/=+$/, '');
    return `${signature.length - unpadded.length}_${unpadded.replace(/\+/g, '-').replace(/\//g, '_')}`;
  }
  return `u_${Buffer.from(signature, 'utf8').toString('base64url')}`;
}

function decodePayload(mode: string, payload: string): string | undefined {
  if (!URL_SAFE.test(payload)) return undefined;
  if (mode === 'u') {
    const text = Buffer.from(payload, 'base64url').toString('utf8');
    return text.length > 0 && Buffer.from(text, 'utf8').toString('base64url') === payload ? text : undefined;
  }
  const padding = Number(mode);
  if (!(padding >= 0 && padding <= 2)) return undefined;
  return payload.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat(padding);
}

/**
 * The id a caller sees for a tool call that carries a signature (see {@link toolIdMarker}). Without
 * a signature, for an empty id, or when the id already holds a marker (it could not be split back
 * exactly), the id is returned unchanged.
 */
export function carrySignatureInToolId(id: string, carried: CarriedSignature | undefined): string {
  const entry = carried && vendorNamed(carried.vendor);
  if (!entry || id.length === 0) return id;
  const held = MARKED_VENDORS.find(({ marker }) => id.includes(marker));
  if (held) {
    log('tool call %s: its id already holds %s; its %s signature is not carried', id, held.marker, entry.vendor.name);
    return id;
  }
  return `${id}${entry.marker}${encodePayload(carried!.signature)}`;
}

/** A caller's tool-call id split into the id the gateway minted and the signature it carries (if any). */
export function splitToolId(id: string): { id: string; carried?: CarriedSignature } {
  for (const { vendor, marker } of MARKED_VENDORS) {
    const at = id.indexOf(marker);
    if (at <= 0) continue;
    const rest = id.slice(at + marker.length);
    const signature = rest[1] === '_' ? decodePayload(rest[0]!, rest.slice(2)) : undefined;
    return signature ? { id: id.slice(0, at), carried: { vendor: vendor.name, signature } } : { id };
  }
  return { id };
}

/** The thinking-block signature that carries a vendor's signature: `<vendor>:<signature>`. */
export function carrySignatureInThinking(carried: CarriedSignature): string {
  return `${carried.vendor}:${carried.signature}`;
}

/**
 * The vendor signature a thinking-block signature carries, or undefined when it is not tagged
 * `<vendor>:` for a carried vendor (an Anthropic signature, which is base64 and has no `:`).
 */
export function signatureFromThinking(value: string): CarriedSignature | undefined {
  for (const { vendor, thinkingPrefix } of MARKED_VENDORS) {
    if (value.startsWith(thinkingPrefix) && value.length > thinkingPrefix.length) {
      return { vendor: vendor.name, signature: value.slice(thinkingPrefix.length) };
    }
  }
  return undefined;
}

/** Tags a vendor signature inside a Gemini thought signature (before it is base64-encoded). */
const THOUGHT_TAG = 'rosetta:';

/**
 * The Gemini `thoughtSignature` that carries another vendor's signature to a Gemini caller: the base64 of
 * `rosetta:<vendor>:<signature>`, since Gemini clients hold thought signatures as bytes (base64 in JSON), and the
 * google-genai SDKs would refuse or alter a string that is not base64.
 */
export function carrySignatureInThought(carried: CarriedSignature): string {
  return Buffer.from(THOUGHT_TAG + carrySignatureInThinking(carried), 'utf8').toString('base64');
}

/**
 * The vendor signature a Gemini `thoughtSignature` carries (see {@link carrySignatureInThought}), or undefined for
 * any other (Gemini's own, binary under its base64).
 */
export function signatureFromThought(value: string): CarriedSignature | undefined {
  if (!STANDARD_BASE64.test(value)) return undefined;
  const text = Buffer.from(value, 'base64').toString('utf8');
  return text.startsWith(THOUGHT_TAG) ? signatureFromThinking(text.slice(THOUGHT_TAG.length)) : undefined;
}
