/** Gemini's context-cache prices, as multiples of a model's input price (docs/operations.md, "Billing"). */
import type { CachePriceRatios } from '../types';
import { geminiModelFamily } from './model-family';

/**
 * Gemini 2.5 and later (and aliases): cached input (`cachedContentTokenCount`, implicit or explicit
 * caching) at 0.1× the input price; Gemini 2.0 and 1.5 at 0.25×. No call pays for a cache write:
 * implicit caching writes for free, and an explicit cache is created, and its storage billed by
 * the hour, outside the calls the gateway relays.
 */
export function geminiCachePriceRatios(upstreamModel: string): CachePriceRatios {
  const { version } = geminiModelFamily(upstreamModel);
  return version !== undefined && version < 2.5 ? OLDER : CURRENT;
}

const CURRENT: CachePriceRatios = Object.freeze({ cacheRead: 0.1, cacheWrite: 1, cacheWriteLong: 1 });
const OLDER: CachePriceRatios = Object.freeze({ cacheRead: 0.25, cacheWrite: 1, cacheWriteLong: 1 });
