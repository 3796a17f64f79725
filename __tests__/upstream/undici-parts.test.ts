/** The gateway loads only the parts of undici it uses (lib/upstream/undici.ts), and falls back to the package. */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as undiciPackage from 'undici';
import { loadUndiciParts } from '../../lib/upstream/undici';

const root = join(__dirname, '..', '..');

describe('undici parts', () => {
  it('come from their own modules and are the package’s own classes (a layout change in undici fails here)', () => {
    const parts = loadUndiciParts();
    expect(parts.loadedFrom).toBe('modules');
    expect(parts.Pool).toBe(undiciPackage.Pool);
    expect(parts.Agent).toBe(undiciPackage.Agent);
    expect(parts.errors).toBe(undiciPackage.errors);
  });

  it('send a request through a Pool with the request API', async () => {
    const server = http.createServer((request, response) => response.end(`${request.method} ${request.url}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { Pool, request } = loadUndiciParts();
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const response = await request(pool, { path: '/v1/ping?x=1', method: 'GET' });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe('GET /v1/ping?x=1');
    } finally {
      await pool.close();
      server.close();
    }
  });

  it.each([
    ['a module is missing', (id: string) => (id === 'undici' ? undiciPackage : missing(id))],
    ['a module is not what it should be', (id: string) => (id === 'undici' ? undiciPackage : {})],
  ])('fall back to the package’s entry point when %s', (_case, load) => {
    const parts = loadUndiciParts(load);
    expect(parts.loadedFrom).toBe('package');
    expect(parts.Pool).toBe(undiciPackage.Pool);
    expect(parts.Agent).toBe(undiciPackage.Agent);
    expect(parts.errors).toBe(undiciPackage.errors);
    const dispatcher = { request: jest.fn(async () => 'answered') } as unknown as undiciPackage.Dispatcher;
    return expect(parts.request(dispatcher, { path: '/', method: 'GET' })).resolves.toBe('answered');
  });

  it('the built gateway, with an upstream provider and the media fetcher, does not load undici’s entry point (fetch, WebSocket, caches)', () => {
    // npm test builds dist first. A child process: Jest's module registry is not Node's require cache.
    const script = `
      const { createGateway, OpenAIProvider, AnthropicProvider, GeminiProvider } = require('./dist/cjs/index.js');
      const { MediaFetcher } = require('./dist/cjs/extend.js');
      const fetcher = new MediaFetcher();
      const gateway = createGateway({
        keys: [{ key: 'k-123456789' }],
        providers: [
          new OpenAIProvider({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'x' }),
          new AnthropicProvider({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' }),
          new GeminiProvider({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' }),
        ],
      });
      const loaded = Object.keys(require.cache).filter((file) => file.includes('/node_modules/undici/'));
      console.log(JSON.stringify({
        pool: loaded.some((file) => file.endsWith('/lib/dispatcher/pool.js')),
        entry: loaded.some((file) => file.endsWith('/undici/index.js')),
        fetch: loaded.some((file) => file.includes('/lib/web/')),
      }));
      gateway.close();
      fetcher.close();
    `;
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' }));
    expect(result).toEqual({ pool: true, entry: false, fetch: false });
  });
});

function missing(id: string): never {
  throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
}
