/** How a Gemini thought signature is carried through caller protocols that have no field for it. */
import type { SignatureVendor } from '../carried-signatures';

/**
 * Gemini's entry: its `thoughtSignature` (kept in `providerMetadata.gemini.thoughtSignature`) rides
 * in tool-call ids as `__gemsig…` and in thinking signatures as `gemini:…`; Google's
 * OpenAI-compatible endpoint writes it as a tool call's `extra_content.google.thought_signature`.
 */
export const GEMINI_CARRIED_SIGNATURE: SignatureVendor = {
  name: 'gemini',
  metadataKey: 'thoughtSignature',
  idTag: 'gem',
  openAIExtraContent: { key: 'google', field: 'thought_signature' },
};
