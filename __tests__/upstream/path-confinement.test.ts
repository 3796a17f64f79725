/**
 * Caller model ids never lead an upstream call outside its base path: refused with a 400 in the caller's envelope,
 * before any upstream call.
 */
import { AnthropicProvider, GatewayError, GeminiProvider, OpenAIProvider } from '../../lib';
import { UpstreamClient } from '../../lib/upstream/upstream-client';
import { serveGateway, TEST_KEY, testOptions, type Json, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

/** One loopback upstream for all three providers; it records every path and answers 404. */
let upstream: MockServer;
const paths: string[] = [];
let gateway: RunningGateway;

const BASES = { openai: '/openai/v1', anthropic: '/anthropic', gemini: '/gemini/v1beta' } as const;

beforeAll(async () => {
  upstream = await startMockServer((_body, request, response) => {
    paths.push(request.url!);
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { message: 'no such model', type: 'not_found_error', code: 404, status: 'NOT_FOUND' } }),
    );
  });
  gateway = await serveGateway(
    testOptions({
      providers: [
        new OpenAIProvider({
          baseUrl: `${upstream.origin}${BASES.openai}`,
          apiKey: 'openai-upstream-key',
          retries: { max: 0 },
        }),
        new AnthropicProvider({
          baseUrl: `${upstream.origin}${BASES.anthropic}`,
          apiKey: 'anthropic-upstream-key',
          retries: { max: 0 },
        }),
        new GeminiProvider({
          baseUrl: `${upstream.origin}${BASES.gemini}`,
          apiKey: 'gemini-upstream-key',
          retries: { max: 0 },
        }),
      ],
      models: [{ id: 'image-model', provider: 'openai', type: 'image' }],
      providerModelIds: true,
    }),
  );
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  paths.length = 0;
});

async function post(
  path: string,
  headers: Record<string, string>,
  body: Json,
): Promise<{ status: number; body: Json; text: string }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Json = {};
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed, text };
}

const messages = [{ role: 'user', content: 'hello' }];
const openai = (model: string, stream = false) =>
  post('/v1/chat/completions', { authorization: `Bearer ${TEST_KEY}` }, { model, messages, stream });
const anthropic = (model: string, stream = false) =>
  post('/v1/messages', { 'x-api-key': TEST_KEY }, { model, max_tokens: 16, messages, stream });
const images = (model: string) =>
  post('/v1/images/generations', { authorization: `Bearer ${TEST_KEY}` }, { model, prompt: 'a cat' });
const geminiPath = (encodedModel: string, action = 'generateContent') =>
  post(
    `/v1beta/models/${encodedModel}:${action}`,
    { 'x-goog-api-key': TEST_KEY },
    { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
  );

/** Every path the upstream saw stays below the base path of one provider, with no dot segment. */
function expectConfined(): void {
  for (const path of paths) {
    const decoded = decodeURIComponent(path.split('?')[0]!);
    expect(Object.values(BASES).some((base) => decoded.startsWith(`${base}/`))).toBe(true);
    expect(decoded.split('/')).not.toContain('..');
  }
}

describe('caller model ids that would escape an upstream path', () => {
  const escapes = [
    'gemini/../../../v1/chat/completions',
    'gemini/tunedModels/../../x',
    'gemini/models/../../../openai/v1/chat/completions',
    'gemini/./echo',
    'openai/../../x',
    'anthropic/../x',
  ];

  it.each(escapes)(
    'the Gemini route refuses %s (percent-encoded in the path) with a 400 and calls no upstream',
    async (model) => {
      for (const action of ['generateContent', 'streamGenerateContent']) {
        const response = await geminiPath(encodeURIComponent(model), action);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      }
      expect(paths).toEqual([]);
    },
  );

  it.each(escapes)(
    'chat completions, streamed or not, refuse the body model %s with a 400 in the OpenAI envelope',
    async (model) => {
      for (const stream of [false, true]) {
        const response = await openai(model, stream);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
      }
      expect(paths).toEqual([]);
    },
  );

  it.each(escapes)(
    'Anthropic messages, streamed or not, refuse the body model %s with a 400 in the Anthropic envelope',
    async (model) => {
      for (const stream of [false, true]) {
        const response = await anthropic(model, stream);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      }
      expect(paths).toEqual([]);
    },
  );

  it('the images route refuses an image model id with a .. segment', async () => {
    const response = await images('openai/../../v1/chat/completions');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
    expect(paths).toEqual([]);
  });
});

describe('model ids a provider does not allow, control characters, absurd length', () => {
  it.each([
    ['a / where the Gemini path has no room for one', 'gemini/tunedModels/a/b'],
    ['a second resource prefix', 'gemini/models/tunedModels/x'],
    ['a colon that would start another method', 'gemini/echo:countTokens'],
    ['a control character', 'openai/gpt\u0000x'],
    ['a newline', 'anthropic/claude\nx-injected: 1'],
    ['a backslash', 'openai/..\\..\\x'],
    ['more than 256 characters', `openai/${'a'.repeat(300)}`],
  ])('%s is a 400 through every inbound protocol, before any upstream call', async (_what, model) => {
    expect((await openai(model)).status).toBe(400);
    expect((await anthropic(model, true)).status).toBe(400);
    const gemini = await geminiPath(encodeURIComponent(model));
    expect(gemini.status).toBe(400);
    expect(gemini.body.error.status).toBe('INVALID_ARGUMENT');
    expect(paths).toEqual([]);
  });

  it('an overlong id is not echoed back', async () => {
    const response = await openai(`openai/${'z'.repeat(5000)}`);
    expect(response.status).toBe(400);
    expect(response.text).not.toContain('z'.repeat(300));
  });
});

describe('ids that are fine still reach the upstream, below its base path', () => {
  it('plain and resource-named Gemini ids, an OpenAI id with a slash, an Anthropic id', async () => {
    expect((await geminiPath('gemini%2Fecho')).status).toBe(404);
    expect((await openai('gemini/tunedModels/my-tuned-model')).status).toBe(404);
    expect((await openai('openai/meta-llama/Llama-3.1-8B')).status).toBe(404);
    expect((await anthropic('anthropic/claude-x')).status).toBe(404);
    expect(paths).toEqual([
      `${BASES.gemini}/models/echo:generateContent`,
      `${BASES.gemini}/tunedModels/my-tuned-model:generateContent`,
      `${BASES.openai}/chat/completions`,
      `${BASES.anthropic}/v1/messages`,
    ]);
    expectConfined();
  });

  it('a streamed call reaches the upstream below its base path too', async () => {
    const response = await openai('gemini/echo', true);
    expect(response.status).toBe(404);
    expect(paths).toEqual([`${BASES.gemini}/models/echo:streamGenerateContent?alt=sse`]);
  });
});

describe('UpstreamClient refuses a path that could leave its base path (a defence for every provider)', () => {
  const client = () => new UpstreamClient({ name: 'test', baseUrl: `${upstream.origin}/base/v1`, retries: { max: 0 } });

  it.each([
    '/../x',
    '/models/..%2F..%2Fx:generateContent',
    '/models/%2e%2e/x',
    '/a/%252e%252e/b',
    '/a/%25252E%25252E/b',
    '/a/./b',
    '/a\\..\\b',
    '/a?b=c',
    '/a#b',
    '/a b',
    'relative',
  ])('%s is refused with a 400 and never sent', async (path) => {
    const upstreamClient = client();
    try {
      const error = await upstreamClient
        .requestJson({ path, body: {}, signal: new AbortController().signal })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
      const streamed = await upstreamClient
        .stream(
          { path, body: {}, signal: new AbortController().signal },
          { onData: () => true, onEnd: () => undefined, onError: () => undefined },
        )
        .catch((thrown: unknown) => thrown);
      expect(streamed).toMatchObject({ kind: 'invalid_request', status: 400 });
      expect(paths).toEqual([]);
    } finally {
      await upstreamClient.close();
    }
  });

  it('a path below the base path is sent', async () => {
    const upstreamClient = client();
    try {
      await upstreamClient
        .requestJson({ path: '/models/a%2Fb:generateContent', body: {}, signal: new AbortController().signal })
        .catch(() => undefined);
      expect(paths).toEqual(['/base/v1/models/a%2Fb:generateContent']);
    } finally {
      await upstreamClient.close();
    }
  });
});
