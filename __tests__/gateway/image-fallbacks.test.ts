/** An image model's fallbacks are tried as a text model's are: a model whose provider fails is answered by the next. */
import { MemoryKeyStore, OpenAIProvider } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-image-fallbacks-0123456789';
let down: MockServer;
let up: MockOpenAI;
let server: RunningGateway;
const records: Array<Record<string, any>> = [];

beforeAll(async () => {
  down = await startMockServer((_body, _request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'down', type: 'server_error' } }));
  });
  up = await startMockOpenAI();
  const retries = { max: 0 };
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    usageSink: (record) => {
      records.push(record);
    },
    providers: [
      new OpenAIProvider({ name: 'down', baseUrl: `${down.origin}/v1`, apiKey: 'sk-upstream-down-0000', retries }),
      new OpenAIProvider({ name: 'up', baseUrl: `${up.url}/v1`, apiKey: 'sk-upstream-up-0000', retries }),
    ],
    models: [
      { id: 'painter', type: 'image', provider: 'down', upstreamModel: 'gpt-image-1', fallbacks: ['painter-b'] },
      { id: 'painter-b', type: 'image', provider: 'up', upstreamModel: 'gpt-image-1' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await down.close();
  await up.close();
});

it('a model whose provider answers 500 is answered by its fallback, and the record lists both attempts', async () => {
  const response = await fetch(`${server.url}/v1/images/generations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'painter', prompt: 'a square', n: 1, size: '256x256' }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: Array<{ b64_json: string }> };
  expect(body.data).toHaveLength(1);
  expect(up.requests.filter((request) => request.url.endsWith('/images/generations'))).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(records.at(-1)).toMatchObject({
    operation: 'image',
    model: 'painter',
    attempts: [
      { model: 'painter', provider: 'down', error: { kind: 'upstream', status: 502 } },
      { model: 'painter-b', provider: 'up' },
    ],
  });
});
