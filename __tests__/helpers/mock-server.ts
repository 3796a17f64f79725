/**
 * The scaffolding every mock upstream shares: a loopback HTTP server that reads JSON bodies and counts aborted answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started mock: its origin, how many answers the client cut off, and close(). */
export interface MockServer {
  origin: string;
  readonly aborted: number;
  close(): Promise<void>;
}

/**
 * Serves `handle(body, request, response)` for every request on 127.0.0.1; `onClose` runs before the server closes.
 * `keepAliveTimeoutMs` is how long an idle connection stays open (Node's default, 5 s, unless given).
 */
export async function startMockServer(
  handle: (body: Record<string, unknown>, request: http.IncomingMessage, response: http.ServerResponse) => void,
  onClose?: () => void,
  keepAliveTimeoutMs?: number,
): Promise<MockServer> {
  const state = { aborted: 0 };
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      response.on('close', () => {
        if (!response.writableFinished) state.aborted++;
      });
      handle(raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, request, response);
    });
  });
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get aborted() {
      return state.aborted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        onClose?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
