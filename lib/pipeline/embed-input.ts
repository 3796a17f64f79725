/**
 * An embedding call's input tokens, counted by the gateway before anything goes upstream: what its quota hold and
 * rate-limit slot are sized on, what it is charged when the upstream reports no usage, and the limits every embedding
 * call is held to (OpenAI's own, so an OpenAI upstream never refuses a call the gateway let through).
 */
import type { EmbedInput, EmbedRequest } from '../canonical';
import { GatewayError } from '../errors';
import { countTextTokensUpTo } from '../tokenizer';

/** Most tokens one input may have (OpenAI's per-input limit for its embedding models). */
export const MAX_EMBED_INPUT_TOKENS = 8192;

/** Most tokens all the inputs of one call may have together (OpenAI's per-request limit). */
export const MAX_EMBED_REQUEST_TOKENS = 300_000;

/** The tokens of each input, in order, and their sum. */
export interface EmbedInputTokens {
  perInput: number[];
  total: number;
}

function tooLong(message: string): never {
  throw new GatewayError('invalid_request', message, { param: 'input', code: 'context_length_exceeded' });
}

/** Tokens of one input: the gateway's tokenizer for text (counted no further than the limit), the length of token ids. */
function inputTokens(input: EmbedInput, limit: number): number {
  return typeof input === 'string' ? countTextTokensUpTo(input, limit) : input.length;
}

/**
 * Counts every input with the gateway's tokenizer (o200k_base; token ids count one each), refusing with a 400 an
 * input of more than {@link MAX_EMBED_INPUT_TOKENS} tokens or a call of more than {@link MAX_EMBED_REQUEST_TOKENS}.
 * The tokenizer never counts much past either limit, so an over-long input (a 20 MB string) is refused after some
 * tens of milliseconds of counting.
 */
export function countEmbedInputs(request: EmbedRequest): EmbedInputTokens {
  const perInput: number[] = new Array(request.inputs.length);
  let total = 0;
  request.inputs.forEach((input, index) => {
    const limit = Math.min(MAX_EMBED_INPUT_TOKENS, MAX_EMBED_REQUEST_TOKENS - total);
    const tokens = inputTokens(input, limit);
    if (tokens > MAX_EMBED_INPUT_TOKENS)
      tooLong(`Input ${index} has more than ${MAX_EMBED_INPUT_TOKENS} tokens, the most one embedding input may have.`);
    total += tokens;
    if (total > MAX_EMBED_REQUEST_TOKENS)
      tooLong(
        `The inputs have more than ${MAX_EMBED_REQUEST_TOKENS} tokens together, the most one embedding call may have; send fewer per call.`,
      );
    perInput[index] = tokens;
  });
  return { perInput, total };
}
