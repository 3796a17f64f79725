/** Test helpers: build an Express app around a gateway, and start it on a loopback port. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { createGateway, type Gateway, type GatewayOptions } from '../../lib';

/** The key every helper app accepts, and a second, poorer one. */
export const TEST_KEY = 'sk-test-key-0123456789';
export const POOR_KEY = 'sk-poor-key-0123456789';
export const EMPTY_KEY = 'sk-empty-key-0123456789';

/** Default options: a rich key, a key with 50 credits, a key with 0 credits. */
export function testOptions(overrides: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    keys: [
      { key: TEST_KEY, id: 'rich', balance: 10_000_000 },
      { key: POOR_KEY, id: 'poor', balance: 50 },
      { key: EMPTY_KEY, id: 'empty', balance: 0 },
    ],
    ...overrides,
  };
}

/** An app with the gateway mounted at `mountPath` (default: the root). */
export function buildApp(
  options: GatewayOptions = testOptions(),
  mountPath?: string,
): { app: Express; gateway: Gateway } {
  const app = express();
  const gateway = createGateway(options);
  if (mountPath) app.use(mountPath, gateway);
  else app.use(gateway);
  return { app, gateway };
}

/** A started server and its base URL (`http://127.0.0.1:<port>`). Call `close()` when done. */
export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function listen(app: Express): Promise<RunningServer> {
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A gateway app listening on loopback; `close()` stops the server, then the gateway. */
export interface RunningGateway extends RunningServer {
  gateway: Gateway;
}

/** Builds an app around a gateway with these options (at `mountPath`, else the root) and starts it. */
export async function serveGateway(options: GatewayOptions, mountPath?: string): Promise<RunningGateway> {
  const { app, gateway } = buildApp(options, mountPath);
  const running = await listen(app);
  return {
    ...running,
    gateway,
    close: async () => {
      await running.close();
      await gateway.close();
    },
  };
}

/** A JSON body from fetch, loosely typed for assertions. */
export type Json = Record<string, any>;

export async function readJson(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

/** The `data:` payloads of an SSE body (`[DONE]` left out). */
export function dataEvents(text: string): Json[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) =>
      frame
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice('data: '.length),
    )
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Json);
}

/**
 * How many `AbortController`s a chat-completions call to `model` makes, non-streamed then streamed
 * (each call checked for success): `send` posts a body to the gateway's `/v1/chat/completions`.
 */
export async function abortControllersOfChatCalls(
  send: (body: Record<string, unknown>) => PromiseLike<{ status: number; text: string }>,
  model: string,
): Promise<number> {
  return countAbortControllers(async () => {
    const messages = [{ role: 'user', content: 'no controller' }];
    const plain = await send({ model, messages });
    expect(plain.status).toBe(200);
    const streamed = await send({ model, stream: true, messages });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('data: [DONE]');
  });
}

/**
 * Runs `calls` and returns how many `AbortController`s were made meanwhile (the global is swapped for a counting
 * subclass, then restored).
 */
export async function countAbortControllers(calls: () => Promise<void>): Promise<number> {
  const Original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      made += 1;
    }
  };
  try {
    await calls();
  } finally {
    globalThis.AbortController = Original;
  }
  return made;
}
