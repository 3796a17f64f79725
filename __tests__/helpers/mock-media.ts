/** A mock media host on 127.0.0.1 (plain node:http): a real PNG, an HTML page, oversized bodies and redirects. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodePng } from '../../lib/providers/local/png';

/** A 4×3 PNG with a colour gradient: small, but a real file any decoder reads. */
export const PIXEL_PNG: Buffer = encodePng(
  4,
  3,
  Buffer.from(Array.from({ length: 4 * 3 * 3 }, (_value, index) => (index * 23) % 256)),
);

/** Bytes of the oversized bodies: more than the test providers' `imageDownload.maxBytes` (64 KiB). */
export const LARGE_BYTES = 200 * 1024;

/**
 * Paths:
 * - `/pixel.png`: {@link PIXEL_PNG} as `image/png` (with Content-Length).
 * - `/pixel.bin`: the same bytes as `application/octet-stream`.
 * - `/page.html`: an HTML page (`text/html`).
 * - `/large.png`: {@link LARGE_BYTES} of `image/png` announced by Content-Length.
 * - `/large-chunked.png`: the same, chunked (no Content-Length), in 16 KiB writes.
 * - `/redirect/<n>`: `n` redirects (302, relative Location) ending at `/pixel.png`.
 * - `/missing.png`: 404.
 * Anything else: 404.
 */
export interface MockMedia {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startMockMedia(): Promise<MockMedia> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const redirect = /^\/redirect\/(\d+)$/.exec(path);
    if (redirect) {
      const left = Number(redirect[1]);
      response.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/pixel.png' });
      return response.end();
    }
    switch (path) {
      case '/pixel.png':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PIXEL_PNG.length) });
        return response.end(PIXEL_PNG);
      case '/pixel.bin':
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return response.end(PIXEL_PNG);
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end('<!doctype html><title>Not an image</title>');
      case '/large.png':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(LARGE_BYTES) });
        return response.end(Buffer.alloc(LARGE_BYTES, 1));
      case '/large-chunked.png': {
        response.writeHead(200, { 'content-type': 'image/png' });
        const piece = Buffer.alloc(16 * 1024, 2);
        response.on('error', () => undefined);
        for (let sent = 0; sent < LARGE_BYTES; sent += piece.length) response.write(piece);
        return response.end();
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
