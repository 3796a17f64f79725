/** The local text model `rosetta-echo`: a deterministic reply derived from the prompt, counted with a real tokenizer. */
import type { FinishReason, GenerateRequest, Message } from '../../canonical';
import { decodeTokens, encodeTokens } from '../../tokenizer';

/** What the local model says, before any stop sequence or output cap is applied. */
export function replyTo(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const texts = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const images = message.content.filter((part) => part.type === 'image').length;
    const said = texts.join('\n').trim();
    if (said.length > 0) return said;
    if (images > 0) return `(${images} image${images === 1 ? '' : 's'} and no text)`;
  }
  return '(no user message)';
}

/** The reply text, the tokens it spends, and why it ended. */
export interface LocalCompletion {
  text: string;
  tokens: number[];
  finishReason: FinishReason;
}

function cutAtStopSequence(text: string, stopSequences: readonly string[] | undefined): { text: string; stopSequence?: string } {
  let cut = -1;
  let matched: string | undefined;
  for (const sequence of stopSequences ?? []) {
    if (sequence.length === 0) continue;
    const at = text.indexOf(sequence);
    if (at !== -1 && (cut === -1 || at < cut)) [cut, matched] = [at, sequence];
  }
  return matched === undefined ? { text } : { text: text.slice(0, cut), stopSequence: matched };
}

/** Decodes a token prefix, dropping a trailing partial character. */
function decodePrefix(tokens: number[]): string {
  return decodeTokens(tokens).replace(/\uFFFD+$/u, '');
}

/**
 * Completes a request: the reply is the last user message's text, verbatim; it ends early at the
 * first stop sequence it contains (finish `stop`) or after `maxOutputTokens` tokens (finish `length`).
 */
export function complete(request: GenerateRequest, maxOutputTokens: number): LocalCompletion {
  const full = replyTo(request.messages);
  const { text, stopSequence } = cutAtStopSequence(full, request.stopSequences);
  const tokens = encodeTokens(text);
  if (tokens.length > maxOutputTokens) {
    const kept = tokens.slice(0, maxOutputTokens);
    return { text: decodePrefix(kept), tokens: kept, finishReason: { unified: 'length', raw: 'length' } };
  }
  if (stopSequence !== undefined) return { text, tokens, finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence } };
  return { text, tokens, finishReason: { unified: 'stop', raw: 'stop' } };
}
