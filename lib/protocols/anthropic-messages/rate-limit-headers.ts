/**
 * The rate-limit headers Anthropic sends and its clients read: `anthropic-ratelimit-{requests,tokens}-{limit,remaining,
 * reset}`, the reset as the RFC 3339 time the limit is fully replenished.
 */
import type { RateLimitState } from '../../stores/types';

/** The time `ms` from now in RFC 3339 (UTC, whole seconds, as Anthropic writes it: `2026-11-28T12:00:30Z`). */
function resetTime(ms: number): string {
  return new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The headers of a call's rate-limit state, for each kind of limit that counts it. */
export function anthropicRateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {};
  const { requests, tokens } = state;
  if (requests) {
    headers['anthropic-ratelimit-requests-limit'] = String(requests.limit);
    headers['anthropic-ratelimit-requests-remaining'] = String(requests.remaining);
    headers['anthropic-ratelimit-requests-reset'] = resetTime(requests.resetMs);
  }
  if (tokens) {
    headers['anthropic-ratelimit-tokens-limit'] = String(tokens.limit);
    headers['anthropic-ratelimit-tokens-remaining'] = String(tokens.remaining);
    headers['anthropic-ratelimit-tokens-reset'] = resetTime(tokens.resetMs);
  }
  return headers;
}
