/** The generate operation: a text call, answered whole or streamed. */
import type { ServerResponse } from 'node:http';
import type { GenerateRequest } from '../../canonical';
import { GatewayError } from '../../errors';
import type { CallCancellation } from '../../providers/cancellation';
import type { CallResult, EncodeContext, ProtocolCodec } from '../../protocols/types';
import { chargeForUsage } from '../../quota';
import type { Principal } from '../../stores/types';
import type { GatewayParts } from '../parts';
import { generate, openStream } from '../provider-call';
import { TextHold } from '../quota-hold';
import { streamResponse } from '../stream-response';

/**
 * Resolve model → reserve quota → provider (with fallbacks) → settle. Returns the result to encode,
 * or undefined when the answer was streamed. The hold is released if the call fails before it is
 * settled (a started stream settles it itself).
 */
export async function serveGenerate(
  gateway: GatewayParts,
  codec: ProtocolCodec,
  context: EncodeContext,
  request: GenerateRequest,
  principal: Principal,
  cancellation: CallCancellation,
  response: ServerResponse,
  upstreamHeaders: Readonly<Record<string, string>>,
): Promise<CallResult | undefined> {
  const requestId = context.requestId;
  const model = gateway.models.resolve(request.model, principal, 'text');
  if (request.stream) checkStreamable(codec, request);
  const hold = await TextHold.reserveText(gateway.config.quotaStore, request, model, principal, requestId);
  try {
    if (request.stream) {
      const opened = await openStream(hold.request, model, cancellation, requestId, upstreamHeaders);
      await streamResponse(codec, context, hold, opened, cancellation, response, gateway.lifecycle, gateway.config.chargeFailedStreams);
      return undefined;
    }
    const served = await generate(hold.request, model, cancellation, requestId, upstreamHeaders);
    const result: CallResult = { operation: 'generate', response: { ...served.value, model: served.model.id } };
    await hold.settle(chargeForUsage(result.response.usage, served.model), 'completed');
    return result;
  } catch (error) {
    await hold.release();
    throw error;
  }
}

/** Refuses streaming requests this codec or call shape cannot stream. */
function checkStreamable(codec: ProtocolCodec, request: GenerateRequest): void {
  if (!codec.encodeStream) {
    const message = `The ${codec.name} protocol does not stream here; send the request without streaming.`;
    throw new GatewayError('invalid_request', message, { param: 'stream' });
  }
  if ((request.choiceCount ?? 1) > 1) {
    const message = 'Streaming more than one choice is not supported; set n (candidateCount) to 1.';
    throw new GatewayError('invalid_request', message, { param: 'n' });
  }
}
