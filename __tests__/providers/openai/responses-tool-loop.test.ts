/**
 * Reasoning continuity through a Responses upstream: turn one's reasoning item (id and encrypted_content) comes back to
 * the upstream on turn two, for a Responses caller and a chat-completions caller.
 */
import { MemoryKeyStore, OpenAIProvider } from '../../../lib';
import { buildApp, listen, type Json, type RunningServer } from '../../helpers/app';
import { startMockOpenAIResponses, type MockOpenAIResponses } from '../../helpers/mock-openai-responses';

const KEY = 'sk-responses-tool-loop';
let mock: MockOpenAIResponses;
let server: RunningServer;

beforeAll(async () => {
  mock = await startMockOpenAIResponses();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new OpenAIProvider({ baseUrl: mock.url, responsesModels: () => true, reasoningModels: () => true })],
    models: [{ id: 'gpt-5', provider: 'openai', upstreamModel: 'tools' }],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

async function post(path: string, body: Json): Promise<string> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  expect(res.status).toBe(200);
  return raw;
}

function events(raw: string): Json[] {
  return raw
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Json);
}

/**
 * What turn two must send the upstream: turn one's reasoning item, as the upstream minted it, ahead of the call, and
 * the call under its own id.
 */
function expectReasoningBack(turnOne: number, summary: Json[]): void {
  const input = mock.requests.at(-1)!.body.input as Json[];
  const reasoning = input.filter((item) => item.type === 'reasoning');
  expect(reasoning).toEqual([
    { type: 'reasoning', id: `rs_mock${turnOne}`, summary, encrypted_content: `enc-${turnOne}` },
  ]);
  const at = input.indexOf(reasoning[0]!);
  expect(input[at + 1]).toMatchObject({
    type: 'function_call',
    call_id: 'call_w1',
    name: 'get_weather',
    arguments: '{"city":"Oslo"}',
  });
  expect(input.find((item) => item.type === 'function_call_output')).toEqual({
    type: 'function_call_output',
    call_id: 'call_w1',
    output: 'Sunny',
  });
}

describe.each([false, true])('a two-turn tool loop (stream: %s)', (stream) => {
  it('a Responses caller (Codex) resends the reasoning items it got back', async () => {
    const first = {
      model: 'gpt-5',
      stream,
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] }],
      tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER }],
    };
    const raw = await post('/v1/responses', first);
    const turnOne = mock.requests.length;
    const response = stream
      ? events(raw).find((event) => event.type === 'response.completed')!.response
      : JSON.parse(raw);
    const output = response.output as Json[];
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    // Codex keeps no state: it sends the whole history, with the items as it got them.
    await post('/v1/responses', {
      ...first,
      input: [
        ...first.input,
        ...output,
        { type: 'function_call_output', call_id: output[1]!.call_id, output: 'Sunny' },
      ],
    });
    expectReasoningBack(turnOne, [{ type: 'summary_text', text: 'Need the weather.' }]);
  });

  it('a chat-completions caller, whose tool-call id carries the reasoning', async () => {
    const messages: Json[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }];
    const raw = await post('/v1/chat/completions', { model: 'gpt-5', stream, messages, tools });
    const turnOne = mock.requests.length;
    let call: Json;
    if (stream) {
      const deltas = events(raw).flatMap((event) => event.choices?.[0]?.delta?.tool_calls ?? []);
      call = {
        id: deltas[0].id,
        type: 'function',
        function: {
          name: deltas[0].function.name,
          arguments: deltas.map((delta: Json) => delta.function.arguments ?? '').join(''),
        },
      };
    } else {
      call = JSON.parse(raw).choices[0].message.tool_calls[0];
    }
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    await post('/v1/chat/completions', {
      model: 'gpt-5',
      stream,
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'Sunny' },
      ],
    });
    expectReasoningBack(turnOne, []);
  });
});
