/** Reads a request's JSON body under a size limit, draining what is over it so the client sees the 413. */
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors';

/** After this many bytes past the limit the gateway stops draining and drops the connection. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

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

function readRaw(request: IncomingMessage, limit: number): Promise<Buffer> {
  if (request.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = false;
    const declared = Number(request.headers['content-length']);
    if (declared > limit) tooLarge = true;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (tooLarge || received > limit) {
        tooLarge = true;
        chunks.length = 0;
        if (received > limit + MAX_DRAIN_BYTES) {
          cleanup();
          request.destroy();
          reject(tooLargeError(limit));
        }
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (tooLarge) reject(tooLargeError(limit));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
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
  return new GatewayError('request_too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/**
 * Reads and parses a JSON object body. Errors, all in the caller's protocol once encoded:
 * 413 over the limit, 415 for a non-JSON content type or a compressed body, 400 for an empty body,
 * malformed JSON, or JSON that is not an object.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const parsed = preParsedBody(request);
  if (parsed !== undefined) return requireObject(parsed);

  const contentType = request.headers['content-type'];
  const encoding = request.headers['content-encoding'];
  const badType = contentType !== undefined && !isJsonContentType(contentType);
  const badEncoding = encoding !== undefined && encoding.toLowerCase() !== 'identity';
  const raw = await readRaw(request, limit);
  if (badType) {
    throw new GatewayError('unsupported_media_type', `Content-Type must be application/json, not '${contentType.split(';', 1)[0]}'.`);
  }
  if (badEncoding) throw new GatewayError('unsupported_media_type', `Content-Encoding '${encoding}' is not supported; send the body uncompressed.`);
  if (raw.length === 0) throw new GatewayError('invalid_request', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError('invalid_request', `The request body is not valid JSON: ${(error as Error).message}`, { code: 'invalid_json' });
  }
  return requireObject(value);
}

function requireObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Reads and discards a body (for requests answered without needing it, e.g. 405). */
export function drainBody(request: IncomingMessage): Promise<void> {
  return readRaw(request, 0).then(
    () => undefined,
    () => undefined,
  );
}
