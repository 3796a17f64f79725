/**
 * Reads a request's JSON body under a size limit and a nesting-depth limit. A body over the size limit is refused
 * with a 413 as soon as it is known to be (at once for a declared length); the answer goes out with
 * `connection: close` and the rest of the body is read and dropped, within bounds, before the connection closes
 * (./linger.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../errors';
import { exceedsJsonDepth, exceedsValueDepth } from './json-depth';
import { LINGER_LIMIT_MULTIPLE, stopReading } from './linger';

/**
 * Bytes of a body the gateway does not need (a request refused before its body was read) read and dropped before
 * the answer, so a small one leaves the connection open for the next request; a larger one is answered with
 * `connection: close` and dropped while the connection lingers.
 */
export const MAX_DRAIN_BYTES = 1024 * 1024;

/** Limits a body is read under. */
export interface BodyLimits {
  /** Largest body, in bytes. */
  maxBytes: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
}

function isJsonContentType(contentType: string): boolean {
  const parameters = contentType.indexOf(';');
  const mediaType = (parameters === -1 ? contentType : contentType.slice(0, parameters)).trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** A body a host's own parser already read (e.g. `app.use(express.json())` before the gateway). */
function preParsedBody(request: IncomingMessage): unknown {
  if (!request.readableEnded) return undefined;
  return (request as IncomingMessage & { body?: unknown }).body;
}

/**
 * Whether the request's body may be larger than `bytes`: its declared length is, or it declared none (chunked) and
 * is not read yet.
 */
export function mayBeLargerThan(request: IncomingMessage, bytes: number): boolean {
  const headers = request.headers;
  const declared = headers['content-length'];
  if (declared !== undefined) return Number(declared) > bytes && !request.readableEnded;
  return headers['transfer-encoding'] !== undefined && !request.readableEnded;
}

/** The declared `Content-Length`, or undefined (chunked, absent or unreadable). */
function declaredLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * The body's bytes. Over `limit` it rejects with a 413: at once when the declared length says so (nothing is
 * read), else as soon as the bytes read pass it. The request is paused then and marked for a lingering close that
 * drops at most `lingerBytes` more.
 */
function readRaw(request: IncomingMessage, limit: number, lingerBytes: number, keep = true): Promise<Buffer> {
  if (request.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if ((declaredLength(request) ?? 0) > limit) {
    stopReading(request, lingerBytes);
    return Promise.reject(tooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) {
        if (keep) chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      cleanup();
      request.pause();
      stopReading(request, lingerBytes);
      reject(tooLargeError(limit));
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new GatewayError('invalid_request', 'The request body could not be read.', { cause: error }));
    };
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

function tooLargeError(limit: number): GatewayError {
  return new GatewayError('request_too_large', `The request body is larger than the limit of ${limit} bytes.`, {
    code: 'request_too_large',
    headers: { connection: 'close' },
  });
}

function tooDeepError(maxDepth: number): GatewayError {
  return new GatewayError(
    'invalid_request',
    `The request body nests arrays and objects deeper than the limit of ${maxDepth} levels.`,
    { code: 'json_too_deep' },
  );
}

/**
 * Reads and parses a JSON object body. Errors, all in the caller's protocol once encoded:
 * 413 over the size limit, 415 for a non-JSON content type or a compressed body, 400 for an empty
 * body, malformed JSON, JSON nested deeper than the depth limit (`json_too_deep`, checked on the
 * raw bytes before parsing, or on a host's pre-parsed body), or JSON that is not an object.
 */
export async function readJsonBody(request: IncomingMessage, limits: BodyLimits): Promise<Record<string, unknown>> {
  const parsed = preParsedBody(request);
  if (parsed !== undefined) {
    if (exceedsValueDepth(parsed, limits.maxDepth)) throw tooDeepError(limits.maxDepth);
    return requireObject(parsed);
  }

  const contentType = request.headers['content-type'];
  const encoding = request.headers['content-encoding'];
  const badType = contentType !== undefined && !isJsonContentType(contentType);
  const badEncoding = encoding !== undefined && encoding.toLowerCase() !== 'identity';
  const raw = await readRaw(request, limits.maxBytes, limits.maxBytes * LINGER_LIMIT_MULTIPLE);
  if (badType) {
    throw new GatewayError(
      'unsupported_media_type',
      `Content-Type must be application/json, not '${contentType.split(';', 1)[0]}'.`,
    );
  }
  if (badEncoding)
    throw new GatewayError(
      'unsupported_media_type',
      `Content-Encoding '${encoding}' is not supported; send the body uncompressed.`,
    );
  if (raw.length === 0) throw new GatewayError('invalid_request', 'The request body is empty; send a JSON object.');
  if (exceedsJsonDepth(raw, limits.maxDepth)) throw tooDeepError(limits.maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError('invalid_request', `The request body is not valid JSON: ${(error as Error).message}`, {
      code: 'invalid_json',
    });
  }
  return requireObject(value);
}

function requireObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/**
 * Reads and discards a body (for requests answered without needing it: a 405, a refusal before the body is read).
 * One over {@link MAX_DRAIN_BYTES} is answered with `connection: close`, and the rest of it, up to a multiple of
 * `maxBodyBytes`, is dropped while the connection lingers.
 */
export function drainBody(request: IncomingMessage, response: ServerResponse, maxBodyBytes: number): Promise<void> {
  return readRaw(request, MAX_DRAIN_BYTES, maxBodyBytes * LINGER_LIMIT_MULTIPLE, false).then(
    () => undefined,
    () => {
      if (!request.readableEnded && !response.headersSent) response.setHeader('connection', 'close');
    },
  );
}
