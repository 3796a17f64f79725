/**
 * Anthropic's rules for prompt-cache breakpoints, which a request bound for Claude must keep whatever its dialect (the
 * Anthropic API's own body, or a chat-completions body OpenRouter or LiteLLM relays to Claude):
 * - at most 4 blocks may carry `cache_control` ("A maximum of 4 blocks with cache_control may be provided. Found 5.":
 *   Wei-Shaw/sub2api#176, decolua/9router#3795, continuedev/continue#6937);
 * - a `ttl: "1h"` breakpoint must not come after a 5-minute one, in the order tools → system → messages ("a
 *   ttl='1h' cache_control block must not come after a ttl='5m' cache_control block": anthropics/claude-code#39599);
 *   a breakpoint without `ttl` is a 5-minute one.
 */
import createDebug from 'debug';
import type { JsonObject } from '../../json';
import { isJsonObject } from '../../json';
import { reportDrop, type Warn } from '../../warnings';
import { CACHE_CONTROL } from '../cache-control';

const log = createDebug('rosetta:provider');

/** The most blocks of one request that may carry `cache_control`. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** One block that carries a breakpoint: the array it stands in and its index there. */
export interface Breakpoint {
  holder: unknown[];
  index: number;
  /** In `messages` (the conversation), not in `tools` or `system`. */
  conversation: boolean;
}

/** The block at a breakpoint, replaced by a copy (the original may be a caller's extension object, shared). */
export function ownBlock(point: Breakpoint): JsonObject {
  const copy = { ...(point.holder[point.index] as JsonObject) };
  point.holder[point.index] = copy;
  return copy;
}

/**
 * At most {@link MAX_CACHE_BREAKPOINTS}: the conversation's earliest breakpoints are dropped first (the
 * later ones cache a longer prefix, and the tools' and system's stay valid when the conversation
 * changes), then the earliest of tools and system. Reported as a dropped setting.
 */
function limitCount(points: Breakpoint[], top: number, warn: Warn | undefined): Breakpoint[] {
  const excess = points.length + top - MAX_CACHE_BREAKPOINTS;
  if (excess <= 0) return points;
  const inConversation = points.filter((point) => point.conversation);
  const dropped = new Set([...inConversation, ...points.filter((point) => !point.conversation)].slice(0, excess));
  for (const point of dropped) delete ownBlock(point)[CACHE_CONTROL];
  reportDrop(log, warn, {
    type: 'unsupported-setting',
    setting: CACHE_CONTROL,
    details: `${points.length + top} cache breakpoints; Anthropic takes at most ${MAX_CACHE_BREAKPOINTS}, so the ${excess} earliest were not sent`,
  });
  return points.filter((point) => !dropped.has(point));
}

/** Whether a breakpoint lives one hour (`ttl: "1h"`); any other is a 5-minute one. */
const isLong = (cacheControl: unknown): boolean => isJsonObject(cacheControl) && cacheControl.ttl === '1h';

/** A 1-hour breakpoint after a 5-minute one becomes a 5-minute one (the cheaper write), reported. */
function orderLifetimes(points: Breakpoint[], warn: Warn | undefined): void {
  let shortSeen = false;
  let shortened = 0;
  for (const point of points) {
    const cacheControl = (point.holder[point.index] as JsonObject)[CACHE_CONTROL];
    if (!isLong(cacheControl)) shortSeen = true;
    else if (shortSeen) {
      ownBlock(point)[CACHE_CONTROL] = { ...(cacheControl as JsonObject), ttl: '5m' };
      shortened++;
    }
  }
  if (shortened > 0)
    reportDrop(log, warn, {
      type: 'unsupported-setting',
      setting: `${CACHE_CONTROL}.ttl`,
      details: `${shortened} one-hour cache breakpoint(s) after a five-minute one (Anthropic refuses that order) sent as five-minute ones`,
    });
}

/**
 * Makes breakpoints (in the order the prompt is read) valid, in place: at most {@link MAX_CACHE_BREAKPOINTS} with
 * `top` more elsewhere, and no 1-hour one after a 5-minute one. For an Anthropic body
 * (lib/providers/anthropic/cache-breakpoints.ts) and a chat body bound for Claude (lib/providers/openai/cache-markers.ts).
 */
export function keepValidBreakpoints(points: Breakpoint[], top: number, warn: Warn | undefined): void {
  orderLifetimes(limitCount(points, top, warn), warn);
}
