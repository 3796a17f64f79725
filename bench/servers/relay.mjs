/**
 * The thinnest relay in our stack: a minimal Express app that parses the JSON body
 * (express.json()) and forwards it to the upstream, answering with the upstream's bytes
 * (buffered for a completion, piped for a stream) written with Node's own response API.
 * The HTTP client is chosen by BENCH_CLIENT: `undici` (a Pool, pool.request — the floor),
 * `got`, `fetch` (Node's global fetch), or `undici-dispatch` (a Pool's lower-level dispatch with a
 * handler that collects the body, or writes each chunk of a stream straight to the response: no
 * Readable per call — the way the gateway itself calls undici; a reference, not the floor).
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express from 'express';

const require = createRequire(import.meta.url);
const { serve } = require('./instrument.cjs');

const CLIENT = process.env.BENCH_CLIENT ?? 'undici';
const UPSTREAM = new URL(process.env.BENCH_UPSTREAM ?? 'http://127.0.0.1:1/v1');
const CONNECTIONS = Number(process.env.BENCH_UPSTREAM_CONNECTIONS ?? 1024);
const BASE_PATH = UPSTREAM.pathname.replace(/\/+$/, '');
const TARGET = `${UPSTREAM.origin}${BASE_PATH}/chat/completions`;
const TARGET_PATH = new URL(TARGET).pathname;
/** The embeddings route relays `POST /v1/embeddings` to the upstream's `/embeddings` the same way (undici only). */
const EMBEDDINGS_PATH = `${BASE_PATH}/embeddings`;
const EMBED_PARSE = process.env.BENCH_EMBED_PARSE === '1';
const UPSTREAM_HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-upstream-bench' };

/** Each client: (body string, stream?) → { statusCode, contentType, body: Buffer | Readable }. */
async function makeClient(name) {
  if (name === 'undici') {
    const { Pool } = await import('undici');
    const pool = new Pool(UPSTREAM.origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
    return async (body, stream) => {
      const response = await pool.request({ path: TARGET_PATH, method: 'POST', headers: UPSTREAM_HEADERS, body });
      const contentType = response.headers['content-type'];
      if (stream) return { statusCode: response.statusCode, contentType, body: response.body };
      return { statusCode: response.statusCode, contentType, body: Buffer.from(await response.body.arrayBuffer()) };
    };
  }
  if (name === 'got') {
    const { default: got } = await import('got');
    const client = got.extend({
      agent: { http: new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }) },
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: false,
      headers: UPSTREAM_HEADERS,
    });
    return async (body, stream) => {
      if (!stream) {
        const response = await client.post(TARGET, { body, responseType: 'buffer' });
        return { statusCode: response.statusCode, contentType: response.headers['content-type'], body: response.body };
      }
      const upstream = client.stream.post(TARGET, { body });
      const response = await new Promise((resolve, reject) => {
        upstream.once('response', resolve);
        upstream.once('error', reject);
      });
      return { statusCode: response.statusCode, contentType: response.headers['content-type'], body: upstream };
    };
  }
  if (name === 'fetch') {
    return async (body, stream) => {
      const response = await fetch(TARGET, { method: 'POST', headers: UPSTREAM_HEADERS, body });
      const contentType = response.headers.get('content-type') ?? undefined;
      if (stream) return { statusCode: response.status, contentType, body: Readable.fromWeb(response.body) };
      return { statusCode: response.status, contentType, body: Buffer.from(await response.arrayBuffer()) };
    };
  }
  throw new Error(`BENCH_CLIENT must be undici, got, fetch or undici-dispatch, not ${name}`);
}

/** `undici-dispatch`: relays one call through pool.dispatch, writing the answer itself. */
async function makeDispatchRelay() {
  const { Pool } = await import('undici');
  const pool = new Pool(UPSTREAM.origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  return (body, stream, response) =>
    new Promise((resolve) => {
      const chunks = [];
      let statusCode = 502;
      let resumeUpstream;
      const resumeOnDrain = () => resumeUpstream();
      pool.dispatch(
        { path: TARGET_PATH, method: 'POST', headers: UPSTREAM_HEADERS, body },
        {
          onConnect() {},
          onHeaders(status, _rawHeaders, resume) {
            statusCode = status;
            resumeUpstream = resume;
            if (stream)
              response.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
            return true;
          },
          onData(chunk) {
            if (!stream) {
              chunks.push(chunk);
              return true;
            }
            if (response.write(chunk)) return true;
            response.once('drain', resumeOnDrain);
            return false;
          },
          onComplete() {
            if (stream) response.end();
            else {
              const answer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
              response.writeHead(statusCode, { 'content-type': 'application/json', 'content-length': answer.length });
              response.end(answer);
            }
            resolve();
          },
          onError(error) {
            if (!response.headersSent) {
              response.writeHead(502, { 'content-type': 'application/json' });
              response.end(
                JSON.stringify({ error: { message: `relay (${CLIENT}) failed: ${error?.message ?? error}` } }),
              );
            } else response.destroy();
            resolve();
          },
        },
      );
    });
}

const relayDispatch = CLIENT === 'undici-dispatch' ? await makeDispatchRelay() : undefined;
const send = relayDispatch ? undefined : await makeClient(CLIENT);
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.post(['/v1/chat/completions', '/chat/completions'], express.json({ limit: '32mb' }), async (request, response) => {
  const stream = request.body?.stream === true;
  if (relayDispatch) return relayDispatch(JSON.stringify(request.body), stream, response);
  try {
    const answer = await send(JSON.stringify(request.body), stream);
    if (!stream) {
      response.writeHead(answer.statusCode, {
        'content-type': answer.contentType ?? 'application/json',
        'content-length': answer.body.length,
      });
      response.end(answer.body);
      return;
    }
    response.writeHead(answer.statusCode, {
      'content-type': answer.contentType ?? 'text/event-stream',
      'cache-control': 'no-cache',
    });
    await pipeline(answer.body, response);
  } catch (error) {
    if (!response.headersSent) {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `relay (${CLIENT}) failed: ${error?.message ?? error}` } }));
    } else {
      response.destroy();
    }
  }
});

if (CLIENT === 'undici') {
  const { Pool } = await import('undici');
  const pool = new Pool(UPSTREAM.origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  app.post(['/v1/embeddings', '/embeddings'], express.json({ limit: '32mb' }), async (request, response) => {
    try {
      const upstream = await pool.request({
        path: EMBEDDINGS_PATH,
        method: 'POST',
        headers: UPSTREAM_HEADERS,
        body: JSON.stringify(request.body),
      });
      const bytes = Buffer.from(await upstream.body.arrayBuffer());
      // BENCH_EMBED_PARSE=1: a relay that reads the answer (every vector's numbers) and writes it again.
      const body = EMBED_PARSE ? Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8')))) : bytes;
      response.writeHead(upstream.statusCode, {
        'content-type': upstream.headers['content-type'] ?? 'application/json',
        'content-length': body.length,
      });
      response.end(body);
    } catch (error) {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `relay (${CLIENT}) failed: ${error?.message ?? error}` } }));
    }
  });
}

serve(http.createServer(app), { name: `relay-${CLIENT}` });
