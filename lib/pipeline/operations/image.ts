/** The image operation: an image generation call, charged per image. */
import { providerCallContext } from '../../providers/cancellation';
import type { EncodedResponse, ImageRoute, RouteParams } from '../../protocols/types';
import { chargeForImage, estimateImage } from '../../quota';
import type { Call } from '../call';
import { logProvider } from '../log';
import type { GatewayParts } from '../parts';
import { QuotaHold } from '../quota-hold';

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
  const hold = await QuotaHold.reserve(
    gateway.config.quotaStore,
    principal,
    estimateImage(request, model),
    model,
    'image',
    requestId,
  );
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
    await hold.settle(chargeForImage(images, model), 'completed');
    return route.encode(images, request, call);
  } catch (error) {
    await hold.release();
    throw error;
  }
}
