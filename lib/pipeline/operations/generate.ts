/** The generate operation: a text call, answered whole or streamed. */
import type { ServerResponse } from 'node:http';
import type { CallWarning, GenerateRequest, GenerateResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import type { CallCancellation } from '../../providers/cancellation';
import type { CallView, GenerateRoute } from '../../protocols/types';
import { chargeForUsage } from '../../quota';
import type { Principal } from '../../stores/types';
import type { GatewayParts } from '../parts';
import type { AnswerKeeper } from '../response-state';
import { generate, openStream } from '../provider-call';
import { TextHold } from '../quota-hold';
import { streamResponse } from '../stream-response';
import { mergeWarnings } from '../../warnings';

/**
 * Resolve model → reserve quota → provider (with fallbacks) → settle. Returns the answer to encode,
 * or undefined when it was streamed (a streamed answer to keep is kept by `keeper` before its last
 * event). The answer's `warnings` are the codec's (`decodeWarnings`), the provider's own and those it
 * reported through its context. The hold is released if the call fails before it is settled (a
 * started stream settles it itself).
 */
export async function serveGenerate(
  gateway: GatewayParts,
  route: GenerateRoute,
  call: CallView,
  request: GenerateRequest,
  principal: Principal,
  cancellation: CallCancellation,
  response: ServerResponse,
  upstreamHeaders: Readonly<Record<string, string>>,
  decodeWarnings: readonly CallWarning[] | undefined,
  keeper?: AnswerKeeper,
): Promise<GenerateResponse | undefined> {
  const requestId = call.requestId;
  const model = gateway.models.resolve(request.model, principal, 'text');
  if (request.stream) checkStreamable(route, request);
  const hold = await TextHold.reserveText(gateway.config.quotaStore, request, model, principal, requestId);
  try {
    if (request.stream) {
      // The encoder first: one that cannot start fails the call before the upstream is called.
      const encoder = route.encodeStream!(request, call);
      const opened = await openStream(hold.request, model, cancellation, requestId, upstreamHeaders);
      if (decodeWarnings) opened.warnings = mergeWarnings(decodeWarnings, opened.warnings);
      const config = gateway.config;
      if (!keeper)
        await streamResponse(
          encoder,
          requestId,
          hold,
          opened,
          cancellation,
          response,
          gateway.lifecycle,
          config.chargeFailedStreams,
        );
      else
        await streamResponse(
          keeper.collecting(encoder),
          requestId,
          hold,
          opened,
          cancellation,
          response,
          gateway.lifecycle,
          config.chargeFailedStreams,
          () => keeper.keepStreamed(),
        );
      return undefined;
    }
    const served = await generate(hold.request, model, cancellation, requestId, upstreamHeaders);
    const answer: GenerateResponse = { ...served.value, model: served.model.id };
    if (keeper) answer.id = keeper.answerId;
    const warnings =
      decodeWarnings || served.warnings
        ? mergeWarnings(decodeWarnings, served.value.warnings, served.warnings)
        : served.value.warnings;
    if (warnings) answer.warnings = warnings;
    await hold.settle(chargeForUsage(answer.usage, served.model), 'completed');
    return answer;
  } catch (error) {
    await hold.release();
    throw error;
  }
}

/** Refuses streaming requests this route or call shape cannot stream. */
function checkStreamable(route: GenerateRoute, request: GenerateRequest): void {
  if (!route.encodeStream) {
    const message = 'This route does not stream; send the request without streaming.';
    throw new GatewayError('invalid_request', message, { param: 'stream' });
  }
  if ((request.choiceCount ?? 1) > 1) {
    const message = 'Streaming more than one choice is not supported; set n (candidateCount) to 1.';
    throw new GatewayError('invalid_request', message, { param: 'n' });
  }
}
