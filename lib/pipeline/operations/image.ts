/** The image operation: an image generation call, charged per image. */
import { providerCallContext } from '../../providers/cancellation';
import type { EncodedResponse, ImageRoute, RouteParams } from '../../protocols/types';
import { creditsForImage, estimateImage } from '../../quota';
import type { Call } from '../call';
import { logProvider } from '../log';
import type { GatewayParts } from '../parts';
import { QuotaHold } from '../quota-hold';
import { toGatewayError } from '../../errors';
import type { UsageAttempt } from '../../usage/record';

/** Decode → resolve model → reserve quota → provider → settle → encode; the hold is released if the call fails. */
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
  const hold = await QuotaHold.reserve(
    gateway.config.quotaStore,
    principal,
    estimateImage(request, model),
    model,
    'image',
    requestId,
  );
  call.hold = hold;
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
    return route.encode(images, request, call);
  } catch (error) {
    if (call.images === undefined) {
      const failure = toGatewayError(error);
      attempt.error = { kind: failure.kind, status: failure.status };
    }
    await hold.release();
    throw error;
  }
}
