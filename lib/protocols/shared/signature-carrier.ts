/** Carries Gemini thought signatures through protocols that have no field for them: inside tool-call ids and thinking-block signatures. */
import createDebug from 'debug';
import type { ProviderMetadata } from '../../canonical';

const log = createDebug('rosetta:codec');

/**
 * Marks the start of a signature carried inside a tool-call id: `<id>__gemsig<mode>_<payload>`.
 * `<mode>` is `0`, `1` or `2` when the signature is standard base64 (the payload is that base64
 * with `+` → `-`, `/` → `_` and its `mode` trailing `=` removed), or `u` for any other string (the
 * payload is the base64url of its UTF-8 bytes, unpadded). Either way the id keeps to
 * `[A-Za-z0-9_-]` when `<id>` does, which Anthropic requires of `tool_use.id`.
 */
export const TOOL_ID_MARKER = '__gemsig';

/** Prefix of an Anthropic thinking-block `signature` that is really a Gemini thought signature. */
export const GEMINI_THINKING_PREFIX = 'gemini:';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;

/** The Gemini `thoughtSignature` in a part's metadata (never another vendor's). */
export function geminiSignatureOf(metadata: ProviderMetadata | undefined): string | undefined {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `{providerMetadata: {gemini: {thoughtSignature}}}`, or nothing without a signature. */
export function geminiSignatureMetadata(signature: string | undefined): { providerMetadata?: ProviderMetadata } {
  return signature ? { providerMetadata: { gemini: { thoughtSignature: signature } } } : {};
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
 * The id a caller sees for a tool call that carries a Gemini signature: `<id>__gemsig<mode>_<payload>`
 * (see {@link TOOL_ID_MARKER}). Without a signature, for an empty id, or when the id already holds
 * the marker (it could not be split back exactly), the id is returned unchanged.
 */
export function carrySignatureInToolId(id: string, signature: string | undefined): string {
  if (!signature || id.length === 0) return id;
  if (id.includes(TOOL_ID_MARKER)) {
    log('tool call %s: its id already holds %s; its Gemini signature is not carried', id, TOOL_ID_MARKER);
    return id;
  }
  return `${id}${TOOL_ID_MARKER}${encodePayload(signature)}`;
}

/** A caller's tool-call id split into the id the gateway minted and the Gemini signature it carries (none when it carries none). */
export function splitToolId(id: string): { id: string; signature?: string } {
  const at = id.indexOf(TOOL_ID_MARKER);
  if (at <= 0) return { id };
  const rest = id.slice(at + TOOL_ID_MARKER.length);
  const signature = rest[1] === '_' ? decodePayload(rest[0]!, rest.slice(2)) : undefined;
  return signature ? { id: id.slice(0, at), signature } : { id };
}

/** The thinking-block signature that carries a Gemini signature: `gemini:<signature>`. */
export function carrySignatureInThinking(signature: string): string {
  return `${GEMINI_THINKING_PREFIX}${signature}`;
}

/** The Gemini signature a thinking-block signature carries, or undefined when it is not `gemini:`-tagged (an Anthropic one). */
export function signatureFromThinking(value: string): string | undefined {
  return value.startsWith(GEMINI_THINKING_PREFIX) && value.length > GEMINI_THINKING_PREFIX.length ? value.slice(GEMINI_THINKING_PREFIX.length) : undefined;
}
