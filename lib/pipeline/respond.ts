/**
 * Error answers: a thrown error becomes the caller's protocol's error envelope, or a cut connection once a stream has
 * started.
 */
import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { GatewayError, toGatewayError } from '../errors';
import { drainBody } from '../http/read-body';
import { leavesBodyUnread } from '../http/linger';
import { sendJson } from '../http/send';
import type { ErrorContext, ProtocolCodec } from '../protocols/types';
import { logRequest } from '../log';

/**
 * Answers a failed call with `codec.encodeError`: the kind's status, an `x-request-id`, the error's
 * own headers and `Retry-After` where it carries one. Anything not a `GatewayError` is `internal`.
 */
export function fail(
  codec: ProtocolCodec,
  context: ErrorContext,
  response: ServerResponse,
  thrown: unknown,
  started: number,
): void {
  const error = toGatewayError(thrown);
  if (error.kind === 'internal') logRequest('%s internal error: %O', context.requestId, error.cause ?? error);
  if (response.headersSent) {
    // A stream that broke beyond an error part: end the connection, never leave the caller waiting.
    if (!response.writableEnded) response.destroy();
    return;
  }
  const headers: Record<string, string> = { 'x-request-id': context.requestId, ...error.headers };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfter));
  sendJson(response, codec.encodeError(error, context), headers, leavesBodyUnread(response));
  if (logRequest.enabled)
    logRequest(
      '%s %s %d %s %sms',
      context.requestId,
      codec.name,
      error.status,
      error.kind,
      (performance.now() - started).toFixed(1),
    );
}

/**
 * The 405 of a gateway route asked with another method than `allowed`, in the codec's envelope (after the body is
 * drained).
 */
export async function refuseMethod(
  codec: ProtocolCodec,
  request: Request,
  response: Response,
  allowed: string,
  requestId: string,
  maxBodyBytes: number,
): Promise<void> {
  await drainBody(request, response, maxBodyBytes);
  const error = new GatewayError(
    'method_not_allowed',
    `${request.method} is not allowed on ${request.path}; use ${allowed}.`,
    { headers: { allow: allowed } },
  );
  fail(codec, { requestId }, response, error, performance.now());
}
