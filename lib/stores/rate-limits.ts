/** Rate-limit settings checked once (for options and key stores alike), and the token-bucket arithmetic of the stores. */
import type { KeyRateLimits, RateLimitCounter, RateLimits } from './types';

const LIMIT_NAMES = ['requestsPerMinute', 'tokensPerMinute', 'concurrent'] as const;
const KEY_LIMIT_NAMES = [...LIMIT_NAMES, 'models'] as const;

/** The default window every limit is counted over: a minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** What is wrong with one scope's limits (a path and a message), or undefined. */
function limitsProblem(value: unknown, path: string, names: readonly string[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `${path} must be an object such as { requestsPerMinute: 60, tokensPerMinute: 100000, concurrent: 4 }.`;
  for (const [name, limit] of Object.entries(value)) {
    if (!names.includes(name)) return `${path}.${name} is not a rate limit; use ${names.join(', ')}.`;
    if (name === 'models' || limit === null || limit === undefined) continue;
    if (!Number.isSafeInteger(limit) || (limit as number) <= 0)
      return `${path}.${name} must be a positive integer (or null for no limit), not ${describe(limit)}.`;
  }
  return undefined;
}

/**
 * Checks a key's (or the gateway's default) rate limits: each a positive integer or null, `models` an object of
 * such limits by model id. Returns what is wrong, naming the field under `path`, or undefined.
 */
export function rateLimitsProblem(value: unknown, path: string): string | undefined {
  const problem = limitsProblem(value, path, KEY_LIMIT_NAMES);
  if (problem) return problem;
  const models = (value as KeyRateLimits).models;
  if (models === undefined) return undefined;
  if (models === null || typeof models !== 'object' || Array.isArray(models))
    return `${path}.models must be an object of limits by model id, e.g. { "gpt-4o": { requestsPerMinute: 10 } }.`;
  for (const [model, limits] of Object.entries(models)) {
    const modelProblem = limitsProblem(limits, `${path}.models[${JSON.stringify(model)}]`, LIMIT_NAMES);
    if (modelProblem) return modelProblem;
  }
  return undefined;
}

/** Checks a deployment's own rate limits (each a positive integer or null); returns what is wrong, or undefined. */
export function limitsOnlyProblem(value: unknown, path: string): string | undefined {
  return limitsProblem(value, path, LIMIT_NAMES);
}

/** Limits over defaults, field by field (`null` in `over` lifts a default; `undefined` keeps it). */
export function mergeLimits(base: RateLimits | undefined, over: RateLimits | undefined): RateLimits {
  return { ...base, ...over };
}

/** A key's limits over the gateway's default: each field, and each model's entry field by field. */
export function mergeKeyLimits(base: KeyRateLimits | undefined, over: KeyRateLimits): KeyRateLimits {
  const { models: baseModels, ...baseOwn } = base ?? {};
  const { models: overModels, ...overOwn } = over;
  const merged: KeyRateLimits = mergeLimits(baseOwn, overOwn);
  if (baseModels || overModels) {
    const models: Record<string, RateLimits> = { ...baseModels };
    for (const [model, limits] of Object.entries(overModels ?? {})) models[model] = mergeLimits(models[model], limits);
    merged.models = models;
  }
  return merged;
}

/**
 * A token bucket of `limit` units refilled evenly over `windowMs`: `level` units left at time `at` (it may be below
 * zero after a call used more than its estimate). Plain numbers, so a store can keep it as it likes.
 */
export interface Bucket {
  level: number;
  at: number;
}

/** A full bucket at `now`. */
export function fullBucket(limit: number, now: number): Bucket {
  return { level: limit, at: now };
}

/** Refills a bucket up to `now` (never above `limit`). */
export function refill(bucket: Bucket, limit: number, windowMs: number, now: number): void {
  if (now > bucket.at) {
    bucket.level = Math.min(limit, bucket.level + ((now - bucket.at) * limit) / windowMs);
    bucket.at = now;
  } else if (bucket.level > limit) bucket.level = limit;
}

/** Milliseconds until a bucket holds `units` (0 when it does). */
export function waitFor(bucket: Bucket, units: number, limit: number, windowMs: number): number {
  return bucket.level >= units ? 0 : Math.ceil(((units - bucket.level) * windowMs) / limit);
}

/** A bucket as headers show it. */
export function counterOf(bucket: Bucket, limit: number, windowMs: number): RateLimitCounter {
  return {
    limit,
    remaining: Math.max(0, Math.floor(bucket.level)),
    resetMs: waitFor(bucket, limit, limit, windowMs),
  };
}

/** The tighter of two counters (the one with less left), for the headers of a call counted in several scopes. */
export function tighter(a: RateLimitCounter | undefined, b: RateLimitCounter): RateLimitCounter {
  return a === undefined || b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a;
}
