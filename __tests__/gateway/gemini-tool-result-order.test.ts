/**
 * Parallel tool results reach a Gemini upstream in the order of the calls they answer, whatever order the caller
 * sent them in (issue 34 item 5). Claude Code runs parallel `Read`s concurrently and returns each `tool_result` as it
 * finishes; chat-completions `tool` messages and Responses `function_call_output` items may come in any order too.
 * Gemini pairs a function response without an id with the next call of its name, so two results of one function sent
 * in the caller's order were silently attributed to each other's calls. Each inbound protocol here answers the mock's
 * two `read_file` calls in reverse order; the mock pairs as Gemini does and says which contents each call got.
 */
import { GeminiProvider, MemoryKeyStore } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import {
  startMockGeminiTwinCalls,
  TWIN_CALL_IDS,
  TWIN_FUNCTION,
  TWIN_PATHS,
  type MockGeminiTwinCalls,
} from '../helpers/mock-gemini-twin-calls';

const KEY = 'sk-gemini-order-0123456789';
const PROMPT = 'Read a.txt and b.txt.';
const PARAMETERS = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

let upstream: MockGeminiTwinCalls;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startMockGeminiTwinCalls();
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new GeminiProvider({ baseUrl: upstream.url, apiKey: 'AIza-order-test', retries: { max: 0 } })],
    models: [
      { id: 'twin', provider: 'gemini', upstreamModel: 'twin-read' },
      { id: 'twin-ids', provider: 'gemini', upstreamModel: 'twin-read-ids' },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function post(path: string, headers: Record<string, string>, body: Json): Promise<Json> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect({ status: response.status, text }).toEqual({ status: 200, text: expect.any(String) });
  return JSON.parse(text) as Json;
}

/** What the caller's tool read for a call with these arguments (JSON text or an object). */
function contentsFor(args: string | Json): string {
  const { path } = (typeof args === 'string' ? JSON.parse(args) : args) as { path: string };
  return `contents of ${path}`;
}

/** The answer of a mock that paired every response with its own call. */
const RIGHT_PAIRING = TWIN_PATHS.map((path) => `${path}: contents of ${path}`).join('; ');

/** The function responses of the last content the mock was sent, in order. */
function receivedResponses(): Json[] {
  const contents = upstream.requests.at(-1)!.contents as Json[];
  return (contents.at(-1)!.parts as Json[]).map((part) => part.functionResponse as Json);
}

/** Those responses as the calls they must answer in order: a.txt's contents first, then b.txt's. */
function expectResponsesInCallOrder(): void {
  expect(receivedResponses().map((response) => [response.name, response.response])).toEqual(
    TWIN_PATHS.map((path) => [TWIN_FUNCTION, { output: `contents of ${path}` }]),
  );
}

describe.each([
  ['twin', 'calls without ids'],
  ['twin-ids', 'calls with Gemini ids'],
])('model %s (%s)', (model) => {
  it('chat completions: tool messages in reverse order go to Gemini in call order', async () => {
    const tools = [{ type: 'function', function: { name: TWIN_FUNCTION, parameters: PARAMETERS } }];
    const user = { role: 'user', content: PROMPT };
    const chat = (messages: Json[]) =>
      post('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, { model, tools, messages });
    const assistant = (await chat([user])).choices[0].message as Json;
    expect(assistant.tool_calls).toHaveLength(2);
    const results = [...(assistant.tool_calls as Json[])]
      .reverse()
      .map((call) => ({ role: 'tool', tool_call_id: call.id, content: contentsFor(call.function.arguments) }));
    const answer = await chat([user, assistant, ...results]);
    expectResponsesInCallOrder();
    expect(answer.choices[0].message.content).toBe(RIGHT_PAIRING);
  });

  it('Responses: function_call_output items in reverse order go to Gemini in call order', async () => {
    const tools = [{ type: 'function', name: TWIN_FUNCTION, parameters: PARAMETERS }];
    const user = { role: 'user', content: PROMPT };
    const respond = (input: Json[]) =>
      post('/v1/responses', { authorization: `Bearer ${KEY}` }, { model, tools, input, store: false });
    const calls = ((await respond([user])).output as Json[]).filter((item) => item.type === 'function_call');
    expect(calls).toHaveLength(2);
    const outputs = [...calls]
      .reverse()
      .map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: contentsFor(call.arguments) }));
    const answer = await respond([user, ...calls, ...outputs]);
    expectResponsesInCallOrder();
    expect(answer.output_text ?? answer.output.at(-1).content[0].text).toBe(RIGHT_PAIRING);
  });

  it('Anthropic messages: tool_result blocks in completion order go to Gemini in call order', async () => {
    const tools = [{ name: TWIN_FUNCTION, input_schema: PARAMETERS }];
    const user = { role: 'user', content: PROMPT };
    const send = (messages: Json[]) =>
      post(
        '/v1/messages',
        { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
        { model, max_tokens: 64, tools, messages },
      );
    const uses = ((await send([user])).content as Json[]).filter((block) => block.type === 'tool_use');
    expect(uses).toHaveLength(2);
    const results = [...uses]
      .reverse()
      .map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: contentsFor(use.input) }));
    const answer = await send([user, { role: 'assistant', content: uses }, { role: 'user', content: results }]);
    expectResponsesInCallOrder();
    expect(answer.content[0].text).toBe(RIGHT_PAIRING);
  });
});

describe('a Gemini caller', () => {
  const tools = [{ functionDeclarations: [{ name: TWIN_FUNCTION, parameters: PARAMETERS }] }];
  const user = { role: 'user', parts: [{ text: PROMPT }] };
  const generate = (contents: Json[]) =>
    post('/v1beta/models/twin-ids:generateContent', { 'x-goog-api-key': KEY }, { contents, tools });

  it('functionResponses with ids in reverse order go to Gemini in call order, each with its call id', async () => {
    const modelContent = (await generate([user])).candidates[0].content as Json;
    const calls = (modelContent.parts as Json[]).map((part) => part.functionCall as Json);
    expect(calls.map((call) => call.id)).toEqual([...TWIN_CALL_IDS]);
    const responses = [...calls].reverse().map((call) => ({
      functionResponse: { id: call.id, name: call.name, response: { output: contentsFor(call.args) } },
    }));
    const answer = await generate([user, modelContent, { role: 'user', parts: responses }]);
    expectResponsesInCallOrder();
    expect(receivedResponses().map((response) => response.id)).toEqual([...TWIN_CALL_IDS]);
    expect(answer.candidates[0].content.parts[0].text).toBe(RIGHT_PAIRING);
  });

  it('functionResponses without ids keep their positions, which are their pairing', async () => {
    const modelContent = (await generate([user])).candidates[0].content as Json;
    const unnamed = {
      ...modelContent,
      parts: (modelContent.parts as Json[]).map(({ functionCall: { id: _id, ...call } }) => ({ functionCall: call })),
    };
    const responses = TWIN_PATHS.map((path) => ({
      functionResponse: { name: TWIN_FUNCTION, response: { output: `contents of ${path}` } },
    }));
    const answer = await generate([user, unnamed, { role: 'user', parts: responses }]);
    expectResponsesInCallOrder();
    expect(receivedResponses().every((response) => response.id === undefined)).toBe(true);
    expect(answer.candidates[0].content.parts[0].text).toBe(RIGHT_PAIRING);
  });
});
