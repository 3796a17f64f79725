/**
 * A Gemini caller's explicit cache (`cachedContent`, the name of a cache made with the Gemini caching API):
 * it rides in the request's `extensions.gemini` to a Gemini upstream, the only one that can read it.
 */
import type { GenerateRequest, ProtocolName } from '../../canonical';
import { GatewayError } from '../../errors';
import { GEMINI_EXTENSION_KEY, type GeminiRequestExtension } from './extensions';

/** The request's `cachedContent` (either spelling), or undefined. */
export function geminiCachedContent(request: GenerateRequest): unknown {
  const fields = (request.extensions?.[GEMINI_EXTENSION_KEY] as GeminiRequestExtension | undefined)?.fields;
  return fields?.cachedContent ?? fields?.cached_content ?? undefined;
}

/**
 * A 400 when a request naming a Gemini cache goes to an upstream that speaks `own` (any but Gemini):
 * the cached contents are part of the prompt, so sending the rest without them would change the answer.
 */
export function refuseForeignCachedContent(request: GenerateRequest, own: ProtocolName | undefined): void {
  if (own === GEMINI_EXTENSION_KEY || request.extensions === undefined) return;
  if (geminiCachedContent(request) === undefined) return;
  throw new GatewayError(
    'invalid_request',
    'cachedContent: this model is not served by Gemini, which alone can read a Gemini cache; send the cached contents inline.',
    { param: 'cachedContent' },
  );
}
