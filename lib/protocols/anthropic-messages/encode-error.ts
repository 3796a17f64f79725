/** GatewayError → the Anthropic error envelope `{type: "error", error: {type, message}, request_id}`. */
import type { GatewayError } from '../../errors';
import type { EncodedResponse } from '../types';

/** Anthropic's status for an overloaded service. */
const OVERLOADED_STATUS = 529;

const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** The HTTP status an error is answered with: the kind's, except `overloaded`, which Anthropic answers with 529. */
export function anthropicErrorStatus(error: GatewayError): number {
  return error.kind === 'overloaded' && error.status === 503 ? OVERLOADED_STATUS : error.status;
}

/** The `error.type` for an error: by kind where Anthropic has a dedicated type, otherwise by status. */
export function anthropicErrorType(error: GatewayError): string {
  if (error.kind === 'insufficient_quota') return 'billing_error';
  if (error.kind === 'overloaded') return 'overloaded_error';
  const status = anthropicErrorStatus(error);
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The error body (also used for the in-stream `error` event). */
export function anthropicErrorBody(error: GatewayError, requestId: string) {
  return {
    type: 'error' as const,
    error: {
      type: anthropicErrorType(error),
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
    request_id: requestId,
  };
}

/** The error response, with the `request-id` header Anthropic clients read. */
export function encodeAnthropicError(error: GatewayError, requestId: string): EncodedResponse {
  return {
    status: anthropicErrorStatus(error),
    headers: { 'request-id': requestId },
    body: anthropicErrorBody(error, requestId),
  };
}
