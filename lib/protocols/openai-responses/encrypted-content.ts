/**
 * Vendor signatures carried in a reasoning item's `encrypted_content`, the one field Responses
 * clients (Codex) echo back with reasoning: tagged by the vendor that minted them, so each returns
 * only to it. Anything untagged is another Responses server's own and rides in the part's extension.
 */
import type { ReasoningPart } from '../../canonical';
import {
  carriedSignatureOf,
  carrySignatureInThinking,
  signatureFromThinking,
  signatureMetadata,
} from '../shared/signature-carrier';
import { RESPONSES, responsesExtension } from '../../wire/openai/responses-extensions';

/** Tags a canonical `signature` (Anthropic's thinking signature: only the Anthropic provider reads it). */
const SIGNATURE_TAG = 'rosetta.signature:';
/** Tags a canonical `redactedData` (Anthropic's redacted thinking). */
const REDACTED_TAG = 'rosetta.redacted:';

/** The `encrypted_content` for a reasoning part, or undefined when it carries nothing. */
export function encryptedContentOf(
  part: Pick<ReasoningPart, 'signature' | 'redactedData' | 'providerMetadata' | 'extensions'>,
): string | undefined {
  const carried = carriedSignatureOf(part.providerMetadata);
  if (carried) return carrySignatureInThinking(carried);
  if (part.signature) return SIGNATURE_TAG + part.signature;
  if (part.redactedData) return REDACTED_TAG + part.redactedData;
  const own = responsesExtension(part.extensions)?.encrypted_content;
  return typeof own === 'string' ? own : undefined;
}

/** The canonical fields an `encrypted_content` stands for. */
export function fromEncryptedContent(
  value: string,
): Pick<ReasoningPart, 'signature' | 'redactedData' | 'providerMetadata' | 'extensions'> {
  if (value.startsWith(SIGNATURE_TAG)) return { signature: value.slice(SIGNATURE_TAG.length) };
  if (value.startsWith(REDACTED_TAG)) return { redactedData: value.slice(REDACTED_TAG.length) };
  const carried = signatureFromThinking(value);
  if (carried) return signatureMetadata(carried);
  return { extensions: { [RESPONSES]: { encrypted_content: value } } };
}
