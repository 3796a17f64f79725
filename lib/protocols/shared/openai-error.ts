/**
 * GatewayError → the OpenAI error envelope `{error: {message, type, param, code}}`, shared by the OpenAI protocols
 * (chat completions, images, Responses).
 */
import type { ErrorKind, GatewayError } from '../../errors';
import type { EncodedResponse } from '../types';

const TYPE_BY_KIND: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'invalid_request_error',
  permission: 'invalid_request_error',
  insufficient_quota: 'insufficient_quota',
  not_found: 'invalid_request_error',
  method_not_allowed: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'requests',
  internal: 'server_error',
  upstream: 'server_error',
  upstream_auth: 'server_error',
  upstream_timeout: 'server_error',
  overloaded: 'server_error',
  unavailable: 'server_error',
  loop_detected: 'server_error',
};

/** The error body (also used inside streams). */
export function openAIErrorBody(error: GatewayError) {
  return {
    error: {
      message: error.message,
      type: TYPE_BY_KIND[error.kind],
      param: error.param ?? null,
      code: error.code ?? null,
    },
  };
}

/** The error response in the OpenAI envelope, with the kind's status. */
export function encodeOpenAIError(error: GatewayError): EncodedResponse {
  return { status: error.status, body: openAIErrorBody(error) };
}
