/**
 * Request loops: hop headers on every upstream call, 508 in the caller's envelope when a call comes back, and the hop
 * cap.
 */
import type { IncomingHttpHeaders } from 'node:http';
import express, { type Express } from 'express';
import {
  AnthropicProvider,
  createGateway,
  type GatewayConfigError,
  GeminiProvider,
  OpenAIProvider,
  type GatewayOptions,
  type Provider,
} from '../../lib';
import { listen, TEST_KEY, testOptions, type Json, type RunningServer } from '../helpers/app';

/**
 * Requests a server saw, counted before its gateway; past `limit` it answers 500 itself, so a loop that is not caught
 * ends.
 */
interface CountedServer extends RunningServer {
  app: Express;
  calls: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function countedServer(limit = 10): Promise<CountedServer> {
  const app = express();
  const calls: IncomingHttpHeaders[] = [];
  app.use((request, response, next) => {
    if (request.method !== 'POST') return next();
    calls.push(request.headers);
    if (calls.length > limit) {
      response.status(500).json({ error: { message: 'loop not caught' } });
      return;
    }
    next();
  });
  const running = await listen(app);
  return { ...running, app, calls };
}

/** Mounts a gateway on a started server (its providers may point at that very server). */
function mount(server: CountedServer, options: GatewayOptions) {
  const gateway = createGateway(options);
  server.app.use(gateway);
  return gateway;
}

const servers: CountedServer[] = [];
const gateways: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const gateway of gateways.splice(0)) await gateway.close();
});

async function started(limit?: number): Promise<CountedServer> {
  const server = await countedServer(limit);
  servers.push(server);
  return server;
}

function gatewayOn(
  server: CountedServer,
  providers: Provider[],
  model: string,
  extra: Partial<GatewayOptions> = {},
): void {
  gateways.push(
    mount(
      server,
      testOptions({
        providers,
        models: [{ id: 'self', provider: providers[0]!.name, upstreamModel: model }],
        ...extra,
      }),
    ),
  );
}

async function post(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Json,
): Promise<{ status: number; body: Json; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? (JSON.parse(text) as Json) : {}, text };
}

const retries = { max: 2, baseDelayMs: 1 };
const messages = [{ role: 'user', content: 'hello' }];

describe('a gateway whose upstream base URL leads back to itself', () => {
  it('OpenAI provider, called as chat completions: 508 in the OpenAI envelope after exactly one nested call', async () => {
    const server = await started();
    gatewayOn(server, [new OpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: TEST_KEY, retries })], 'self');
    for (const stream of [false, true]) {
      server.calls.length = 0;
      const response = await post(
        server.url,
        '/v1/chat/completions',
        { authorization: `Bearer ${TEST_KEY}` },
        { model: 'self', stream, messages },
      );
      expect(response.status).toBe(508);
      expect(response.body.error).toMatchObject({ type: 'server_error', code: 'loop_detected' });
      expect(server.calls).toHaveLength(2);
      expect(server.calls[0]!['x-rosetta-hops']).toBeUndefined();
      expect(server.calls[1]!['x-rosetta-hops']).toBe('1');
      expect(server.calls[1]!['x-rosetta-gateway']).toMatch(/^gw_[0-9a-f]{16}$/);
    }
  });

  it('Anthropic provider, called as Anthropic messages: 508 in the Anthropic envelope after exactly one nested call', async () => {
    const server = await started();
    gatewayOn(server, [new AnthropicProvider({ baseUrl: server.url, apiKey: TEST_KEY, retries })], 'self');
    for (const stream of [false, true]) {
      server.calls.length = 0;
      const response = await post(
        server.url,
        '/v1/messages',
        { 'x-api-key': TEST_KEY },
        { model: 'self', stream, max_tokens: 16, messages },
      );
      expect(response.status).toBe(508);
      expect(response.body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(response.body.error.message).toMatch(/loop/i);
      expect(server.calls).toHaveLength(2);
    }
  });

  it('Gemini provider, called as Gemini generateContent: 508 in the Gemini envelope after exactly one nested call', async () => {
    const server = await started();
    gatewayOn(server, [new GeminiProvider({ baseUrl: `${server.url}/v1beta`, apiKey: TEST_KEY, retries })], 'self');
    for (const action of ['generateContent', 'streamGenerateContent?alt=sse']) {
      server.calls.length = 0;
      const response = await post(
        server.url,
        `/v1beta/models/self:${action}`,
        { 'x-goog-api-key': TEST_KEY },
        { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
      );
      expect(response.status).toBe(508);
      expect(response.body.error).toMatchObject({ code: 508 });
      expect(response.body.error.message).toMatch(/loop/i);
      expect(server.calls).toHaveLength(2);
    }
  });

  it('a loop through two gateways (A → B → A) is caught when it comes back to A', async () => {
    const a = await started();
    const b = await started();
    gatewayOn(a, [new OpenAIProvider({ baseUrl: `${b.url}/v1`, apiKey: TEST_KEY, retries })], 'self');
    gatewayOn(b, [new OpenAIProvider({ baseUrl: `${a.url}/v1`, apiKey: TEST_KEY, retries })], 'self');
    const response = await post(
      a.url,
      '/v1/chat/completions',
      { authorization: `Bearer ${TEST_KEY}` },
      { model: 'self', messages },
    );
    expect(response.status).toBe(508);
    expect(response.body.error.code).toBe('loop_detected');
    expect(a.calls).toHaveLength(2);
    expect(b.calls).toHaveLength(1);
    expect(a.calls[1]!['x-rosetta-hops']).toBe('2');
    const ids = String(a.calls[1]!['x-rosetta-gateway']).split(', ');
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('chains of distinct gateways', () => {
  it('two gateways in one process, the first relaying to the second, answer normally', async () => {
    const front = await started();
    const back = await started();
    gateways.push(mount(back, testOptions()));
    gatewayOn(front, [new OpenAIProvider({ baseUrl: `${back.url}/v1`, apiKey: TEST_KEY, retries })], 'rosetta-echo');
    const response = await post(
      front.url,
      '/v1/chat/completions',
      { authorization: `Bearer ${TEST_KEY}` },
      { model: 'self', messages },
    );
    expect(response.status).toBe(200);
    expect(response.body.choices[0].message.content).toContain('hello');
    expect(back.calls).toHaveLength(1);
    expect(back.calls[0]!['x-rosetta-hops']).toBe('1');
    expect(back.calls[0]!['x-rosetta-gateway']).toMatch(/^gw_[0-9a-f]{16}$/);
  });

  it('caps hops: a request that has passed through maxHops gateways is refused with 508, one fewer is served', async () => {
    const server = await started();
    gateways.push(mount(server, testOptions({ maxHops: 2 })));
    const call = (hops: string) =>
      post(
        server.url,
        '/v1/chat/completions',
        { authorization: `Bearer ${TEST_KEY}`, 'x-rosetta-hops': hops, 'x-rosetta-gateway': 'gw_elsewhere' },
        { model: 'rosetta-echo', messages },
      );
    const refused = await call('2');
    expect(refused.status).toBe(508);
    expect(refused.body.error.code).toBe('loop_detected');
    expect((await call('1')).status).toBe(200);
  });

  it('the default cap is 5 hops', async () => {
    const server = await started();
    gateways.push(mount(server, testOptions()));
    const call = (hops: string) =>
      post(
        server.url,
        '/v1/messages',
        { 'x-api-key': TEST_KEY, 'x-rosetta-hops': hops },
        { model: 'rosetta-echo', max_tokens: 16, messages },
      );
    expect((await call('5')).status).toBe(508);
    expect((await call('4')).status).toBe(200);
  });

  it('refuses a request carrying more gateway ids than the cap, whatever its hop count says', async () => {
    const server = await started();
    gateways.push(mount(server, testOptions({ maxHops: 3 })));
    const response = await post(
      server.url,
      '/v1/chat/completions',
      { authorization: `Bearer ${TEST_KEY}`, 'x-rosetta-hops': '0', 'x-rosetta-gateway': 'gw_a, gw_b, gw_c' },
      { model: 'rosetta-echo', messages },
    );
    expect(response.status).toBe(508);
  });
});

describe('the maxHops option', () => {
  it.each([0, -1, 1.5, '5'])('refuses %p at creation', (maxHops) => {
    expect(() => createGateway({ ...testOptions(), maxHops: maxHops as number })).toThrow(
      expect.objectContaining({ code: 'ERR_GATEWAY_INVALID_OPTION', option: 'maxHops' }) as GatewayConfigError,
    );
  });
});
