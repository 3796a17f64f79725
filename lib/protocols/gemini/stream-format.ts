/** How a streamGenerateContent response is framed: server-sent events (`alt=sse`) or one streamed JSON array. */
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
  throw new GatewayError('invalid_request', `alt: '${alt}' is not supported by this gateway; use 'sse' or 'json'.`, {
    param: 'alt',
  });
}
