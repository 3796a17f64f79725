/**
 * The Responses API over WebSocket, attached to the host's HTTP server (Express middleware never sees an upgrade):
 * `GET /v1/responses` (or `/responses`) with `Upgrade: websocket`. The key is checked before the upgrade, as on an
 * HTTP call: a missing or bad key is an HTTP 401 in the Responses error envelope and no socket (never the key echoed);
 * a gateway shutting down a 503. The WebSocket protocol itself (RFC 6455 framing, ping / pong, close, backpressure) is
 * the `ws` package's.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request } from 'express';
import { type WebSocket, WebSocketServer } from 'ws';
import { GatewayError, toGatewayError } from '../../errors';
import { logRequest } from '../../log';
import type { ProtocolCodec } from '../../protocols/types';
import type { Principal } from '../../stores/types';
import { authenticate } from '../authenticate';
import type { RequestPipeline } from '../pipeline';
import { requestView } from '../routing';
import { ResponsesSocketSession } from './responses-socket';

/** Where the gateway is mounted and how often an idle socket is pinged. */
export interface WebSocketOptions {
  /** The path the gateway is mounted at in the host app (`app.use('/ai', gateway)`: `'/ai'`); default the root. */
  mountPath?: string;
  /** Milliseconds between pings; a peer that did not answer the last one is dropped. Default 30 000; 0: none. */
  pingIntervalMs?: number;
}

/** A server's WebSocket transport, as `gateway.attachWebSocket(server)` returns it. */
export interface WebSocketAttachment {
  /** Open Responses sockets. */
  readonly connections: number;
  /** Stops accepting upgrades and closes every open socket (a turn in progress is cancelled). */
  close(): void;
}

const RESPONSES_CODEC = 'openai-responses';
/** The create route's paths: the WebSocket mode is the create call's, never another Responses route's. */
const SOCKET_PATHS: ReadonlySet<string> = new Set(['/v1/responses', '/responses']);

/** Attaches the Responses WebSocket transport to `server`'s `upgrade` event. */
export function attachWebSocket(
  pipeline: RequestPipeline,
  server: Server,
  options: WebSocketOptions = {},
): WebSocketAttachment {
  const codec = pipeline.config.codecs.find((candidate) => candidate.name === RESPONSES_CODEC);
  if (!codec) throw new TypeError('the Responses codec is not registered');
  const mount = (options.mountPath ?? '').replace(/\/+$/, '');
  const sockets = new WebSocketServer({ noServer: true, maxPayload: pipeline.config.maxBodyBytes });
  const alive = new WeakSet<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = routedPath(request.url ?? '/', mount);
    const match = path !== undefined && SOCKET_PATHS.has(path) ? codec.match(path) : undefined;
    if (path === undefined || match?.route.operation !== 'generate') {
      // Another listener's upgrade; with none, a 404 rather than a socket left open.
      if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, codec, notServed(request), '');
      return;
    }
    void admit(pipeline, codec, request, path).then(
      (principal) => {
        sockets.handleUpgrade(request, socket, head, (ws) => {
          alive.add(ws);
          const session = new ResponsesSocketSession(
            pipeline,
            codec,
            match,
            request,
            path,
            {
              send: (text, sent) => ws.send(text, sent),
              get bufferedAmount() {
                return ws.bufferedAmount;
              },
              terminate: () => ws.terminate(),
            },
            principal,
          );
          ws.on('message', (data, binary) => session.receive(String(data), binary));
          ws.on('pong', () => alive.add(ws));
          ws.on('close', () => session.close());
          ws.on('error', (error) => logRequest('a Responses socket failed: %O', error));
        });
      },
      (thrown: unknown) => refuseUpgrade(socket, codec, toGatewayError(thrown), ''),
    );
  };
  server.on('upgrade', onUpgrade);
  const interval = options.pingIntervalMs ?? 30_000;
  const pinger =
    interval > 0
      ? setInterval(() => {
          for (const ws of sockets.clients) {
            if (!alive.has(ws)) {
              ws.terminate();
              continue;
            }
            alive.delete(ws);
            ws.ping();
          }
        }, interval).unref()
      : undefined;
  return {
    get connections() {
      return sockets.clients.size;
    },
    close() {
      server.off('upgrade', onUpgrade);
      if (pinger) clearInterval(pinger);
      for (const ws of sockets.clients) ws.close(1001, 'The gateway is shutting down.');
      sockets.close();
    },
  };
}

/** The shutdown check, `init`, and the key: what an HTTP call goes through before its body. */
async function admit(
  pipeline: RequestPipeline,
  codec: ProtocolCodec,
  request: IncomingMessage,
  path: string,
): Promise<Principal> {
  const lifecycle = pipeline.lifecycle;
  if (lifecycle.shutdownReason) throw lifecycle.shutdownReason;
  if (!lifecycle.initialized) await lifecycle.waitReady();
  return authenticate(pipeline.config.keyStore, codec, requestView(request as Request, path, undefined));
}

/** The path below the mount point, without the query; undefined when the request is not below it. */
function routedPath(url: string, mount: string): string | undefined {
  const queryStart = url.indexOf('?');
  let path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (mount) {
    if (path !== mount && !path.startsWith(`${mount}/`)) return undefined;
    path = path.slice(mount.length) || '/';
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function notServed(request: IncomingMessage): GatewayError {
  const path = (request.url ?? '/').split('?')[0];
  return new GatewayError('not_found', `This server has no WebSocket endpoint at ${path}.`);
}

/** An HTTP answer on the raw socket in the Responses error envelope, then the socket closed. */
function refuseUpgrade(socket: Duplex, codec: ProtocolCodec, error: GatewayError, requestId: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(codec.encodeError(error, { requestId }).body);
  const headers = [
    `HTTP/1.1 ${error.status} ${STATUS_TEXT[error.status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  if (error.retryAfter !== undefined) headers.push(`retry-after: ${Math.ceil(error.retryAfter)}`);
  if (error.status === 401) headers.push('www-authenticate: Bearer');
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};
