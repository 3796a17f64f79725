/**
 * A host's own codec: a route per operation, typed by what it decodes and encodes, the decoded request handed to its
 * encoders.
 */
import request from 'supertest';
import {
  GatewayError,
  type CountTokensRoute,
  type GenerateRequest,
  type GenerateRoute,
  type ProtocolCodec,
} from '../../lib';
import { buildApp, testOptions, TEST_KEY } from '../helpers/app';

/**
 * A minimal protocol: `POST /plain/generate` and `/plain/count` with `{model, prompt}`; answers `{text}` and
 * `{tokens}`.
 */
function plainCodec(seen: {
  decoded?: GenerateRequest;
  encodedWith?: GenerateRequest;
  countedWith?: GenerateRequest;
}): ProtocolCodec {
  const decode = (body: unknown): GenerateRequest => {
    const { model, prompt } = body as { model?: unknown; prompt?: unknown };
    if (typeof model !== 'string' || typeof prompt !== 'string')
      throw new GatewayError('invalid_request', 'model and prompt are required strings.');
    const decoded: GenerateRequest = {
      model,
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    };
    seen.decoded = decoded;
    return decoded;
  };
  const generate: GenerateRoute = {
    operation: 'generate',
    decode: (http) => decode(http.body),
    encode: (response, request, call) => {
      seen.encodedWith = request;
      const text = response.choices[0]!.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { status: 200, body: { text, id: call.requestId } };
    },
  };
  const count: CountTokensRoute = {
    operation: 'count-tokens',
    decode: (http) => decode(http.body),
    encode: (inputTokens, request) => {
      seen.countedWith = request;
      return { status: 200, body: { tokens: inputTokens } };
    },
  };
  return {
    name: 'plain',
    match: (path) =>
      path === '/plain/generate'
        ? { route: generate, params: {} }
        : path === '/plain/count'
          ? { route: count, params: {} }
          : undefined,
    extractKey: (http) => (typeof http.headers['x-plain-key'] === 'string' ? http.headers['x-plain-key'] : undefined),
    encodeError: (error) => ({ status: error.status, body: { problem: error.message } }),
  };
}

describe('codec routes', () => {
  it("serves each operation through its own route, handing the decoded request to that route's encoder", async () => {
    const seen: Parameters<typeof plainCodec>[0] = {};
    const { app } = buildApp(testOptions({ codecs: [plainCodec(seen)] }));
    const answered = await request(app)
      .post('/plain/generate')
      .set('x-plain-key', TEST_KEY)
      .send({ model: 'rosetta-echo', prompt: 'hello routes' });
    expect(answered.status).toBe(200);
    expect(answered.body.text).toContain('hello routes');
    expect(answered.body.id).toBe(answered.headers['x-request-id']);
    expect(seen.encodedWith).toBe(seen.decoded);
    const counted = await request(app)
      .post('/plain/count')
      .set('x-plain-key', TEST_KEY)
      .send({ model: 'rosetta-echo', prompt: 'hello routes' });
    expect(counted.status).toBe(200);
    expect(counted.body.tokens).toBeGreaterThan(0);
    expect(seen.countedWith).toBe(seen.decoded);
  });

  it("a route without encodeStream answers a request to stream with a 400 in the codec's envelope, before any upstream call", async () => {
    const seen: Parameters<typeof plainCodec>[0] = {};
    const codec = plainCodec(seen);
    const streaming: ProtocolCodec = {
      ...codec,
      match: (path) => {
        const match = codec.match(path);
        if (match?.route.operation !== 'generate') return match;
        const route = match.route;
        return {
          ...match,
          route: { ...route, decode: (http, params) => ({ ...route.decode(http, params), stream: true }) },
        };
      },
    };
    const { app } = buildApp(testOptions({ codecs: [streaming] }));
    const res = await request(app)
      .post('/plain/generate')
      .set('x-plain-key', TEST_KEY)
      .send({ model: 'rosetta-echo', prompt: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.problem).toMatch(/does not stream/);
  });

  it('refuses at creation a codec without match, extractKey or encodeError', () => {
    const { match: _match, ...noMatch } = plainCodec({});
    expect(() => buildApp(testOptions({ codecs: [noMatch as ProtocolCodec] }))).toThrow(
      /'codecs\[0\]' must have a match\(\) method/,
    );
  });
});
