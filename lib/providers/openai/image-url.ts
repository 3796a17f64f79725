/** Which image URLs OpenAI's APIs (chat completions and Responses) can be given. */
import type { ImagePart } from '../../canonical';
import { GatewayError } from '../../errors';
import { mediaUrlKind } from '../../upstream/fetch-media';

/**
 * Refuses, with a 400 naming the part, an image URL an OpenAI upstream cannot fetch: a Gemini Files
 * API or `gs://` URI, or any scheme but http(s). Inline images (data URLs, base64) always pass.
 */
export function checkImageUrl(part: ImagePart, at: string): void {
  if (part.source.kind !== 'url') return;
  const kind = mediaUrlKind(part.source.url);
  if (kind === 'gemini-file') {
    const message = `${at}: this image is a Gemini Files API or gs:// URI, which can only be sent to a Gemini upstream.`;
    throw new GatewayError('invalid_request', message, { param: at });
  }
  if (kind !== 'http') {
    const message = `${at}: an image URL must be http(s) or a base64 data URL for this upstream.`;
    throw new GatewayError('invalid_request', message, { param: at });
  }
}
