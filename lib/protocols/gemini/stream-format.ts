/** How a streamGenerateContent response is framed: server-sent events (`alt=sse`) or one streamed JSON array. */
import type { GenerateRequest } from '../../canonical';
import { GatewayError } from '../../errors';

/** `sse`: `data: <response>\n\n` events (what @google/genai asks for); `json-array`: `[<response>,\r\n<response>]`. */
export type GeminiStreamFormat = 'sse' | 'json-array';

/**
 * The format the `alt` query parameter asks for: `sse` → events; absent or `json` → the JSON array.
 * Other values (`proto`, `media`) are refused with a 400 naming `alt`, before anything is streamed.
 */
export function streamFormatOf(query: URLSearchParams): GeminiStreamFormat {
  const alt = query.get('alt');
  if (alt === null || alt === '' || alt.toLowerCase() === 'json') return 'json-array';
  if (alt.toLowerCase() === 'sse') return 'sse';
  throw new GatewayError('invalid_request', `alt: '${alt}' is not supported by this gateway; use 'sse' or 'json'.`, { param: 'alt' });
}

/**
 * The format of each decoded streaming request. The query is only visible to `decode`, and the
 * encoder gets the decoded request back (`EncodeContext.call`), so the format is kept beside that
 * object rather than in it: nothing of it reaches a provider.
 */
const formats = new WeakMap<GenerateRequest, GeminiStreamFormat>();

/** Records the format a decoded request's stream must be written in. */
export function rememberStreamFormat(request: GenerateRequest, format: GeminiStreamFormat): void {
  formats.set(request, format);
}

/** The format recorded for a request; `sse` (the SDK's form) when none was recorded. */
export function recalledStreamFormat(request: GenerateRequest | undefined): GeminiStreamFormat {
  return (request && formats.get(request)) ?? 'sse';
}
