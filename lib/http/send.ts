/** Writes encoded JSON responses with Node's own API (no Express response helpers on the hot path). */
import type { ServerResponse } from 'node:http';
import type { EncodedResponse } from '../protocols/types';

/** Sends an encoded response as JSON, unless the response has already started or the client is gone. */
export function sendJson(response: ServerResponse, encoded: EncodedResponse, extraHeaders?: Record<string, string>): void {
  if (response.headersSent || response.destroyed) return;
  const payload = JSON.stringify(encoded.body);
  response.statusCode = encoded.status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(payload));
  if (extraHeaders) for (const name in extraHeaders) response.setHeader(name, extraHeaders[name]!);
  if (encoded.headers) for (const name in encoded.headers) response.setHeader(name, encoded.headers[name]!);
  response.end(payload);
}
