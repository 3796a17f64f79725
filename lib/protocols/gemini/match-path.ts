/** Gemini call paths: `/v1beta/models/{model}:{action}` and `/v1/models/{model}:{action}`. */
import type { CodecRoute, RouteMatch } from '../types';
import { BATCH_EMBED_CONTENTS, EMBED_CONTENT } from './embed';
import { COUNT_TOKENS, GENERATE_CONTENT, STREAM_GENERATE_CONTENT } from './routes';
import { percentDecode } from '../../percent-decode';

const ROOTS = ['/v1beta/models/', '/v1/models/'] as const;

/** The actions this codec serves, and the route each leads to. A new action is one line here. */
const ACTIONS: Readonly<Record<string, CodecRoute>> = Object.freeze({
  generateContent: GENERATE_CONTENT,
  streamGenerateContent: STREAM_GENERATE_CONTENT,
  countTokens: COUNT_TOKENS,
  embedContent: EMBED_CONTENT,
  batchEmbedContents: BATCH_EMBED_CONTENTS,
});

/**
 * Matches a call path. The model id may hold slashes (`vendor/x`, sent unencoded by the SDK) or be
 * percent-encoded; the action follows the last colon; a leading `models/` is dropped.
 * Params: `{ model, action }`.
 */
export function matchCallPath(path: string): RouteMatch | undefined {
  const root = ROOTS.find((prefix) => path.startsWith(prefix));
  if (!root) return undefined;
  const rest = percentDecode(path.slice(root.length));
  const colon = rest.lastIndexOf(':');
  if (colon === -1) return undefined;
  const action = rest.slice(colon + 1);
  const route = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!route) return undefined;
  const raw = rest.slice(0, colon);
  const model = raw.startsWith('models/') ? raw.slice('models/'.length) : raw;
  if (model.length === 0) return undefined;
  return { route, params: { model, action } };
}
