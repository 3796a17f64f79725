/** The image operation: an image generation call, charged per image. */
import type { ImageRequest, ImageResponse } from '../../canonical';
import { providerCallContext, type CallCancellation } from '../../providers/cancellation';
import { chargeForImage, estimateImage } from '../../quota';
import type { Principal } from '../../stores/types';
import { logProvider } from '../log';
import type { GatewayParts } from '../parts';
import { QuotaHold } from '../quota-hold';

/** Resolve model → reserve quota → provider → settle; the hold is released if the call fails. */
export async function serveImage(
  gateway: GatewayParts,
  request: ImageRequest,
  principal: Principal,
  requestId: string,
  cancellation: CallCancellation,
  upstreamHeaders: Readonly<Record<string, string>>,
): Promise<ImageResponse> {
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
      providerCallContext(cancellation, model.upstreamModel, requestId, upstreamHeaders),
    );
    await hold.settle(chargeForImage(images, model), 'completed');
    return images;
  } catch (error) {
    await hold.release();
    throw error;
  }
}
