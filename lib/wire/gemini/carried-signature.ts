/** How a Gemini thought signature is carried through caller protocols that have no field for it. */
import type { SignatureVendor } from '../signature-vendor';

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

/**
 * Google's documented placeholder thought signature, for a function call Gemini did not sign (another vendor's turns,
 * hand-built transcripts), on the native API and on its OpenAI-compatible endpoint alike. Whether Google keeps
 * accepting it long-term is unverified (protocols.md 4.9).
 */
export const GEMINI_PLACEHOLDER_SIGNATURE = 'skip_thought_signature_validator';
