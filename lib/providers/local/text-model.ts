/**
 * The local text model `rosetta-echo`: a deterministic reply derived from the prompt, counted with a real tokenizer.
 */
import type { FinishReason, GenerateRequest } from '../../canonical';
import { countTextTokens, decodeTokens, encodeTokens } from '../../tokenizer';
import { lastTurn, type LastTurn, type NamedToolResult } from './last-turn';
import { toolIntent } from './tool-intent';

/** Characters of a tool result the model quotes back. */
export const TOOL_RESULT_QUOTE_CHARS = 500;

function quoteResult({ name, result }: NamedToolResult): string {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '(image)')).join('\n');
  const quoted =
    text.length > TOOL_RESULT_QUOTE_CHARS
      ? `${text.slice(0, TOOL_RESULT_QUOTE_CHARS).replace(/[\uD800-\uDBFF]$/, '')}…`
      : text;
  return `Tool ${name ?? result.toolCallId} ${result.isError ? 'failed' : 'returned'}: ${quoted}`;
}

/**
 * What the local model says to a turn, before any stop sequence or output cap is applied: the
 * caller's own text (framework-injected elements already left out), or a line quoting each tool
 * result sent back.
 */
function sayTo(turn: LastTurn): string {
  switch (turn.kind) {
    case 'text':
      return turn.text;
    case 'images':
      return `(${turn.count} image${turn.count === 1 ? '' : 's'} and no text)`;
    case 'tool-results':
      return turn.results.length > 0 ? turn.results.map(quoteResult).join('\n') : '(no tool result)';
    case 'none':
      return '(no user message)';
  }
}

/** A text reply: the text, the tokens it spends, and why it ended. */
export interface LocalTextCompletion {
  kind: 'text';
  text: string;
  tokens: number[];
  finishReason: FinishReason;
}

/**
 * A tool call: the tool, its arguments' tokens (the JSON text, possibly cut by the output cap), what it spends, and why
 * it ended.
 */
export interface LocalToolCallCompletion {
  kind: 'tool-call';
  name: string;
  arguments: string;
  argumentTokens: number[];
  /** Tokens of the tool's name and of its arguments, as the tokenizer counts a tool call. */
  outputTokens: number;
  finishReason: FinishReason;
}

/** What the local model produces for a request. */
export type LocalCompletion = LocalTextCompletion | LocalToolCallCompletion;

function cutAtStopSequence(
  text: string,
  stopSequences: readonly string[] | undefined,
): { text: string; stopSequence?: string } {
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

const LENGTH: FinishReason = { unified: 'length', raw: 'length' };

function completeToolCall(name: string, argumentsText: string, maxOutputTokens: number): LocalToolCallCompletion {
  const nameTokens = countTextTokens(name);
  const tokens = encodeTokens(argumentsText);
  const room = Math.max(0, maxOutputTokens - nameTokens);
  if (tokens.length > room) {
    const kept = tokens.slice(0, room);
    return {
      kind: 'tool-call',
      name,
      arguments: decodePrefix(kept),
      argumentTokens: kept,
      outputTokens: nameTokens + kept.length,
      finishReason: LENGTH,
    };
  }
  return {
    kind: 'tool-call',
    name,
    arguments: argumentsText,
    argumentTokens: tokens,
    outputTokens: nameTokens + tokens.length,
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  };
}

/**
 * Completes a request. When the request's tools and tool choice call for a tool (see
 * `toolIntent`), the reply is that tool call, finish `tool-calls` (or `length` when the output cap
 * cuts its arguments). Otherwise the reply is `sayTo`'s text for the last turn; it ends early at the first stop
 * sequence it contains (finish `stop`) or after `maxOutputTokens` tokens (finish `length`).
 */
export function complete(request: GenerateRequest, maxOutputTokens: number): LocalCompletion {
  const turn = lastTurn(request.messages);
  const intent = toolIntent(request, turn);
  if (intent) return completeToolCall(intent.name, intent.arguments, maxOutputTokens);
  const { text, stopSequence } = cutAtStopSequence(sayTo(turn), request.stopSequences);
  const tokens = encodeTokens(text);
  if (tokens.length > maxOutputTokens) {
    const kept = tokens.slice(0, maxOutputTokens);
    return { kind: 'text', text: decodePrefix(kept), tokens: kept, finishReason: LENGTH };
  }
  if (stopSequence !== undefined)
    return { kind: 'text', text, tokens, finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence } };
  return { kind: 'text', text, tokens, finishReason: { unified: 'stop', raw: 'stop' } };
}
