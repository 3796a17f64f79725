/** Reading credentials from the places the three protocols carry them. */
import type { IncomingHttpHeaders } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string' || value.length < 8 || value.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = value.slice(7).trim();
  return token.length > 0 ? token : undefined;
}

/** A single-valued header, or undefined (an empty or repeated header counts as absent). */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
