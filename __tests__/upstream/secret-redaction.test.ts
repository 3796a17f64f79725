/**
 * An upstream that sends its key back (in an error of any status, or inside a stream) never has it
 * relayed: each provider, each inbound protocol, streamed and not.
 */
import type http from 'node:http';
import { AnthropicProvider, GeminiProvider, OpenAIProvider } from '../../lib';
import { SecretRedactor } from '../../lib/upstream/redact';
import { serveGateway, TEST_KEY, testOptions, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

/** Keys that look like no known key format, so only the configured secrets can catch them. */
const SECRETS = {
  openai: 'corp$Gateway:Upstream~Alpha',
  anthropic: 'corp$Gateway:Upstream~Beta',
  gemini: 'corp$Gateway:Upstream~Gamma',
} as const;
type Upstream = keyof typeof SECRETS;

/** What the upstream keeps in its error body besides the message: never for the caller. */
const BODY_ONLY = 'body-only-diagnostic-7Q';

const STATUSES = [400, 404, 429, 500, 503] as const;

const sse = (response: http.ServerResponse, frames: string[]) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(frames.join(''));
};
const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** The upstream's message: the key it was sent, quoted back twice (once in the OpenAI wording the issue cites). */
const leak = (secret: string) =>
  `Incorrect API key provided: ${secret}. The request carried ${secret} (see your account).`;

/**
 * Model `fail-<status>`: that status with the key in the message; `stream-fail`: a stream that breaks with the key in
 * its error event.
 */
function mockOpenAI(): Promise<MockServer> {
  return startMockServer((body, _request, response) => {
    const model = String(body.model);
    const message = leak(SECRETS.openai);
    if (model.startsWith('fail-'))
      return json(response, Number(model.slice(5)), {
        error: { message, type: 'invalid_request_error', code: 'invalid_api_key', note: BODY_ONLY },
      });
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }],
    };
    sse(response, [
      `data: ${JSON.stringify(chunk)}\n\n`,
      `data: ${JSON.stringify({ error: { message, type: 'server_error', note: BODY_ONLY } })}\n\n`,
    ]);
  });
}

function mockAnthropic(): Promise<MockServer> {
  return startMockServer((body, _request, response) => {
    const model = String(body.model);
    const message = leak(SECRETS.anthropic);
    if (model.startsWith('fail-'))
      return json(response, Number(model.slice(5)), {
        type: 'error',
        error: { type: 'api_error', message, note: BODY_ONLY },
      });
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 5, output_tokens: 0 },
      },
    };
    sse(response, [
      `event: message_start\ndata: ${JSON.stringify(start)}\n\n`,
      `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } })}\n\n`,
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message, note: BODY_ONLY } })}\n\n`,
    ]);
  });
}

function mockGemini(): Promise<MockServer> {
  return startMockServer((_body, request, response) => {
    const model = /\/models\/([^:]+):/.exec(request.url!)?.[1] ?? '';
    const message = leak(SECRETS.gemini);
    if (model.startsWith('fail-')) {
      const status = Number(model.slice(5));
      return json(response, status, {
        error: { code: status, message, status: 'FAILED_PRECONDITION', details: [{ note: BODY_ONLY }] },
      });
    }
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, index: 0 }],
      modelVersion: model,
    };
    sse(response, [
      `data: ${JSON.stringify(chunk)}\n\n`,
      `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL', details: [{ note: BODY_ONLY }] } })}\n\n`,
    ]);
  });
}

const mocks: Partial<Record<Upstream, MockServer>> = {};
let gateway: RunningGateway;

beforeAll(async () => {
  mocks.openai = await mockOpenAI();
  mocks.anthropic = await mockAnthropic();
  mocks.gemini = await mockGemini();
  const retries = { max: 0 };
  gateway = await serveGateway(
    testOptions({
      providers: [
        new OpenAIProvider({ baseUrl: `${mocks.openai.origin}/v1`, apiKey: SECRETS.openai, retries }),
        new AnthropicProvider({ baseUrl: mocks.anthropic.origin, apiKey: SECRETS.anthropic, retries }),
        new GeminiProvider({ baseUrl: `${mocks.gemini.origin}/v1beta`, apiKey: SECRETS.gemini, retries }),
      ],
      models: (['openai', 'anthropic', 'gemini'] as const).flatMap((provider) =>
        [...STATUSES.map((status) => `fail-${status}`), 'stream-fail'].map((upstreamModel) => ({
          id: `${provider}-${upstreamModel}`,
          provider,
          upstreamModel,
        })),
      ),
    }),
  );
});
afterAll(async () => {
  await gateway.close();
  await Promise.all(Object.values(mocks).map((mock) => mock.close()));
});

type Inbound = 'openai' | 'anthropic' | 'gemini';

/** Calls the gateway in an inbound protocol and returns everything the caller can read. */
async function call(inbound: Inbound, model: string, stream: boolean): Promise<{ status: number; everything: string }> {
  const text = 'hello';
  const target: { path: string; headers: Record<string, string>; body: unknown } =
    inbound === 'openai'
      ? {
          path: '/v1/chat/completions',
          headers: { authorization: `Bearer ${TEST_KEY}` },
          body: { model, stream, messages: [{ role: 'user', content: text }] },
        }
      : inbound === 'anthropic'
        ? {
            path: '/v1/messages',
            headers: { 'x-api-key': TEST_KEY },
            body: { model, stream, max_tokens: 32, messages: [{ role: 'user', content: text }] },
          }
        : {
            path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
            headers: { 'x-goog-api-key': TEST_KEY },
            body: { contents: [{ role: 'user', parts: [{ text }] }] },
          };
  const response = await fetch(`${gateway.url}${target.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: JSON.stringify(target.body),
  });
  const body = await response.text();
  return { status: response.status, everything: `${JSON.stringify([...response.headers.entries()])}\n${body}` };
}

function expectNoSecret(everything: string): void {
  for (const secret of Object.values(SECRETS)) {
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(everything).not.toContain(encodeURIComponent(secret));
  }
  expect(everything).not.toContain(BODY_ONLY);
}

const upstreams: Upstream[] = ['openai', 'anthropic', 'gemini'];
const inbounds: Inbound[] = ['openai', 'anthropic', 'gemini'];

describe.each(upstreams)('the %s upstream, sending its key back', (upstream) => {
  it.each(STATUSES.flatMap((status) => inbounds.map((inbound) => [status, inbound] as const)))(
    'HTTP %d, called as %s, streamed and not: the key never reaches the caller',
    async (status, inbound) => {
      for (const stream of [false, true]) {
        const { status: answered, everything } = await call(inbound, `${upstream}-fail-${status}`, stream);
        expect(answered).toBeGreaterThanOrEqual(400);
        expectNoSecret(everything);
        expect(everything).toContain('[redacted]');
      }
    },
  );

  it.each(inbounds)(
    'an error event inside the stream, called as %s: the key never reaches the caller',
    async (inbound) => {
      const { status, everything } = await call(inbound, `${upstream}-stream-fail`, true);
      expect(status).toBe(200);
      expect(everything).toContain('hi');
      expectNoSecret(everything);
      expect(everything).toContain('[redacted]');
    },
  );
});

describe('SecretRedactor', () => {
  it('removes configured secrets in every form, and what looks like a key', () => {
    const redactor = new SecretRedactor(['my/odd"secret']);
    const text = redactor.text('a my/odd"secret b my%2Fodd%22secret c my/odd\\"secret d');
    expect(text).toBe('a [redacted] b [redacted] c [redacted] d');
    const keyLike = new SecretRedactor([]).text(
      'sk-proj-abcdefgh12345678 sk-ant-api03-abcdefgh1234 gsk_abcdefgh12345678 AIzaSyA1234567890abcdefghijklmnopqrstu Bearer abc.def-123456 xai-abcdefgh12345 token: Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5',
    );
    expect(keyLike).not.toMatch(/abcdefgh|AIzaSy|abc\.def|Zm9vYmFy/);
    expect(keyLike).toContain('Bearer [redacted]');
  });

  it('leaves ordinary messages alone', () => {
    const message = 'The model `gpt-4o` does not exist or you do not have access to it. Please try again in 20s.';
    expect(new SecretRedactor(['some-configured-secret']).text(message)).toBe(message);
  });
});
