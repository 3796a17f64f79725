/** The image operation: an image generation call, charged per image. */
import { providerCallContext } from '../../providers/call-context';
import type { EncodedResponse, ImageRoute, RouteParams } from '../../protocols/types';
import { creditsForImage, estimateImage } from '../../quota';
import type { Call } from '../call';
import { admitAndHold } from '../rate-limit';
import { logProvider } from '../../log';
import type { GatewayParts } from '../parts';
import { toGatewayError } from '../../errors';
import type { UsageAttempt } from '../../usage/record';

/**
 * Decode → resolve model → admit by rate limits → reserve quota → provider → settle → encode; the hold and the
 * rate-limit slot are released if the call fails.
 */
export async function runImage(
  gateway: GatewayParts,
  route: ImageRoute,
  params: RouteParams,
  call: Call,
): Promise<EncodedResponse> {
  const request = route.decode(call.http, params);
  call.model = request.model;
  const { requestId, caller: principal } = call;
  const model = gateway.models.resolve(request.model, principal, 'image');
  call.resolved = model;
  // Rate limits: an image call counts a request and a slot, and no tokens.
  const { slot, hold } = await admitAndHold(gateway, call, model, 0, estimateImage(request, model), 'image');
  const attempt: UsageAttempt = { model: model.id, provider: model.provider.name, upstreamModel: model.upstreamModel };
  call.attempts.push(attempt);
  try {
    const provider = model.provider;
    logProvider(
      '%s → %s/%s image n=%d %dx%d',
      requestId,
      provider.name,
      model.upstreamModel,
      request.n,
      request.width,
      request.height,
    );
    const images = await provider.generateImage(
      { ...request, model: model.id },
      providerCallContext(call.cancellation, model.upstreamModel, requestId, call.upstreamHeaders),
    );
    call.images = images.images.length;
    const credits = creditsForImage(images, model);
    await hold.settle(credits.total, 'completed', credits);
    await slot?.settle(0);
    const encoded = route.encode(images, request, call);
    if (slot?.headers) encoded.headers = { ...encoded.headers, ...slot.headers };
    return encoded;
  } catch (error) {
    if (call.images === undefined) {
      const failure = toGatewayError(error);
      attempt.error = { kind: failure.kind, status: failure.status };
    }
    await hold.release();
    await slot?.release();
    throw error;
  }
}
