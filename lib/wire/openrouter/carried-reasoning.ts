/**
 * How OpenRouter's `reasoning_details` (the reasoning blocks it normalizes from every vendor behind it, signed,
 * summarized or encrypted) are kept and carried through caller protocols, so they reach OpenRouter again unchanged.
 */
import type { SignatureVendor } from '../signature-vendor';

/** The `ProviderMetadata` key of OpenRouter's reasoning blocks. */
export const OPENROUTER_METADATA = 'openrouter';

/**
 * OpenRouter's entry: an answer's `reasoning_details` array, as JSON text, in
 * `providerMetadata.openrouter.reasoningDetails` (on the reasoning part, and on the first tool call after it, since a
 * chat-completions caller sends back only the call); it rides in tool-call ids as `__orrsig…` and in thinking
 * signatures as `openrouter:…`.
 */
export const OPENROUTER_CARRIED_REASONING: SignatureVendor = {
  name: OPENROUTER_METADATA,
  metadataKey: 'reasoningDetails',
  idTag: 'orr',
};

/** One `reasoning_details` item (`reasoning.text`, `reasoning.summary`, `reasoning.encrypted`, …) as OpenRouter sent it. */
export type ReasoningDetail = Record<string, unknown>;

/** The items as the metadata keeps them: their JSON text. */
export function packReasoningDetails(details: readonly ReasoningDetail[]): string {
  return JSON.stringify(details);
}

/** The items a packed string holds; anything but a JSON array of objects gives none. */
export function unpackReasoningDetails(packed: string): ReasoningDetail[] {
  try {
    const parsed: unknown = JSON.parse(packed);
    return Array.isArray(parsed)
      ? parsed.filter(
          (item): item is ReasoningDetail => typeof item === 'object' && item !== null && !Array.isArray(item),
        )
      : [];
  } catch {
    return [];
  }
}
