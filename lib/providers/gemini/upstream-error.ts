/** Gemini-specific error mapping: an invalid gateway key (a 400 at Google) and errors sent inside a stream. */
import { GatewayError } from '../../errors';
import { upstreamStatusError } from '../../upstream/upstream-errors';

interface RpcErrorBody {
  error?: { message?: unknown; details?: unknown };
}

/**
 * Whether a Google RPC error body says the API key itself was refused: Google answers a bad key
 * with 400 INVALID_ARGUMENT and `details[].reason` `API_KEY_INVALID` (other `API_KEY_*` reasons too).
 */
export function isCredentialFailure(text: string): boolean {
  let body: RpcErrorBody;
  try {
    body = JSON.parse(text) as RpcErrorBody;
  } catch {
    return false;
  }
  const details = Array.isArray(body.error?.details) ? (body.error.details as Array<{ reason?: unknown }>) : [];
  if (details.some((detail) => typeof detail?.reason === 'string' && detail.reason.startsWith('API_KEY_'))) return true;
  const message = body.error?.message;
  return typeof message === 'string' && /api key (not valid|expired|invalid)/i.test(message);
}

function upstreamCause(error: GatewayError): { upstreamStatus?: number; upstreamBody?: string } | undefined {
  const cause = error.cause as { upstreamStatus?: unknown; upstreamBody?: unknown } | undefined;
  if (typeof cause !== 'object' || cause === null) return undefined;
  return {
    upstreamStatus: typeof cause.upstreamStatus === 'number' ? cause.upstreamStatus : undefined,
    upstreamBody: typeof cause.upstreamBody === 'string' ? cause.upstreamBody : undefined,
  };
}

/**
 * A 400 that is really the gateway's own Gemini key failing becomes the 502 `upstream_auth`
 * error (the caller cannot fix it); anything else is returned unchanged.
 */
export function remapCredentialFailure<T>(error: T, upstream: string): T | GatewayError {
  if (!(error instanceof GatewayError) || error.kind !== 'invalid_request') return error;
  const cause = upstreamCause(error);
  if (cause?.upstreamStatus !== 400 || !cause.upstreamBody || !isCredentialFailure(cause.upstreamBody)) return error;
  return new GatewayError(
    'upstream_auth',
    `The upstream ${upstream} rejected the gateway's credentials (API key not valid); the gateway operator must fix its upstream key.`,
    {
      cause: error.cause,
      code: 'upstream_auth_failed',
    },
  );
}

/**
 * An `{error: {code, message, status}}` event inside a stream → the GatewayError its status code maps to (no usable
 * code → 502).
 */
export function streamEventError(error: { code?: unknown }, data: string, upstream: string): GatewayError {
  const status = typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : 500;
  return remapCredentialFailure(upstreamStatusError(status, data, upstream), upstream);
}
