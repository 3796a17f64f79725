/**
 * An embedding call's input tokens before anything goes upstream: the bound its quota hold and rate-limit slot are
 * sized on, the limits every embedding call is held to (OpenAI's own, so an OpenAI upstream never refuses a call the
 * gateway let through), and the gateway's exact count, made only where it is needed.
 */
import type { EmbedInput } from '../canonical';
import { GatewayError } from '../errors';
import { countTextTokensWithin, EXACT_COUNT_MAX_CHARS, TokenizerBudget } from '../tokenizer';

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
 * call needs only for a batch whose upstream reports no usage (Gemini, the local model). The exact tokenizer reads at
 * most {@link EXACT_COUNT_MAX_CHARS} characters of one call; past that a count is unknown and the bound stands in.
 */
export class EmbedInputs {
  readonly bound: number[];
  /** The sum of {@link bound}: what the call is held and admitted on. */
  total = 0;
  private readonly exact: Array<number | undefined>;
  private readonly budget = new TokenizerBudget();

  constructor(private readonly inputs: readonly EmbedInput[]) {
    this.bound = inputs.map((input) => (typeof input === 'string' ? Buffer.byteLength(input) : input.length));
    this.exact = inputs.map((input) => (typeof input === 'string' ? undefined : input.length));
    for (const bound of this.bound) this.total += bound;
  }

  /** Whether a limit can be checked only by counting: an input's bound, or all of them together, past its limit. */
  get needsCounting(): boolean {
    return this.total > MAX_EMBED_REQUEST_TOKENS || this.bound.some((bound) => bound > MAX_EMBED_INPUT_TOKENS);
  }

  /**
   * The exact tokens of input `index` (counted no further than `limit`, past which the figure is only above it), or
   * undefined when the call's tokenizer budget ran out before it was known.
   */
  tokens(index: number, limit = MAX_EMBED_INPUT_TOKENS): number | undefined {
    let counted = this.exact[index];
    if (counted === undefined) {
      counted = countTextTokensWithin(this.inputs[index] as string, limit, this.budget);
      if (counted !== undefined && counted <= limit) this.exact[index] = counted;
    }
    return counted;
  }

  /** The tokens of inputs `start` to `end` (excluded): exact where the budget allowed, else each input's bound. */
  tokensOf(start: number, end: number): number {
    let sum = 0;
    for (let index = start; index < end; index++) sum += this.tokens(index) ?? this.bound[index]!;
    return sum;
  }
}

/**
 * Measures the inputs, refusing with a 400 an input of more than {@link MAX_EMBED_INPUT_TOKENS} tokens or a call of
 * more than {@link MAX_EMBED_REQUEST_TOKENS}. Only an input whose bound passes the per-input limit is counted for it,
 * and the inputs are counted for the call's limit only when their bounds together pass it; the tokenizer stops at
 * each limit, so an over-long input (a 20 MB string) is refused after some tens of milliseconds of counting. Inputs
 * of ordinary size cost no tokenizer work here. Within the call's tokenizer budget (1 MiB of text) a limit is
 * checked exactly; past it, an input or call is refused only when the counts made prove it over its limit, and what
 * could not be counted goes upstream on its bound (the upstream enforces its own limits).
 */
export function measureEmbedInputs(inputs: EmbedInputs): EmbedInputs {
  const { bound } = inputs;
  for (let index = 0; index < bound.length; index++) {
    if (bound[index]! <= MAX_EMBED_INPUT_TOKENS) continue;
    const tokens = inputs.tokens(index);
    if (tokens === undefined) continue;
    if (tokens > MAX_EMBED_INPUT_TOKENS)
      tooLong(`Input ${index} has more than ${MAX_EMBED_INPUT_TOKENS} tokens, the most one embedding input may have.`);
    inputs.total += tokens - bound[index]!;
    bound[index] = tokens;
  }
  if (inputs.total > MAX_EMBED_REQUEST_TOKENS) {
    // The tokens counted exactly so far: past the limit, the call is over it whatever the rest holds.
    let counted = 0;
    for (let index = 0; index < bound.length; index++) {
      const tokens = inputs.tokens(index, MAX_EMBED_REQUEST_TOKENS - counted);
      if (tokens === undefined) continue;
      counted += tokens;
      if (counted > MAX_EMBED_REQUEST_TOKENS)
        tooLong(
          `The inputs have more than ${MAX_EMBED_REQUEST_TOKENS} tokens together, the most one embedding call may have; send fewer per call.`,
        );
      inputs.total += tokens - bound[index]!;
      bound[index] = tokens;
    }
  }
  return inputs;
}
