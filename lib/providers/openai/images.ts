/** Canonical ImageRequest ↔ the OpenAI images API. */
import type { ImageRequest, ImageResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import type { ImagesRequestExtension } from '../../wire/openai/extensions';

/**
 * The upstream body, always asking for base64: the canonical request, with an images caller's
 * fields that it does not model (`extensions['openai-images']`) under it.
 */
export function encodeImageRequest(request: ImageRequest, upstreamModel: string): Record<string, unknown> {
  const fields = (request.extensions?.['openai-images'] as ImagesRequestExtension | undefined)?.fields;
  const body: Record<string, unknown> = {
    ...fields,
    model: upstreamModel,
    prompt: request.prompt,
    n: request.n,
    size: `${request.width}x${request.height}`,
  };
  // dall-e models default to URLs; GPT image models always return base64 and reject the field.
  if (upstreamModel.startsWith('dall-e')) body.response_format = 'b64_json';
  for (const [field, value] of [
    ['quality', request.quality],
    ['style', request.style],
    ['background', request.background],
    ['output_format', request.outputFormat],
    ['user', request.user],
  ] as const) {
    if (value !== undefined) body[field] = value;
  }
  return body;
}

interface ImagesBody {
  created?: number;
  output_format?: string;
  data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  usage?: { input_tokens?: number; output_tokens?: number };
}

export function decodeImageResponse(body: ImagesBody, upstream: string): ImageResponse {
  if (!Array.isArray(body.data))
    throw new GatewayError('upstream', `The upstream ${upstream} image response has no data.`, {
      code: 'upstream_malformed',
    });
  const mediaType = `image/${body.output_format ?? 'png'}`;
  return {
    created: body.created ?? Math.floor(Date.now() / 1000),
    images: body.data.map((image) => {
      if (typeof image.b64_json !== 'string')
        throw new GatewayError('upstream', `The upstream ${upstream} returned an image without base64 data.`, {
          code: 'upstream_malformed',
        });
      return {
        base64: image.b64_json,
        mediaType,
        ...(image.revised_prompt ? { revisedPrompt: image.revised_prompt } : {}),
      };
    }),
    ...(body.usage
      ? { usage: { inputTokens: body.usage.input_tokens ?? 0, outputTokens: body.usage.output_tokens ?? 0 } }
      : {}),
  };
}
