/**
 * The rate-limit headers OpenAI sends and its clients read (chat completions, Responses, images):
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, the reset as a duration such as `1s`, `6m0s` or `20ms`.
 */
import type { RateLimitState } from '../../stores/types';

/** A duration as OpenAI writes it: `20ms` under a second, else `[<h>h][<m>m]<s>s` (seconds with up to 3 decimals). */
export function openAIDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.round((ms % 60_000) / 10) / 100;
  return `${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${seconds}s`;
}

/** The headers of a call's rate-limit state, for each kind of limit that counts it (both: one object literal). */
export function openAIRateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { requests, tokens } = state;
  if (requests && tokens)
    return {
      'x-ratelimit-limit-requests': String(requests.limit),
      'x-ratelimit-remaining-requests': String(requests.remaining),
      'x-ratelimit-reset-requests': openAIDuration(requests.resetMs),
      'x-ratelimit-limit-tokens': String(tokens.limit),
      'x-ratelimit-remaining-tokens': String(tokens.remaining),
      'x-ratelimit-reset-tokens': openAIDuration(tokens.resetMs),
    };
  const headers: Record<string, string> = {};
  if (requests) {
    headers['x-ratelimit-limit-requests'] = String(requests.limit);
    headers['x-ratelimit-remaining-requests'] = String(requests.remaining);
    headers['x-ratelimit-reset-requests'] = openAIDuration(requests.resetMs);
  }
  if (tokens) {
    headers['x-ratelimit-limit-tokens'] = String(tokens.limit);
    headers['x-ratelimit-remaining-tokens'] = String(tokens.remaining);
    headers['x-ratelimit-reset-tokens'] = openAIDuration(tokens.resetMs);
  }
  return headers;
}
