/** The vendors whose signatures caller protocols carry for them, as data: codecs read the list, name no vendor. */
import { GEMINI_CARRIED_SIGNATURE } from './gemini/carried-signature';
import { OPENAI_CARRIED_REASONING } from './openai/carried-reasoning';
import { OPENROUTER_CARRIED_REASONING } from './openrouter/carried-reasoning';

/**
 * A vendor that mints a signature its own API must get back with the part it came on, which
 * callers of other protocols have no field for.
 */
export interface SignatureVendor {
  /** Its key in `ProviderMetadata` (the provider's name); also tags a carried thinking signature (`<name>:`). */
  name: string;
  /** The field of its `ProviderMetadata` entry that holds the signature. */
  metadataKey: string;
  /** Marks the signature inside a tool-call id: `__<idTag>sig`. Letters and digits only. */
  idTag: string;
  /**
   * Where an OpenAI-compatible client of this vendor echoes the signature on a tool call:
   * `extra_content[key][field]`. Default: none.
   */
  openAIExtraContent?: { key: string; field: string };
}

/** Every vendor whose signatures are carried. A new one is a new entry. */
export const CARRIED_SIGNATURE_VENDORS: readonly SignatureVendor[] = [
  GEMINI_CARRIED_SIGNATURE,
  OPENAI_CARRIED_REASONING,
  OPENROUTER_CARRIED_REASONING,
];
