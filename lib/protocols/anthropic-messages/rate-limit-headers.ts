/**
 * The rate-limit headers Anthropic sends and its clients read: `anthropic-ratelimit-{requests,tokens}-{limit,remaining,
 * reset}`, the reset as the RFC 3339 time the limit is fully replenished.
 */
import type { RateLimitState } from '../../stores/types';

/**
 * The time `ms` from now in RFC 3339 (UTC, whole seconds, as Anthropic writes it: `2026-11-28T12:00:30Z`), formatted
 * once per second it names: calls in the same second share the text.
 */
class ResetClock {
  private second = Number.NaN;
  private text = '';

  at(ms: number): string {
    const second = Math.ceil((Date.now() + ms) / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    }
    return this.text;
  }
}

const requestsReset = new ResetClock();
const tokensReset = new ResetClock();

/** The headers of a call's rate-limit state, for each kind of limit that counts it (both: one object literal). */
export function anthropicRateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { requests, tokens } = state;
  if (requests && tokens)
    return {
      'anthropic-ratelimit-requests-limit': String(requests.limit),
      'anthropic-ratelimit-requests-remaining': String(requests.remaining),
      'anthropic-ratelimit-requests-reset': requestsReset.at(requests.resetMs),
      'anthropic-ratelimit-tokens-limit': String(tokens.limit),
      'anthropic-ratelimit-tokens-remaining': String(tokens.remaining),
      'anthropic-ratelimit-tokens-reset': tokensReset.at(tokens.resetMs),
    };
  const headers: Record<string, string> = {};
  if (requests) {
    headers['anthropic-ratelimit-requests-limit'] = String(requests.limit);
    headers['anthropic-ratelimit-requests-remaining'] = String(requests.remaining);
    headers['anthropic-ratelimit-requests-reset'] = requestsReset.at(requests.resetMs);
  }
  if (tokens) {
    headers['anthropic-ratelimit-tokens-limit'] = String(tokens.limit);
    headers['anthropic-ratelimit-tokens-remaining'] = String(tokens.remaining);
    headers['anthropic-ratelimit-tokens-reset'] = tokensReset.at(tokens.resetMs);
  }
  return headers;
}
