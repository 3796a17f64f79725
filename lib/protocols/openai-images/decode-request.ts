/** Images-generation request body → canonical ImageRequest. */
import type { ImageRequest } from '../../canonical';
import { unmodelledFields, type JsonObject } from '../../json';
import type { ImagesRequestExtension } from '../../wire/openai/extensions';
import { invalidField } from '../shared/validate';
import { validateImageGenerationBody } from './schema';

/** The size used when a request gives none, or `auto`. */
export const DEFAULT_IMAGE_SIZE = Object.freeze({ width: 1024, height: 1024 });

const SIZE_PATTERN = /^([1-9]\d*)x([1-9]\d*)$/;

/**
 * Parses an images `size`: `<width>x<height>` in positive integers, or `auto` (1024x1024).
 * Absent or null means 1024x1024. Throws a 400 naming `size` for anything else.
 */
export function parseImageSize(size: string | null | undefined): { width: number; height: number } {
  if (size === undefined || size === null || size === 'auto') return { ...DEFAULT_IMAGE_SIZE };
  const match = SIZE_PATTERN.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(width) || !Number.isSafeInteger(height)) {
    invalidField(
      'size',
      `'${size.slice(0, 40)}' is not a valid size; use 'auto' or '<width>x<height>' in positive integers, e.g. '1024x1024'`,
    );
  }
  return { width, height };
}

/** The body fields this codec models; `response_format` is the gateway's (upstreams are always asked for base64). */
const MODELLED_BODY: ReadonlySet<string> = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'response_format',
  'quality',
  'style',
  'background',
  'output_format',
  'user',
  'stream',
]);

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field. The
 * fields it does not model (`moderation`, `output_compression`, a server's own) are in
 * `extensions['openai-images']`.
 */
export function decodeImageRequest(body: unknown): ImageRequest {
  validateImageGenerationBody(body);
  if (body.stream === true)
    invalidField('stream', 'image streaming is not supported by this gateway; omit stream or set it to false');
  const request: ImageRequest = {
    model: body.model,
    prompt: body.prompt,
    n: body.n ?? 1,
    ...parseImageSize(body.size),
    responseFormat: body.response_format ?? 'b64_json',
  };
  const fields = unmodelledFields(body as unknown as JsonObject, MODELLED_BODY);
  if (fields) request.extensions = { 'openai-images': { fields } satisfies ImagesRequestExtension };
  if (body.quality) request.quality = body.quality;
  if (body.style) request.style = body.style;
  if (body.background) request.background = body.background;
  if (body.output_format) request.outputFormat = body.output_format;
  if (body.user) request.user = body.user;
  return request;
}
