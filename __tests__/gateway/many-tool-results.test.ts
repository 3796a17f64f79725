/**
 * A turn with very many tool calls and results (200,000 pairs, 28 MB, under the 32 MiB body limit) is answered by
 * every upstream, sent grouped (every call, then every result) as well as interleaved: each per-item step is linear
 * (no scan of earlier parts per result, no spread of a turn's items as arguments). Quadratic code takes minutes here
 * and fails on the test's timeout; a spread of 150,000 items threw "Maximum call stack size exceeded" (a 500).
 */
import type { ServerResponse } from 'node:http';
import { AnthropicProvider, GeminiProvider, LocalProvider, MemoryKeyStore, OpenAIProvider } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-many-results-0123456789';
const PAIRS = 200_000;

/** A fixed, minimal answer in each upstream protocol, whatever was asked. */
function answer(path: string, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answerBody(path)));
}

function answerBody(path: string): unknown {
  if (path.includes('/chat/completions'))
    return {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    };
  if (path.includes('/messages'))
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'done' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    };
  if (path.includes(':generateContent'))
    return {
      candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
    };
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'm',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'done', annotations: [] }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
  };
}

let upstream: MockServer;
let gateway: RunningGateway;
beforeAll(async () => {
  // Each call keeps this process busy for seconds (a 28 MB body decoded, translated, sent, and read by the mock in the
  // same process), so the mock's idle-connection timer (Node's 5 s) and undici's could fire in either order: closed
  // by the mock just as undici reused it, the next call's connection was reset, a 502 with retries off.
  upstream = await startMockServer(
    (_body, request, response) => answer(request.url ?? '', response),
    undefined,
    120_000,
  );
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ name: 'chat', baseUrl: `${upstream.origin}/v1`, ...common }),
      new OpenAIProvider({ name: 'responses', baseUrl: `${upstream.origin}/v1`, responsesModels: ['m'], ...common }),
      new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.origin, ...common }),
      new GeminiProvider({ name: 'gemini', baseUrl: `${upstream.origin}/v1beta`, ...common }),
    ],
    models: [
      { id: 'via-local', provider: 'local', upstreamModel: 'rosetta-echo' },
      { id: 'via-chat', provider: 'chat', upstreamModel: 'm' },
      { id: 'via-responses', provider: 'responses', upstreamModel: 'm' },
      { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'm' },
      { id: 'via-gemini', provider: 'gemini', upstreamModel: 'm' },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** A Responses body of `PAIRS` calls of one tool and their results, grouped or interleaved. */
function responsesBody(model: string, grouped: boolean): string {
  const input: unknown[] = [{ role: 'user', content: 'run the tool on every file' }];
  const call = (index: number) => ({ type: 'function_call', call_id: `call_${index}`, name: 'read', arguments: '{}' });
  const result = (index: number) => ({ type: 'function_call_output', call_id: `call_${index}`, output: 'ok' });
  if (grouped) {
    for (let index = 0; index < PAIRS; index++) input.push(call(index));
    for (let index = 0; index < PAIRS; index++) input.push(result(index));
  } else for (let index = 0; index < PAIRS; index++) input.push(call(index), result(index));
  const tools = [{ type: 'function', name: 'read', parameters: { type: 'object', properties: {} } }];
  return JSON.stringify({ model, input, tools, max_output_tokens: 16 });
}

/** An Anthropic body of one assistant turn of `PAIRS` tool_use blocks and one user turn of their results. */
function messagesBody(model: string): string {
  const uses: unknown[] = [];
  const results: unknown[] = [];
  for (let index = 0; index < PAIRS; index++) {
    uses.push({ type: 'tool_use', id: `toolu_${index}`, name: 'read', input: {} });
    results.push({ type: 'tool_result', tool_use_id: `toolu_${index}`, content: 'ok' });
  }
  return JSON.stringify({
    model,
    max_tokens: 16,
    tools: [{ name: 'read', input_schema: { type: 'object', properties: {} } }],
    messages: [
      { role: 'user', content: 'run the tool on every file' },
      { role: 'assistant', content: uses },
      { role: 'user', content: results },
    ],
  });
}

const post = (path: string, headers: Record<string, string>, body: string) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe.each(['via-local', 'via-chat', 'via-responses', 'via-anthropic', 'via-gemini'])('%s', (model) => {
  it('a Responses call with 200,000 grouped call/result pairs is answered', async () => {
    const response = await post('/v1/responses', { authorization: `Bearer ${KEY}` }, responsesBody(model, true));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe('response');
  }, 30_000);

  it('an Anthropic turn of 200,000 tool results after 200,000 calls is answered', async () => {
    const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    const response = await post('/v1/messages', headers, messagesBody(model));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { type: string }).type).toBe('message');
  }, 30_000);
});

it('the interleaved form is answered too (through the local model)', async () => {
  const response = await post('/v1/responses', { authorization: `Bearer ${KEY}` }, responsesBody('via-local', false));
  expect(response.status).toBe(200);
}, 30_000);
