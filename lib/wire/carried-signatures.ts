/** The vendors whose signatures caller protocols carry for them, as data: codecs read the list, name no vendor. */
import { GEMINI_CARRIED_SIGNATURE } from './gemini/carried-signature';
import { OPENAI_CARRIED_REASONING } from './openai/carried-reasoning';
import { REASONING_FIELD_CARRIED } from './openai/reasoning-field';
import { OPENROUTER_CARRIED_REASONING } from './openrouter/carried-reasoning';
import type { SignatureVendor } from './signature-vendor';

/**
 * Every vendor whose signatures are carried. A new one is a new entry. The learned reasoning field comes last: where a
 * part holds a vendor's signature too, the signature is what the caller must carry.
 */
export const CARRIED_SIGNATURE_VENDORS: readonly SignatureVendor[] = [
  GEMINI_CARRIED_SIGNATURE,
  OPENAI_CARRIED_REASONING,
  OPENROUTER_CARRIED_REASONING,
  REASONING_FIELD_CARRIED,
];
