/** Token counting with a real BPE tokenizer (gpt-tokenizer, o200k_base), loaded on first use. */
import type { ContentPart, GenerateRequest } from './canonical';

interface Tokenizer {
  encode(text: string): number[];
  decode(tokens: number[]): string;
  countTokens(text: string): number;
}

let tokenizer: Tokenizer | undefined;

function load(): Tokenizer {
  // Loaded lazily: the rank table takes a few hundred milliseconds to build and most hosts never count.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tokenizer ??= require('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

/** Tokens in a string. */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : load().countTokens(text);
}

/** Encodes text to token ids. */
export function encodeTokens(text: string): number[] {
  return load().encode(text);
}

/** Decodes token ids to text. */
export function decodeTokens(tokens: number[]): string {
  return load().decode(tokens);
}

/** Tokens an image costs in the estimate: a fixed, documented figure (the tile-based costs of vendors vary). */
export const IMAGE_TOKEN_ESTIMATE = 765;

/** Framing tokens per message, as in OpenAI's chat format (`<|im_start|>role … <|im_end|>`). */
const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the reply. */
const TOKENS_PER_REPLY = 3;

function countPart(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return countTextTokens(part.text);
    case 'reasoning':
      return countTextTokens(part.text);
    case 'image':
    case 'file':
      return IMAGE_TOKEN_ESTIMATE;
    case 'tool-call':
      return countTextTokens(part.name) + countTextTokens(part.arguments);
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + countPart(inner), 0);
  }
}

/**
 * Input tokens of a request: every message's content plus per-message framing, and the tool
 * definitions as JSON. This is exact for the embedded local provider and an estimate for others.
 */
export function countRequestTokens(request: GenerateRequest): number {
  let total = TOKENS_PER_REPLY;
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE;
    for (const part of message.content) total += countPart(part);
  }
  if (request.tools?.length) total += countTextTokens(JSON.stringify(request.tools));
  return total;
}

/** Decodes tokens one step at a time: each string is the text the next token(s) complete (never half a character). */
export function decodeTokenSteps(tokens: number[]): Iterable<string> {
  return (load() as Tokenizer & { decodeGenerator(tokens: number[]): Iterable<string> }).decodeGenerator(tokens);
}
