/**
 * The Open Responses compliance checks that apply to a gateway, written for this gateway: the request shapes of the
 * public suite (basic text, streaming, system prompt, tool calling plain and streamed, image input, multi-turn), each
 * through the local provider and through a Responses upstream, with the response shape, the event order and sequence
 * numbers, and the error envelope checked by our own assertions.
 */
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, OpenAIProvider } from '../../../lib';
import { buildApp, listen, type Json, type RunningServer } from '../../helpers/app';
import { startMockOpenAIResponses, type MockOpenAIResponses } from '../../helpers/mock-openai-responses';
import { OPEN_RESPONSES_REQUIRED_FIELDS } from '../../helpers/open-responses';

const KEY = 'sk-open-responses-0123456789';
let mock: MockOpenAIResponses;
let server: RunningServer;

beforeAll(async () => {
  mock = await startMockOpenAIResponses();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 10_000_000 } }),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: mock.url, apiKey: 'sk-up', responsesModels: () => true }),
    ],
    models: [
      { id: 'rosetta-echo', provider: 'local' },
      { id: 'responses-echo', provider: 'openai', upstreamModel: 'echo' },
      { id: 'responses-tools', provider: 'openai', upstreamModel: 'tools' },
    ],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const WEATHER = {
  type: 'function',
  name: 'get_weather',
  description: 'Get the current weather for a location',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
    required: ['location'],
  },
};
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The suite's request shapes (the tool prompts name the tool, which is what makes the local model call it). */
const CASES: Array<{ name: string; body: Json; stream?: boolean; call?: boolean }> = [
  {
    name: 'basic text',
    body: { input: [{ type: 'message', role: 'user', content: 'Say hello in exactly 3 words.' }] },
  },
  {
    name: 'streaming',
    stream: true,
    body: { input: [{ type: 'message', role: 'user', content: 'Count from 1 to 5.' }] },
  },
  {
    name: 'system prompt',
    body: {
      input: [
        { type: 'message', role: 'system', content: 'You are a pirate. Always respond in pirate speak.' },
        { type: 'message', role: 'user', content: 'Say hello.' },
      ],
    },
  },
  {
    name: 'tool calling',
    call: true,
    body: { input: [{ role: 'user', content: 'Use get_weather for San Francisco.' }], tools: [WEATHER] },
  },
  {
    name: 'tool calling, streamed',
    call: true,
    stream: true,
    body: { input: [{ role: 'user', content: 'Use get_weather for San Francisco.' }], tools: [WEATHER] },
  },
  {
    name: 'image input',
    body: {
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What do you see in this image? Answer in one sentence.' },
            { type: 'input_image', image_url: PNG },
          ],
        },
      ],
    },
  },
  {
    name: 'multi-turn',
    body: {
      input: [
        { type: 'message', role: 'user', content: 'My name is Alice.' },
        { type: 'message', role: 'assistant', content: 'Hello Alice! Nice to meet you. How can I help you today?' },
        { type: 'message', role: 'user', content: 'What is my name?' },
      ],
    },
  },
];

function post(body: Json): Promise<Response> {
  return fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** What the schema asks of a response object and its items. */
function expectResponseShape(response: Json, status: string): void {
  for (const field of OPEN_RESPONSES_REQUIRED_FIELDS) expect(response).toHaveProperty(field);
  expect(response).toMatchObject({ object: 'response', status });
  expect(response.id).toMatch(/^resp_/);
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'])
    expect(typeof response[field]).toBe('number');
  expect(typeof response.service_tier).toBe('string');
  for (const tool of response.tools as Json[])
    expect(Object.keys(tool)).toEqual(expect.arrayContaining(['description', 'parameters', 'strict']));
  if (status !== 'in_progress') {
    expect(response.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      total_tokens: response.usage.input_tokens + response.usage.output_tokens,
      input_tokens_details: { cached_tokens: expect.any(Number) },
      output_tokens_details: { reasoning_tokens: expect.any(Number) },
    });
  }
  for (const item of response.output as Json[]) {
    if (item.type === 'message' || item.type === 'function_call') {
      expect(typeof item.id).toBe('string');
      expect(typeof item.status).toBe('string');
    }
    if (item.type === 'message')
      for (const part of item.content as Json[]) expect(part).toMatchObject({ type: 'output_text', annotations: [] });
  }
}

/** The events of a stream: each `event:` line, its data's `type`, the sequence numbers from 0. */
function streamEvents(text: string): Json[] {
  const events = text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = JSON.parse(lines.find((line) => line.startsWith('data: '))!.slice('data: '.length)) as Json;
      expect(data.type).toBe(event);
      return data;
    });
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  return events;
}

describe.each(['rosetta-echo', 'responses'])('the Open Responses checks, through %s', (upstream) => {
  it.each(CASES)('$name', async ({ body, stream, call }) => {
    const model = upstream === 'rosetta-echo' ? upstream : call ? 'responses-tools' : 'responses-echo';
    const res = await post({ model, ...body, stream: stream ?? false });
    expect(res.status).toBe(200);
    let response: Json;
    if (stream) {
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = streamEvents(await res.text());
      const types = events.map((event) => event.type as string);
      expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      for (const event of events.slice(0, 2)) expectResponseShape(event.response, 'in_progress');
      expect(types.at(-1)).toBe('response.completed');
      expect(types.filter((type) => type.startsWith('response.completed'))).toHaveLength(1);
      // Every item's added comes before its done, and items are numbered in order.
      const added = events.filter((event) => event.type === 'response.output_item.added');
      const done = events.filter((event) => event.type === 'response.output_item.done');
      expect(added.map((event) => event.output_index)).toEqual(done.map((event) => event.output_index));
      expect(added.map((event) => event.output_index)).toEqual(added.map((_, index) => index));
      if (call) {
        expect(added.some((event) => event.item.type === 'function_call')).toBe(true);
        expect(types).toContain('response.function_call_arguments.delta');
        expect(types).toContain('response.function_call_arguments.done');
        expect(done.some((event) => event.item.type === 'function_call')).toBe(true);
      }
      response = events.at(-1)!.response;
      // The final object's items are the done events' items; a reasoning item before a tool call gains its
      // encrypted_content there (the vendor needs it back in the tool loop), which its done event could not know yet.
      const withoutEncrypted = (item: Json) => ({ ...item, encrypted_content: undefined });
      expect(response.output.map(withoutEncrypted)).toEqual(done.map((event) => withoutEncrypted(event.item)));
    } else {
      response = (await res.json()) as Json;
    }
    expectResponseShape(response, 'completed');
    expect(response.output.length).toBeGreaterThan(0);
    if (call) expect(response.output.some((item: Json) => item.type === 'function_call')).toBe(true);
  });
});

describe('the error envelope', () => {
  it.each([
    ['a bad field', { model: 'rosetta-echo', input: 'hi', temperature: 'hot' }, 400],
    ['no input', { model: 'rosetta-echo' }, 400],
    ['an unknown model', { model: 'no-such-model', input: 'hi' }, 404],
  ])('%s: its status, with {error: {message, type, param, code}}', async (_name, body, status) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = (await res.json()) as Json;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(typeof error.message).toBe('string');
    expect(typeof error.type).toBe('string');
  });
});
