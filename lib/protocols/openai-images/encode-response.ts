/** Canonical ImageResponse → images-generation response body. */
import type { GeneratedImage, ImageRequest, ImageResponse, Usage } from '../../canonical';

/** One `data[]` item of the images response. */
export type EncodedImage = { b64_json: string; revised_prompt?: string } | { url: string; revised_prompt?: string };

/**
 * The images `output_format` for a media type: `image/png` → `png`, `image/jpeg` → `jpeg`,
 * `image/webp` → `webp` (any other `image/<x>` → `<x>`).
 */
export function outputFormatOf(mediaType: string): string {
  const subtype = mediaType
    .split(';', 1)[0]!
    .trim()
    .toLowerCase()
    .replace(/^image\//, '');
  return subtype === 'jpg' ? 'jpeg' : subtype;
}

/**
 * One generated image as a `data[]` item. With `response_format: 'url'` the URL is a
 * `data:<mediaType>;base64,<data>` URL: the gateway (and its local provider) hosts no files, so
 * it has no https URL to hand out; clients that fetch or render URLs accept data URLs.
 */
export function encodeImage(image: GeneratedImage, responseFormat: ImageRequest['responseFormat']): EncodedImage {
  const revised = image.revisedPrompt !== undefined ? { revised_prompt: image.revisedPrompt } : {};
  if (responseFormat === 'url') return { url: `data:${image.mediaType};base64,${image.base64}`, ...revised };
  return { b64_json: image.base64, ...revised };
}

/**
 * The images usage block. Canonical usage has no modality split, so input tokens count as
 * prompt text and output tokens as generated image tokens, as they are for the GPT image models.
 */
export function encodeImageUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    input_tokens_details: { text_tokens: usage.inputTokens, image_tokens: 0 },
    output_tokens_details: { text_tokens: 0, image_tokens: usage.outputTokens },
  };
}

/**
 * The images response: `created`, one `data[]` item per image, the `size` that was generated,
 * `output_format` from the images' media type, and `usage` when the provider reported it.
 */
export function encodeImagesResponse(
  response: ImageResponse,
  request: Pick<ImageRequest, 'width' | 'height' | 'responseFormat'> | undefined,
) {
  const first = response.images[0];
  return {
    created: response.created,
    data: response.images.map((image) => encodeImage(image, request?.responseFormat ?? 'b64_json')),
    ...(request ? { size: `${request.width}x${request.height}` } : {}),
    ...(first ? { output_format: outputFormatOf(first.mediaType) } : {}),
    ...(response.usage ? { usage: encodeImageUsage(response.usage) } : {}),
  };
}
