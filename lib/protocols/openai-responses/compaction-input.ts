/**
 * A compaction item in a Responses request's input (see `wire/openai/compaction.ts`): the gateway's own becomes the
 * summary it holds, as a user turn the model reads as the record of the conversation so far.
 */
import type { TextPart } from '../../canonical';
import type { JsonObject } from '../../json';
import { gatewaySummary } from '../../wire/openai/compaction';
import { invalidField } from '../shared/validate';

/** What stands before the summary, so the model knows what the text is and whose it is. */
const SUMMARY_HEADING =
  'The earlier part of this conversation was compacted. This summary of it, written by a model, ' +
  'replaces it; continue the work from where it leaves off:\n\n';

/**
 * The user text a compaction item of the gateway's stands for, or undefined for an upstream's own (which only the
 * upstream that made it reads). A `context_compaction` without content (a marker Codex may keep) is not the gateway's.
 */
export function compactionMessage(item: JsonObject, at: string): TextPart | undefined {
  const content = item.encrypted_content;
  if (content === undefined || content === null) {
    if (item.type === 'context_compaction') return undefined;
    invalidField(`${at}.encrypted_content`, 'is required');
  }
  if (typeof content !== 'string') invalidField(`${at}.encrypted_content`, 'must be a string');
  const summary = gatewaySummary(item);
  return summary === undefined ? undefined : { type: 'text', text: SUMMARY_HEADING + summary };
}
