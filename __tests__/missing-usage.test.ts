/** Upstreams that report no usage: the call is charged an estimate, never zero. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnthropicProvider, GeminiProvider, OpenAIProvider, type GenerateRequest } from '../lib';

/** One loopback server answering each protocol's non-streamed call with the text "four words of output" and no usage at all. */
async function usagelessUpstream() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      let body: unknown;
      if (url.endsWith('/chat/completions')) {
        body = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'four words of output' }, finish_reason: 'stop' }] };
      } else if (url.startsWith('/v1/messages')) {
        body = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'four words of output' }], stop_reason: 'end_turn', stop_sequence: null };
      } else {
        body = { candidates: [{ content: { role: 'model', parts: [{ text: 'four words of output' }] }, finishReason: 'STOP', index: 0 }], modelVersion: 'm', responseId: 'r1' };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

const request: GenerateRequest = { model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say something in four words.' }] }] };
const context = () => ({ upstreamModel: 'm', signal: new AbortController().signal, requestId: 'req_1' });

describe('a non-streamed answer without usage figures is charged an estimate', () => {
  let upstream: Awaited<ReturnType<typeof usagelessUpstream>>;
  beforeAll(async () => {
    upstream = await usagelessUpstream();
  });
  afterAll(() => upstream.close());

  it.each([
    ['OpenAI-compatible', () => new OpenAIProvider({ baseUrl: `${upstream.origin}/v1` })],
    ['Anthropic', () => new AnthropicProvider({ baseUrl: upstream.origin, apiKey: 'k' })],
    ['Gemini', () => new GeminiProvider({ baseUrl: `${upstream.origin}/v1beta`, apiKey: 'k' })],
  ])('%s', async (_name, make) => {
    const provider = make();
    try {
      const response = await provider.generate(request, context());
      expect(response.choices[0]!.content).toEqual([{ type: 'text', text: 'four words of output' }]);
      expect(response.usage.inputTokens).toBeGreaterThan(5);
      expect(response.usage.outputTokens).toBe(4);
    } finally {
      await provider.close();
    }
  });
});
