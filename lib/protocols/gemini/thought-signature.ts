/**
 * A Gemini caller's `thoughtSignature`: Gemini's own as it came, or another vendor's carried in it (see
 * `carrySignatureInThought`), so a Gemini caller's tool loop brings back whatever signature the upstream needs.
 */
import type { ProviderMetadata } from '../../canonical';
import {
  carriedSignatureOf,
  carrySignatureInThought,
  signatureFromThought,
  signatureMetadata,
} from '../shared/signature-carrier';

/** The `thoughtSignature` of a part with this metadata: Gemini's own, else another vendor's carried, else none. */
export function thoughtSignatureOf(metadata: ProviderMetadata | undefined): { thoughtSignature?: string } {
  const own = metadata?.gemini?.thoughtSignature;
  if (typeof own === 'string') return { thoughtSignature: own };
  const carried = carriedSignatureOf(metadata);
  return carried ? { thoughtSignature: carrySignatureInThought(carried) } : {};
}

/**
 * A caller's `thoughtSignature` (and a function call's own id, which Gemini wants back) as metadata: another vendor's
 * carried signature under that vendor, Gemini's own under `gemini`; nothing when there is neither.
 */
export function thoughtSignatureMetadata(
  signature: string | undefined,
  functionCallId?: string,
): { providerMetadata?: ProviderMetadata } {
  const carried = signature ? signatureFromThought(signature) : undefined;
  const own = carried ? undefined : signature;
  const gemini = { ...(own ? { thoughtSignature: own } : {}), ...(functionCallId ? { functionCallId } : {}) };
  const metadata: ProviderMetadata = {
    ...signatureMetadata(carried).providerMetadata,
    ...(Object.keys(gemini).length > 0 ? { gemini } : {}),
  };
  return Object.keys(metadata).length > 0 ? { providerMetadata: metadata } : {};
}
