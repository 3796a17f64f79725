/**
 * An embedding call's input tokens before anything goes upstream: the bound its quota hold and rate-limit slot are
 * sized on, the limits every embedding call is held to (OpenAI's own, so an OpenAI upstream never refuses a call the
 * gateway let through), and the gateway's exact count, made only where it is needed.
 */
import type { EmbedInput, EmbedRequest } from '../canonical';
import { GatewayError } from '../errors';
import { countTextTokensUpTo } from '../tokenizer';

/** Most tokens one input may have (OpenAI's per-input limit for its embedding models). */
export const MAX_EMBED_INPUT_TOKENS = 8192;

/** Most tokens all the inputs of one call may have together (OpenAI's per-request limit). */
export const MAX_EMBED_REQUEST_TOKENS = 300_000;

function tooLong(message: string): never {
  throw new GatewayError('invalid_request', message, { param: 'input', code: 'context_length_exceeded' });
}

/**
 * The inputs of one call as the gateway measures them. `bound` is each input's upper bound without the tokenizer
 * (a text's UTF-8 bytes: a byte-level BPE token is at least one byte; token ids, their number), made exact where a
 * limit had to be checked; `tokens(index)` is the gateway's exact count (o200k_base), counted on first use, which a
 * call needs only for a batch whose upstream reports no usage (Gemini, the local model).
 */
export class EmbedInputs {
  readonly bound: number[];
  /** The sum of {@link bound}: what the call is held and admitted on. */
  total = 0;
  private readonly exact: Array<number | undefined>;

  constructor(private readonly inputs: readonly EmbedInput[]) {
    this.bound = inputs.map((input) => (typeof input === 'string' ? Buffer.byteLength(input) : input.length));
    this.exact = inputs.map((input) => (typeof input === 'string' ? undefined : input.length));
  }

  /** The exact tokens of input `index` (counted no further than `limit`, past which the figure is only above it). */
  tokens(index: number, limit = MAX_EMBED_INPUT_TOKENS): number {
    let counted = this.exact[index];
    if (counted === undefined) {
      counted = countTextTokensUpTo(this.inputs[index] as string, limit);
      if (counted <= limit) this.exact[index] = counted;
    }
    return counted;
  }

  /** The exact tokens of inputs `start` to `end` (excluded). */
  tokensOf(start: number, end: number): number {
    let sum = 0;
    for (let index = start; index < end; index++) sum += this.tokens(index);
    return sum;
  }
}

/**
 * Measures the inputs, refusing with a 400 an input of more than {@link MAX_EMBED_INPUT_TOKENS} tokens or a call of
 * more than {@link MAX_EMBED_REQUEST_TOKENS}. Only an input whose bound passes the per-input limit is counted for it,
 * and the inputs are counted for the call's limit only when their bounds together pass it; the tokenizer stops at
 * each limit, so an over-long input (a 20 MB string) is refused after some tens of milliseconds of counting. Inputs
 * of ordinary size cost no tokenizer work here.
 */
export function measureEmbedInputs(request: EmbedRequest): EmbedInputs {
  const inputs = new EmbedInputs(request.inputs);
  const { bound } = inputs;
  for (let index = 0; index < bound.length; index++) {
    if (bound[index]! > MAX_EMBED_INPUT_TOKENS) {
      const tokens = inputs.tokens(index);
      if (tokens > MAX_EMBED_INPUT_TOKENS)
        tooLong(
          `Input ${index} has more than ${MAX_EMBED_INPUT_TOKENS} tokens, the most one embedding input may have.`,
        );
      bound[index] = tokens;
    }
    inputs.total += bound[index]!;
  }
  if (inputs.total > MAX_EMBED_REQUEST_TOKENS) {
    let total = 0;
    for (let index = 0; index < bound.length; index++) {
      total += inputs.tokens(index, MAX_EMBED_REQUEST_TOKENS - total);
      if (total > MAX_EMBED_REQUEST_TOKENS)
        tooLong(
          `The inputs have more than ${MAX_EMBED_REQUEST_TOKENS} tokens together, the most one embedding call may have; send fewer per call.`,
        );
      bound[index] = inputs.tokens(index);
    }
    inputs.total = total;
  }
  return inputs;
}
