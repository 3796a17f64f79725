/** Anthropic's prompt-cache prices, as multiples of a Claude model's input price (docs/operations.md, "Billing"). */
import type { CachePriceRatios } from '../types';

/**
 * The same for every Claude model: a cache read costs 0.1× the input price, a cache write 1.25×
 * with the default 5-minute TTL and 2× with the 1-hour TTL.
 */
export const ANTHROPIC_CACHE_PRICE_RATIOS: CachePriceRatios = Object.freeze({
  cacheRead: 0.1,
  cacheWrite: 1.25,
  cacheWriteLong: 2,
});
