/**
 * Upstream timeouts: a streamed call waits `streamResponseMs` for the upstream's headers, a non-streamed call
 * `responseMs`.
 */
import { MemoryKeyStore, OpenAIProvider } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-timeouts-caller-0123456789';
let upstream: MockServer;
let server: RunningGateway;

beforeAll(async () => {
  // Never answers a streamed call; answers a non-streamed one after 400 ms.
  upstream = await startMockServer((body, _request, response) => {
    if (body.stream === true) return;
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-t',
          object: 'chat.completion',
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'late but fine' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 3 },
        }),
      );
    }, 400);
  });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new OpenAIProvider({
        baseUrl: `${upstream.origin}/v1`,
        retries: { max: 0 },
        timeouts: { streamResponseMs: 150, responseMs: 30_000 },
      }),
    ],
    models: [{ id: 'm', provider: 'openai', upstreamModel: 'm' }],
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

const chat = (stream: boolean) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });

it('a streamed call whose upstream sends no headers within streamResponseMs is a 504 in the caller envelope', async () => {
  const response = await chat(true);
  expect(response.status).toBe(504);
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/did not answer in time/);
});

it('a non-streamed call waits responseMs: a long generation is not cut by the streamed limit', async () => {
  const response = await chat(false);
  expect(response.status).toBe(200);
  expect(
    ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
  ).toBe('late but fine');
});
