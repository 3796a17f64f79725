/**
 * Every upstream request of a call carries the call's context, whichever provider and operation sends it: the
 * gateway's request id (`x-request-id`), its hop headers, and the attempt's retry hint (0: the request is sent once).
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  AnthropicProvider,
  GeminiProvider,
  type GenerateRequest,
  type ImageRequest,
  OpenAIProvider,
  type ProviderCallContext,
} from '../../lib';
import { providerCallContext } from '../../lib/providers/call-context';
import { CallCancellation } from '../../lib/providers/cancellation';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const HOPS = { 'x-rosetta-hops': '1', 'x-rosetta-gateway': 'gw-test' };
let upstream: MockServer;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // Fails every request with a 500 that a retry could cure.
  upstream = await startMockServer((_body, request, response) => {
    seen.push(request.headers);
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'down', type: 'server_error', code: 500, status: 'INTERNAL' } }));
  });
});
afterAll(() => upstream.close());

const context = (): ProviderCallContext =>
  providerCallContext(new CallCancellation(), 'm', 'req_context_0001', HOPS, undefined, 0);
const retries = { max: 2, baseDelayMs: 1 };
const openai = () => new OpenAIProvider({ baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-up-0000', retries });
const gemini = () => new GeminiProvider({ baseUrl: `${upstream.origin}/v1beta`, apiKey: 'up-0000', retries });
const anthropic = () => new AnthropicProvider({ baseUrl: upstream.origin, apiKey: 'sk-ant-up-0000', retries });
const text: GenerateRequest = {
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};
const image: ImageRequest = {
  model: 'm',
  prompt: 'a square',
  n: 1,
  width: 256,
  height: 256,
  responseFormat: 'b64_json',
};
const drain = async (parts: AsyncIterable<unknown>) => {
  for await (const _part of parts);
};

const calls: Array<[string, () => Promise<unknown>]> = [
  ['OpenAI chat', () => openai().generate(text, context())],
  ['OpenAI chat, streamed', () => drain(openai().stream(text, context()))],
  ['OpenAI images', () => openai().generateImage(image, context())],
  ['OpenAI embeddings', () => openai().embed({ model: 'm', inputs: ['a'] }, context())],
  ['Anthropic messages', () => anthropic().generate(text, context())],
  ['Gemini generateContent', () => gemini().generate(text, context())],
  ['Gemini streamGenerateContent', () => drain(gemini().stream(text, context()))],
  ['Gemini batchEmbedContents', () => gemini().embed({ model: 'm', inputs: ['a'] }, context())],
];

it.each(calls)('%s: one request (retry hint 0) with the request id and the hop headers', async (_name, send) => {
  seen.length = 0;
  await expect(send()).rejects.toMatchObject({ status: 502 });
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ 'x-request-id': 'req_context_0001', ...HOPS });
});
