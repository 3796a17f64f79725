/** GatewayError → the Google RPC error envelope `{error: {code, message, status, details?}}`. */
import type { GatewayError } from '../../errors';
import type { EncodedResponse } from '../types';

/**
 * google.rpc status names by HTTP status. The Google API answers 405, 413 and 415 rarely or with other
 * statuses, so these three are our choice:
 * - 405 → `UNIMPLEMENTED`: the operation is not supported on that path (gRPC's code for an unsupported method);
 * - 413 → `INVALID_ARGUMENT`: Google itself answers an oversized payload with INVALID_ARGUMENT, and
 *   `RESOURCE_EXHAUSTED` would read as a quota problem that a retry might cure;
 * - 415 → `INVALID_ARGUMENT`: Google answers a body it cannot parse as JSON with INVALID_ARGUMENT.
 * A 403 for insufficient balance is `PERMISSION_DENIED`, as the contract makes it a 403.
 */
const STATUS_BY_HTTP: Readonly<Record<number, string>> = Object.freeze({
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
});

/** The google.rpc status name for an HTTP status (unlisted 4xx → `FAILED_PRECONDITION`, 5xx → `INTERNAL`). */
export function rpcStatus(httpStatus: number): string {
  return STATUS_BY_HTTP[httpStatus] ?? (httpStatus < 500 ? 'FAILED_PRECONDITION' : 'INTERNAL');
}

function details(error: GatewayError): Array<Record<string, unknown>> {
  const list: Array<Record<string, unknown>> = [];
  if (error.code)
    list.push({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: error.code.toUpperCase(),
      domain: 'rosetta-gateway',
    });
  // Google's own 429 says when to retry in the body: a RetryInfo detail (`"retryDelay": "43s"`), not a header.
  if (error.kind === 'rate_limit' && error.retryAfter !== undefined)
    list.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${Math.ceil(error.retryAfter)}s` });
  if (error.param)
    list.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: error.param, description: error.message }],
    });
  return list;
}

/** The error body (also what a stream error will carry). */
export function geminiErrorBody(error: GatewayError) {
  const extra = details(error);
  return {
    error: {
      code: error.status,
      message: error.message,
      status: rpcStatus(error.status),
      ...(extra.length > 0 ? { details: extra } : {}),
    },
  };
}

/** Encodes an error with its HTTP status. */
export function encodeGeminiError(error: GatewayError): EncodedResponse {
  return { status: error.status, body: geminiErrorBody(error) };
}
