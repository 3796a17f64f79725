/**
 * A reasoning model's too small output cap (Claude Code probes a model with `max_tokens: 1`): what OpenAI refuses
 * for it, answered as what it means — the model stopped at the cap with nothing written (docs/translation.md,
 * "Coding-agent probes and upstream strictness").
 */
import createDebug from 'debug';
import type { GenerateRequest, ProviderStreamPart } from '../../canonical';
import { GatewayError } from '../../errors';
import { upstreamMessage } from '../../upstream/upstream-errors';
import type { ProviderGenerateResponse } from '../types';

const log = createDebug('rosetta:provider');

/**
 * The Responses API's least `max_output_tokens`: a smaller one is a 400 `integer_below_min_value` ("Expected a
 * value >= 16"), whatever the model.
 */
export const RESPONSES_MIN_OUTPUT_TOKENS = 16;

/**
 * The `max_output_tokens` sent for a cap: raised to {@link RESPONSES_MIN_OUTPUT_TOKENS} when below it (a probe's
 * `max_tokens: 1`), so the call is answered rather than refused. The answer may then hold up to that many tokens,
 * and is charged what the upstream reports (at most 15 tokens beyond the hold, an overrun the settlement reports).
 */
export function responsesOutputCap(cap: number): number {
  if (cap >= RESPONSES_MIN_OUTPUT_TOKENS) return cap;
  log('max_output_tokens %d raised to %d: the Responses API refuses less', cap, RESPONSES_MIN_OUTPUT_TOKENS);
  return RESPONSES_MIN_OUTPUT_TOKENS;
}

/**
 * The start of OpenAI's chat-completions refusal of a reasoning model whose `max_completion_tokens` was used up
 * before it could write anything: HTTP 400 `invalid_request_error`, "Could not finish the message because max_tokens
 * or model output limit was reached. Please try again with higher max_tokens." (Azure OpenAI sends the same).
 */
const CAP_EXHAUSTED = 'Could not finish the message because max_tokens or model output limit was reached';

/** Whether `error` is an upstream's 400 saying the output cap was used up before any output (see above). */
export function isCapExhausted(error: unknown): boolean {
  if (!(error instanceof GatewayError) || error.kind !== 'invalid_request') return false;
  const cause = error.cause as { upstreamStatus?: unknown; upstreamBody?: unknown } | undefined;
  if (cause?.upstreamStatus !== 400 || typeof cause.upstreamBody !== 'string') return false;
  return upstreamMessage(cause.upstreamBody)?.startsWith(CAP_EXHAUSTED) === true;
}

/**
 * The usage of a call refused for its cap: the whole cap spent reasoning (what the same model reports when it runs
 * out at a larger cap) and the input left out, for the gateway to count.
 */
function exhaustedUsage(request: GenerateRequest) {
  const cap = request.maxOutputTokens ?? 0;
  return { outputTokens: cap, reasoningTokens: cap };
}

const LENGTH = { unified: 'length', raw: 'length' } as const;

/** The answer for a refused cap: no content, finished by the cap. */
export function capExhaustedAnswer(request: GenerateRequest, upstreamModel: string): ProviderGenerateResponse {
  return {
    id: '',
    model: upstreamModel,
    created: Math.floor(Date.now() / 1000),
    choices: [{ index: 0, content: [], finishReason: LENGTH }],
    usage: exhaustedUsage(request),
  };
}

/**
 * `parts`, or — when its first `next()` fails with the refusal of a used-up cap (the request is sent there) — the
 * parts of {@link capExhaustedAnswer}. Only the first `next()` is wrapped: the rest go straight to `parts`.
 */
export function answerCapExhaustedStream(
  parts: AsyncIterableIterator<ProviderStreamPart>,
  request: GenerateRequest,
  upstreamModel: string,
): AsyncIterableIterator<ProviderStreamPart> {
  let started = false;
  let replacement: ProviderStreamPart[] | undefined;
  const iterator: AsyncIterableIterator<ProviderStreamPart> = {
    next() {
      if (replacement) {
        const part = replacement.shift();
        return Promise.resolve(part ? { value: part, done: false } : { value: undefined, done: true });
      }
      if (started) return parts.next();
      started = true;
      return parts.next().catch((error: unknown) => {
        if (!isCapExhausted(error)) throw error;
        replacement = [
          { type: 'response-start', id: '', model: upstreamModel, created: Math.floor(Date.now() / 1000) },
          { type: 'finish', usage: exhaustedUsage(request), finishReason: LENGTH },
        ];
        return iterator.next();
      });
    },
    return(value?: unknown) {
      if (replacement) replacement = [];
      return parts.return ? parts.return(value) : Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
