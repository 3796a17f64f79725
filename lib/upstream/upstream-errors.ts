/** Upstream HTTP statuses → GatewayErrors, keeping the upstream's message but never its credentials. */
import { GatewayError } from '../errors';
import { SecretRedactor } from './redact';

/** Redacts only what looks like a credential: for text that no upstream client's own secrets were given for. */
export const KEY_LIKE_REDACTOR = new SecretRedactor([]);

/** The human message inside an upstream error body of any of the three protocols, or undefined. */
export function upstreamMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through
  }
  return undefined;
}

/**
 * The error a caller sees for an upstream status: 400 → 400 with the upstream's message;
 * 401/403 (the gateway's own upstream credentials) → 502; 404 → 404; 408 → 504; 413 → 413;
 * 429 → 429 with Retry-After; 529 and 503 → 503 overloaded; 508 (a gateway further on saw the
 * request loop back) → 508 `loop_detected`; other 5xx → 502. The upstream's message (at most
 * 2,000 characters) and the body kept in `cause` for logs (4,000) pass through `redactor` first.
 */
export function upstreamStatusError(
  status: number,
  text: string,
  upstream: string,
  retryAfter?: number,
  redactor: SecretRedactor = KEY_LIKE_REDACTOR,
): GatewayError {
  const message = upstreamMessage(text);
  // Redacted before it is cut, so no secret is cut in two with its first half kept.
  const detail = message ? `: ${redactor.text(message.slice(0, 4000)).slice(0, 2000)}` : '';
  const cause = { upstreamStatus: status, upstreamBody: redactor.text(text.slice(0, 8000)).slice(0, 4000) };
  const retry = retryAfter === undefined ? {} : { retryAfter };
  if (status === 401 || status === 403) {
    return new GatewayError(
      'upstream_auth',
      `The upstream ${upstream} rejected the gateway's credentials (HTTP ${status}); the gateway operator must fix its upstream key.`,
      { cause, code: 'upstream_auth_failed' },
    );
  }
  if (status === 404)
    return new GatewayError('not_found', `The upstream ${upstream} answered not found${detail}`, {
      cause,
      code: 'model_not_found',
    });
  if (status === 408)
    return new GatewayError('upstream_timeout', `The upstream ${upstream} timed out${detail}`, { cause });
  if (status === 413)
    return new GatewayError('request_too_large', `The upstream ${upstream} refused the request as too large${detail}`, {
      cause,
    });
  if (status === 429)
    return new GatewayError('rate_limit', `The upstream ${upstream} is rate limiting${detail}`, {
      cause,
      code: 'rate_limit_exceeded',
      ...retry,
    });
  if (status === 503 || status === 529)
    return new GatewayError('overloaded', `The upstream ${upstream} is overloaded${detail}`, { cause, ...retry });
  if (status === 508)
    return new GatewayError('loop_detected', `The upstream ${upstream} refused the call as a request loop${detail}`, {
      cause,
      code: 'loop_detected',
    });
  if (status >= 500)
    return new GatewayError('upstream', `The upstream ${upstream} failed (HTTP ${status})${detail}`, { cause });
  return new GatewayError('invalid_request', `The upstream ${upstream} rejected the request${detail}`, {
    cause,
    status: status === 422 ? 400 : status >= 400 && status < 500 ? 400 : 502,
  });
}
