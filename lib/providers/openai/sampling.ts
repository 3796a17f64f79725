/** Reasoning effort and sampling for OpenAI's two APIs (chat completions and Responses), which refuse the same things. */
import createDebug from 'debug';
import type { GenerateRequest, ReasoningEffort } from '../../canonical';
import { reportDrop, type Warn } from '../../warnings';
import { reasoningEffortFor } from './map-reasoning';

const log = createDebug('rosetta:provider');

/**
 * The effort to send (see {@link reasoningEffortFor}) to a reasoning model, or when the caller spoke
 * this API and chose its settings for it (`callerChose`); otherwise the reasoning settings are
 * dropped (a model without reasoning refuses an effort) and reported.
 */
export function upstreamEffort(
  request: GenerateRequest,
  reasoningModel: boolean,
  callerChose: boolean,
  warn: Warn | undefined,
): ReasoningEffort | undefined {
  if (reasoningModel || callerChose) return reasoningEffortFor(request.reasoning);
  if (request.reasoning) {
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: 'reasoning',
      details: 'the upstream model is not configured as a reasoning model (reasoningModels)',
    });
  }
  return undefined;
}

/**
 * `temperature` and `top_p` onto `body` when `allowed`; otherwise each given one is dropped and
 * reported (OpenAI's reasoning models take only the defaults unless reasoning is off).
 */
export function setSampling(
  body: Record<string, unknown>,
  request: GenerateRequest,
  allowed: boolean,
  warn: Warn | undefined,
): void {
  for (const [name, value] of [
    ['temperature', request.temperature],
    ['top_p', request.topP],
  ] as const) {
    if (value === undefined) continue;
    if (allowed) body[name] = value;
    else
      reportDrop(log, warn, {
        type: 'unsupported-setting',
        setting: name,
        details: 'reasoning models take only the default',
      });
  }
}
