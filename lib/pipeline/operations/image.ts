/** The image operation: an image generation call, charged per image. */
import type { ImageRequest, ImageResponse } from '../../canonical';
import type { ResolvedModel } from '../../models';
import type { EncodedResponse, ImageRoute, RouteParams } from '../../protocols/types';
import { type CostEstimate, creditsForImage, estimateImage } from '../../quota';
import type { Call } from '../call';
import { logProvider } from '../../log';
import type { GatewayParts } from '../parts';
import { attemptContext, type RoutingFacts, withModels } from '../provider-call';
import { type Admission, admitAndHold } from '../admission';
import type { ChargedOperation, Outcome } from '../run-operation';

/** An image call's routing facts: no session, and no tokens for a deployment's tokens-per-minute limit. */
const IMAGE_ROUTING: RoutingFacts = { session: () => undefined, tokens: () => 0 };

/**
 * Admit: a request and a concurrency slot (no tokens), then the hold for its images at the dearest image price of
 * the model and its fallbacks. Serve: the provider's `generateImage`, on the model's deployment, then its fallbacks.
 */
export class ImageOperation implements ChargedOperation<ImageResponse> {
  readonly modelType = 'image';
  private request!: ImageRequest;

  constructor(
    private readonly gateway: GatewayParts,
    private readonly route: ImageRoute,
    private readonly params: RouteParams,
    private readonly call: Call,
  ) {}

  decode(): string {
    this.request = this.route.decode(this.call.http, this.params);
    return this.request.model;
  }

  admit(model: ResolvedModel): Promise<Admission> {
    return admitAndHold(this.gateway, this.call, model, 0, chainEstimate(this.request, model), 'image');
  }

  async serve(model: ResolvedModel): Promise<Outcome<ImageResponse>> {
    const { call, request } = this;
    const served = await withModels(model, call, IMAGE_ROUTING, false, (candidate, target, warnings, retries) => {
      const { provider, upstreamModel } = target;
      logProvider(
        '%s → %s/%s image n=%d %dx%d',
        call.requestId,
        provider.name,
        upstreamModel,
        request.n,
        request.width,
        request.height,
      );
      return Promise.resolve(
        provider.generateImage({ ...request, model: candidate.id }, attemptContext(call, target, warnings, retries)),
      );
    });
    call.images = served.value.images.length;
    return { answer: served.value, charge: { credits: creditsForImage(served.value, served.model), tokens: 0 } };
  }

  encode(outcome: Outcome<ImageResponse>): EncodedResponse {
    return this.route.encode(outcome.answer, this.request, this.call);
  }
}

/** The hold of an image call: its images at the dearest image price of its model and fallbacks. */
function chainEstimate(request: ImageRequest, model: ResolvedModel): CostEstimate {
  let dearest = model;
  for (const candidate of model.chain) if (candidate.pricing.image > dearest.pricing.image) dearest = candidate;
  return estimateImage(request, dearest);
}
