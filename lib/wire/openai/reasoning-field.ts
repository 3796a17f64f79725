/**
 * Which field an OpenAI-compatible upstream answered its reasoning in (`reasoning_content` or `reasoning`), learned
 * from the answer and carried with the reasoning through caller protocols, so the next turn sends it back the same way
 * to that upstream, whatever its host (docs/translation.md, *Reasoning through OpenAI-compatible upstreams*).
 */
import type { SignatureVendor } from '../signature-vendor';

/** The plain-text reasoning fields of chat completions an upstream may answer in, and want back. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * The learned field's entry: `<field> <provider name>` in `providerMetadata['openai-compatible'].reasoningField` (on
 * the reasoning part, and on the first tool call after it when the field is not `reasoning_content`, the one a
 * chat-completions caller echoes the reasoning in); it rides in tool-call ids as `__rfdsig…` and in thinking
 * signatures and `encrypted_content` as `openai-compatible:…`. The provider name binds it to the upstream that
 * answered: another upstream never learns from it.
 */
export const REASONING_FIELD_CARRIED: SignatureVendor = {
  name: 'openai-compatible',
  metadataKey: 'reasoningField',
  idTag: 'rfd',
};

/** A learned field and the provider (by name) whose upstream answered in it. */
export interface LearnedReasoningField {
  field: ReasoningField;
  upstream: string;
}

/** The field and provider as the metadata keeps them: `<field> <provider name>`. */
export function packReasoningField(learned: LearnedReasoningField): string {
  return `${learned.field} ${learned.upstream}`;
}

/** What a packed string holds; anything but a known field, a space and a provider name gives undefined. */
export function unpackReasoningField(packed: unknown): LearnedReasoningField | undefined {
  if (typeof packed !== 'string') return undefined;
  const space = packed.indexOf(' ');
  const field = packed.slice(0, space);
  const upstream = packed.slice(space + 1);
  if (space <= 0 || upstream.length === 0) return undefined;
  return field === 'reasoning_content' || field === 'reasoning' ? { field, upstream } : undefined;
}
