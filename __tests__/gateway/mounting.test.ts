import http from 'node:http';
import express from 'express';
import request from 'supertest';
import { createGateway, MemoryKeyStore, type KeyStore } from '../../lib';
import { listen, TEST_KEY, testOptions } from '../helpers/app';

const chat = { model: 'rosetta-echo', messages: [{ role: 'user', content: 'hello' }] };

describe('mounting in a host app', () => {
  it('serves under a prefix and leaves other paths to the host', async () => {
    const app = express();
    app.use('/ai', createGateway(testOptions()));
    app.post('/v1/chat/completions', (_request, response) => {
      response.json({ host: true });
    });
    app.use((_request, response) => {
      response.status(404).json({ hostNotFound: true });
    });

    const mounted = await request(app)
      .post('/ai/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send(chat);
    expect(mounted.status).toBe(200);
    expect(mounted.body.object).toBe('chat.completion');
    const host = await request(app).post('/v1/chat/completions').send(chat);
    expect(host.body).toEqual({ host: true });
    const unknown = await request(app).get('/ai/v1/something-else');
    expect(unknown.body).toEqual({ hostNotFound: true });
  });

  it('works behind a host-wide JSON body parser and does not touch the host error handler', async () => {
    const app = express();
    app.use(express.json());
    const hostErrors: unknown[] = [];
    app.use(createGateway(testOptions()));
    app.post('/echo', (request, response) => {
      response.json(request.body);
    });
    app.use((error: unknown, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
      hostErrors.push(error);
      response.status(500).send('host error page');
    });
    const ok = await request(app).post('/v1/chat/completions').set('authorization', `Bearer ${TEST_KEY}`).send(chat);
    expect(ok.status).toBe(200);
    expect(ok.body.choices[0].message.content).toBe('hello');
    const bad = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'rosetta-echo' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('messages');
    const hostRoute = await request(app).post('/echo').send({ a: 1 });
    expect(hostRoute.body).toEqual({ a: 1 });
    expect(hostErrors).toEqual([]);
  });

  it('two gateways in one process are independent', async () => {
    const app = express();
    app.use('/a', createGateway({ keys: [{ key: 'key-for-a', balance: 1_000_000 }] }));
    app.use('/b', createGateway({ keys: [{ key: 'key-for-b', balance: 0 }] }));
    const a = await request(app).post('/a/v1/chat/completions').set('authorization', 'Bearer key-for-a').send(chat);
    expect(a.status).toBe(200);
    const crossed = await request(app)
      .post('/b/v1/chat/completions')
      .set('authorization', 'Bearer key-for-a')
      .send(chat);
    expect(crossed.status).toBe(401);
    const broke = await request(app).post('/b/v1/chat/completions').set('authorization', 'Bearer key-for-b').send(chat);
    expect(broke.status).toBe(403);
  });

  it('waits for an async store init before serving', async () => {
    let initialized = false;
    const inner = new MemoryKeyStore([{ key: 'late-key' }]);
    const keyStore: KeyStore = {
      init: () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            initialized = true;
            resolve();
          }, 150),
        ),
      authenticate: (key) => {
        if (!initialized) throw new Error('authenticate before init');
        return inner.authenticate(key);
      },
    };
    const app = express();
    const gateway = createGateway({ keyStore });
    app.use(gateway);
    const res = await request(app).post('/v1/chat/completions').set('authorization', 'Bearer late-key').send(chat);
    expect(res.status).toBe(200);
    await expect(gateway.ready).resolves.toBeUndefined();
  });

  it('a key store that fails to init makes calls 503, not a hang', async () => {
    const keyStore: KeyStore = {
      init: () => Promise.reject(new Error('cannot connect')),
      authenticate: () => undefined,
    };
    const app = express();
    app.use(createGateway({ keyStore }));
    const res = await request(app).post('/v1/chat/completions').set('authorization', 'Bearer x-key').send(chat);
    expect(res.status).toBe(503);
    expect(res.body.error.type).toBe('server_error');
  });

  it('after a failed init, a later request tries init again and is served once the store is back', async () => {
    let attempts = 0;
    const inner = new MemoryKeyStore([{ key: 'retry-key-1' }]);
    const keyStore: KeyStore = {
      init: () => (++attempts <= 2 ? Promise.reject(new Error('not yet')) : Promise.resolve()),
      authenticate: (key) => inner.authenticate(key),
    };
    const app = express();
    app.use(createGateway({ keyStore }));
    const first = await request(app).post('/v1/chat/completions').set('authorization', 'Bearer retry-key-1').send(chat);
    expect(first.status).toBe(503);
    const second = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer retry-key-1')
      .send(chat);
    expect(second.status).toBe(200);
    expect(attempts).toBe(3);
  });

  it('close() closes stores and providers', async () => {
    const closed: string[] = [];
    const keyStore: KeyStore = {
      authenticate: () => undefined,
      close: () => {
        closed.push('keys');
      },
    };
    const gateway = createGateway({
      keyStore,
      quotaStore: {
        reserve: () => ({ ok: false, reason: 'quota_exceeded' }),
        settle() {},
        release() {},
        close: () => {
          closed.push('quota');
        },
      },
    });
    await gateway.close();
    expect(closed.sort()).toEqual(['keys', 'quota']);
  });
  it('keeps the headers a host middleware set before it, and replaces only those it names itself', async () => {
    const app = express(); // x-powered-by stays on: Express sets it before any middleware runs
    app.use((_request, response, next) => {
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader('Content-Type', 'text/plain');
      response.setHeader('X-Request-Id', 'from-the-host');
      next();
    });
    app.use('/ai', createGateway(testOptions()));
    for (const sent of [
      await request(app).post('/ai/v1/chat/completions').set('authorization', `Bearer ${TEST_KEY}`).send(chat),
      await request(app).post('/ai/v1/chat/completions').send(chat),
    ]) {
      expect(sent.headers['access-control-allow-origin']).toBe('*');
      expect(sent.headers['x-powered-by']).toBe('Express');
      expect(sent.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(sent.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(sent.headers['content-length']).toBe(String(Buffer.byteLength(sent.text)));
    }
    const refused = await request(app).post('/ai/v1/chat/completions').send(chat);
    expect(refused.status).toBe(401);
    const rawHeaders = (refused as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
    expect(rawHeaders.filter((name) => name.toLowerCase() === 'x-request-id')).toHaveLength(1);
  });

  it('routes by the URL below the mount point: with a query string, a trailing slash, and an absolute-form target', async () => {
    const app = express();
    app.use('/ai', createGateway(testOptions()));
    app.use((_request, response) => {
      response.status(404).json({ hostNotFound: true });
    });
    const queried = await request(app)
      .post('/ai/v1/chat/completions/?trace=1')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send(chat);
    expect(queried.status).toBe(200);
    expect(queried.body.object).toBe('chat.completion');

    // A request line naming the whole URL (as sent to a proxy) is routed by its path too.
    const running = await listen(app);
    try {
      const { port } = new URL(running.url);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sent = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `${running.url}/ai/v1/chat/completions?trace=1`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, body }));
          },
        );
        sent.on('error', reject);
        sent.end(JSON.stringify(chat));
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).object).toBe('chat.completion');
    } finally {
      await running.close();
    }
  });

  it('parses the query string only for a codec that reads it', async () => {
    const app = express();
    app.use(createGateway(testOptions()));
    const Original = globalThis.URLSearchParams;
    let parsed = 0;
    globalThis.URLSearchParams = class extends Original {
      constructor(...init: ConstructorParameters<typeof URLSearchParams>) {
        super(...init);
        parsed += 1;
      }
    };
    try {
      const chatCall = await request(app)
        .post('/v1/chat/completions?trace=1')
        .set('authorization', `Bearer ${TEST_KEY}`)
        .send(chat);
      expect(chatCall.status).toBe(200);
      expect(parsed).toBe(0);
      const geminiCall = await request(app)
        .post(`/v1beta/models/rosetta-echo:generateContent?key=${TEST_KEY}`)
        .send({ contents: [{ parts: [{ text: 'hi' }] }] });
      expect(geminiCall.status).toBe(200);
      expect(parsed).toBeGreaterThan(0);
    } finally {
      globalThis.URLSearchParams = Original;
    }
  });

  it('gives every call its own request id', async () => {
    const app = express();
    app.use(createGateway(testOptions()));
    const ids = new Set<string>();
    for (let index = 0; index < 40; index++) {
      const sent = await request(app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${TEST_KEY}`)
        .send(chat);
      expect(sent.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      ids.add(sent.headers['x-request-id']);
    }
    expect(ids.size).toBe(40);
  });

  it('is a plain middleware: beside a host Router at the same mount, what it does not serve reaches the host', async () => {
    const gateway = createGateway(testOptions());
    expect(typeof gateway).toBe('function');
    expect((gateway as unknown as { stack?: unknown }).stack).toBeUndefined();
    const seen: string[] = [];
    const extra = express.Router();
    extra.use((request, _response, next) => {
      seen.push(request.path);
      next();
    });
    extra.get('/health', (_request, response) => {
      response.json({ healthy: true });
    });
    const app = express();
    app.use('/ai', gateway, extra);
    app.use((_request, response) => {
      response.status(404).json({ hostNotFound: true });
    });

    const ok = await request(app).post('/ai/v1/chat/completions').set('authorization', `Bearer ${TEST_KEY}`).send(chat);
    expect(ok.status).toBe(200);
    const health = await request(app).get('/ai/health');
    expect(health.body).toEqual({ healthy: true });
    const unknown = await request(app).get('/ai/elsewhere');
    expect(unknown.body).toEqual({ hostNotFound: true });
    expect(seen).toEqual(['/health', '/elsewhere']);
  });
});
