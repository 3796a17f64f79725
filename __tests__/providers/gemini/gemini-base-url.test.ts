/**
 * GeminiProvider's baseUrl with or without the API version: the root URL (GOOGLE_GEMINI_BASE_URL's form) gets /v1beta.
 */
import { MemoryKeyStore } from '../../../lib';
import { GeminiProvider } from '../../../lib/providers/gemini';
import { geminiBaseUrl } from '../../../lib/providers/gemini/base-url';
import { readJson, serveGateway, type RunningGateway } from '../../helpers/app';
import { startMockGemini, type MockGemini } from '../../helpers/mock-gemini';

const KEY = 'sk-gateway-caller-base-url';
const UPSTREAM_KEY = 'AIzaSyUpstreamSecretBaseUrl0123456789';

let mock: MockGemini;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockGemini({ apiKey: UPSTREAM_KEY });
  const root = mock.url.replace(/\/v1beta$/, '');
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new GeminiProvider({ name: 'versioned', baseUrl: mock.url, apiKey: UPSTREAM_KEY }),
      new GeminiProvider({ name: 'root', baseUrl: root, apiKey: UPSTREAM_KEY }),
      new GeminiProvider({ name: 'root-slash', baseUrl: `${root}/`, apiKey: UPSTREAM_KEY }),
    ],
    models: ['versioned', 'root', 'root-slash'].map((provider) => ({
      id: `via-${provider}`,
      provider,
      upstreamModel: 'echo',
    })),
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

describe('GeminiProvider baseUrl', () => {
  it.each(['via-versioned', 'via-root', 'via-root-slash'])(
    '%s: calls /v1beta/models/{model}:generateContent and streamGenerateContent',
    async (model) => {
      for (const stream of [false, true]) {
        const response = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hello upstream' }] }),
        });
        const text = stream ? await response.text() : JSON.stringify(await readJson(response));
        expect({ status: response.status, text }).toEqual({
          status: 200,
          text: expect.stringContaining(stream ? '" upstream"' : 'upstream says: hello upstream'),
        });
        expect(new URL(mock.requests.at(-1)!.url, 'http://mock').pathname).toBe(
          `/v1beta/models/echo:${stream ? 'streamGenerateContent' : 'generateContent'}`,
        );
      }
    },
  );

  it('appends /v1beta only where the URL names no version', () => {
    expect(geminiBaseUrl()).toBe('https://generativelanguage.googleapis.com/v1beta');
    expect(geminiBaseUrl('https://generativelanguage.googleapis.com')).toBe(
      'https://generativelanguage.googleapis.com/v1beta',
    );
    expect(geminiBaseUrl('https://generativelanguage.googleapis.com/')).toBe(
      'https://generativelanguage.googleapis.com/v1beta',
    );
    expect(geminiBaseUrl('https://generativelanguage.googleapis.com/v1beta')).toBe(
      'https://generativelanguage.googleapis.com/v1beta',
    );
    expect(geminiBaseUrl('https://generativelanguage.googleapis.com/v1/')).toBe(
      'https://generativelanguage.googleapis.com/v1',
    );
    expect(geminiBaseUrl('https://generativelanguage.googleapis.com/v1alpha')).toBe(
      'https://generativelanguage.googleapis.com/v1alpha',
    );
    expect(geminiBaseUrl('https://proxy.example/gemini')).toBe('https://proxy.example/gemini/v1beta');
    expect(geminiBaseUrl('https://proxy.example/v1beta-mirror')).toBe('https://proxy.example/v1beta-mirror/v1beta');
  });
});
