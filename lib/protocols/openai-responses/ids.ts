/** The ids of a Responses answer, all derived from the canonical response id: `resp_…` and one per output item. */

const KNOWN_PREFIX = /^(?:resp_|chatcmpl-|msg_|req_)/;

/** The id's stem: the canonical id without a protocol's prefix, in the characters ids use. */
export function idStem(id: string): string {
  return id.replace(KNOWN_PREFIX, '').replace(/[^A-Za-z0-9_-]/g, '') || '0';
}

/** The response id with the protocol's `resp_` prefix. */
export function responseId(id: string): string {
  return id.startsWith('resp_') ? id : `resp_${idStem(id)}`;
}

/** The id of output item `index` of kind `prefix` (`msg`, `rs`, `fc`, `ctc`). */
export function itemId(prefix: string, stem: string, index: number): string {
  return `${prefix}_${stem}_${index}`;
}
