/**
 * Prompt-cache breakpoints on the wire: Anthropic's `cache_control` object, which OpenRouter and LiteLLM
 * also take on chat-completions content parts and tools, to and from the canonical {@link CacheControl}.
 */
import type { CacheControl } from '../canonical';
import { isJsonObject, type JsonObject } from '../json';

/** The wire name of a breakpoint, on a content block, a content part or a tool. */
export const CACHE_CONTROL = 'cache_control';

/**
 * A `cache_control` value as a canonical breakpoint: `{type: "ephemeral"}` with at most a `ttl` of
 * `5m` or `1h` (the two lifetimes Anthropic documents). Anything else is not one the gateway can say
 * again in another protocol: undefined, and the caller's value stays where it was (its extension).
 */
export function decodeCacheControl(value: unknown): CacheControl | undefined {
  if (!isJsonObject(value) || value.type !== 'ephemeral') return undefined;
  for (const key in value) if (key !== 'type' && key !== 'ttl') return undefined;
  if (value.ttl === undefined) return { type: 'ephemeral' };
  return value.ttl === '5m' || value.ttl === '1h' ? { type: 'ephemeral', ttl: value.ttl } : undefined;
}

/** A canonical breakpoint as the `cache_control` wire object. */
export function encodeCacheControl(cacheControl: CacheControl): JsonObject {
  return cacheControl.ttl ? { type: 'ephemeral', ttl: cacheControl.ttl } : { type: 'ephemeral' };
}

/**
 * Takes a breakpoint out of a wire object's unmodelled fields: the canonical breakpoint, and the
 * fields without it (undefined when nothing else is left). Fields whose `cache_control` is not a
 * breakpoint the gateway models are returned as they are.
 */
export function liftCacheControl(fields: JsonObject | undefined): {
  cacheControl?: CacheControl;
  fields?: JsonObject;
} {
  const cacheControl = fields ? decodeCacheControl(fields[CACHE_CONTROL]) : undefined;
  if (!cacheControl) return fields ? { fields } : {};
  const { [CACHE_CONTROL]: _lifted, ...rest } = fields!;
  return Object.keys(rest).length > 0 ? { cacheControl, fields: rest } : { cacheControl };
}
