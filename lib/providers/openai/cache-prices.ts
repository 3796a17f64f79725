/**
 * OpenAI's prompt-cache prices, as multiples of a model's input price, by model family (docs/operations.md,
 * "Billing"). Caching is automatic: a model reports the cached part of its input (`cached_tokens`), and
 * from GPT-5.6 on the part it wrote to the cache (`cache_write_tokens`), billed above plain input.
 */
import type { CachePriceRatios } from '../types';

const ratios = (cacheRead: number, cacheWrite: number): CachePriceRatios =>
  Object.freeze({ cacheRead, cacheWrite, cacheWriteLong: cacheWrite });

/** gpt-4o, o1, o3-mini, gpt-4.5 and older: cached input at half price. */
const HALF = ratios(0.5, 1);
/** gpt-4.1, o3, o4-mini: a quarter. */
const QUARTER = ratios(0.25, 1);
/** gpt-5 to gpt-5.5: a tenth; writes cost nothing extra. */
const TENTH = ratios(0.1, 1);
/** GPT-5.6 and later: a tenth, and writes at 1.25×. */
const TENTH_PAID_WRITE = ratios(0.1, 1.25);

/**
 * The ratios of an upstream model id (a `vendor/` prefix, as some OpenAI-compatible routers use, is
 * ignored). An id of no OpenAI family (an OpenAI-compatible server: DeepSeek, vLLM, OpenRouter…) reads
 * at a tenth, as the servers that report cached tokens discount them, and writes at the input price:
 * most bill no write premium, and a premium here would raise every hold on such a model by a quarter.
 * A host whose upstream bills writes above input (OpenRouter for Claude) sets the model's `cacheWrite`.
 */
export function openAICachePriceRatios(upstreamModel: string): CachePriceRatios {
  const id = upstreamModel.slice(upstreamModel.lastIndexOf('/') + 1).toLowerCase();
  if (id.startsWith('gpt-4.1')) return QUARTER;
  if (id.startsWith('o3-mini') || /^o1(-|$)/.test(id)) return HALF;
  if (/^o[34](-|$)/.test(id)) return QUARTER;
  const version = /^(?:chat)?gpt-(\d+(?:\.\d+)?)/.exec(id)?.[1];
  if (version === undefined) return TENTH;
  const number = Number(version);
  if (number < 5) return HALF;
  return number < 5.6 ? TENTH : TENTH_PAID_WRITE;
}
