/**
 * How an OpenAI Responses reasoning item (its id and `encrypted_content`) is carried through caller
 * protocols, so a stateless upstream (`store: false`) gets its reasoning back in a tool loop.
 */
import type { SignatureVendor } from '../signature-vendor';

/** The `ProviderMetadata` key of OpenAI's reasoning items. */
export const OPENAI_METADATA = 'openai';

/**
 * OpenAI's entry: the reasoning items an answer carried, packed by {@link packReasoning} into
 * `providerMetadata.openai.reasoning` (on the reasoning part, and on the first tool call after it,
 * since a chat-completions caller sends back only the call); it rides in tool-call ids as
 * `__oaisig…` and in thinking signatures and `encrypted_content` as `openai:…`.
 */
export const OPENAI_CARRIED_REASONING: SignatureVendor = {
  name: OPENAI_METADATA,
  metadataKey: 'reasoning',
  idTag: 'oai',
};

/**
 * One reasoning item as the upstream needs it back: its id (may be empty) and its `encrypted_content` (absent on a
 * server that keeps state).
 */
export interface CarriedReasoningItem {
  id: string;
  encryptedContent?: string;
}

/**
 * The items as one string: each `<id> <encrypted_content>` (or just `<id>`), one a line. Ids and
 * encrypted content are base64-like tokens, holding neither a space nor a newline.
 */
export function packReasoning(items: readonly CarriedReasoningItem[]): string {
  return items
    .map((item) => (item.encryptedContent === undefined ? item.id : `${item.id} ${item.encryptedContent}`))
    .join('\n');
}

/** The items a packed string holds (see {@link packReasoning}); blank lines skipped. */
export function unpackReasoning(packed: string): CarriedReasoningItem[] {
  const items: CarriedReasoningItem[] = [];
  for (const line of packed.split('\n')) {
    if (line.length === 0) continue;
    const space = line.indexOf(' ');
    items.push(space < 0 ? { id: line } : { id: line.slice(0, space), encryptedContent: line.slice(space + 1) });
  }
  return items;
}
