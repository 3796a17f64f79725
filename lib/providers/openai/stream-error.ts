/** An error chunk inside a chat-completions stream → the GatewayError it stands for. */
import { GatewayError } from '../../errors';
import { upstreamMessage, upstreamStatusError } from '../../upstream/upstream-errors';

/**
 * The fields of an in-stream `error` object that say what failed (OpenAI: `type`/`code`; OpenRouter: a numeric `code`).
 */
interface StreamErrorFields {
  code?: unknown;
  type?: unknown;
  status?: unknown;
}

/** `error.type`/`error.code` strings OpenAI and compatible servers use for rate limits (protocols.md 1.9). */
const RATE_LIMIT_LABELS: ReadonlySet<string> = new Set([
  'rate_limit_exceeded',
  'rate_limit_error',
  'requests',
  'tokens',
  'too_many_requests',
]);

function httpStatus(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 400 && number <= 599 ? number : undefined;
}

/**
 * The error an upstream reported after its stream began. A numeric HTTP-like `code` (OpenRouter
 * sends `{error: {code: 502, message}}`) maps as that status would before the stream (503/529 →
 * overloaded, 429 → rate limit, …); otherwise an `overloaded` type or code → overloaded, a
 * rate-limit type or code → rate limit, anything else → a 502 upstream error.
 */
export function chatStreamError(error: unknown, data: string, upstream: string): GatewayError {
  const fields: StreamErrorFields = typeof error === 'object' && error !== null ? (error as StreamErrorFields) : {};
  const status = httpStatus(fields.code) ?? httpStatus(fields.status);
  if (status !== undefined) return upstreamStatusError(status, data, upstream);
  const message = `The upstream ${upstream} failed mid-stream: ${upstreamMessage(data) ?? (typeof error === 'string' ? error : 'unknown error')}`;
  const labels = [fields.type, fields.code]
    .filter((label): label is string => typeof label === 'string')
    .map((label) => label.toLowerCase());
  if (labels.some((label) => label.includes('overload')))
    return new GatewayError('overloaded', message, { cause: error });
  if (labels.some((label) => RATE_LIMIT_LABELS.has(label)))
    return new GatewayError('rate_limit', message, { cause: error, code: 'rate_limit_exceeded' });
  return new GatewayError('upstream', message, { cause: error });
}
