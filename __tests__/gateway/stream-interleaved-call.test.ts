/**
 * Text or reasoning between a chat-completions tool call's argument fragments (a reasoning model that thinks, or
 * narrates, mid-call): the call stays open for the fragments after them, and the text and reasoning follow the call as
 * blocks of their own, so an Anthropic caller's stream keeps a valid block order and nothing is lost. Judges: the
 * Anthropic SDK's MessageStream, a strict reading of the Messages event order, and the OpenAI SDK's accumulator.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MemoryKeyStore, OpenAIProvider } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockStreamQuirks, type MockStreamQuirks, type ScriptEvent } from '../helpers/mock-stream-quirks';

const KEY = 'sk-stream-interleaved-caller';
const WEATHER = { city: 'Oslo', unit: 'celsius' };

const head = { id: 'chatcmpl-mid', object: 'chat.completion.chunk', created: 1_790_000_000, model: 'mid-call' };
const chunk = (delta: Json, finish: string | null = null): Json => ({
  ...head,
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const fragment = (args: string): Json => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] });
const end: ScriptEvent[] = [
  chunk({}, 'tool_calls'),
  { ...head, choices: [], usage: { prompt_tokens: 30, completion_tokens: 20, total_tokens: 50 } },
  '[DONE]',
];

const SCRIPTS: Record<string, ScriptEvent[]> = {
  // Text, then reasoning, between fragments; the call's last fragment after both.
  'text-mid-call': [
    chunk({ role: 'assistant', content: null }),
    chunk({
      tool_calls: [{ index: 0, id: 'call_mid', type: 'function', function: { name: 'get_weather', arguments: '' } }],
    }),
    fragment('{"city":'),
    chunk({ content: 'Looking it up.' }),
    fragment('"Oslo",'),
    chunk({ reasoning_content: 'Celsius for Norway.' }),
    fragment('"unit":"celsius"}'),
    ...end,
  ],
  // Text after the call's arguments are whole: the call ends where it did.
  'text-after-call': [
    chunk({ role: 'assistant', content: null }),
    chunk({
      tool_calls: [{ index: 0, id: 'call_after', type: 'function', function: { name: 'get_weather', arguments: '' } }],
    }),
    fragment(JSON.stringify(WEATHER)),
    chunk({ content: 'Done.' }),
    ...end,
  ],
};

let mock: MockStreamQuirks;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockStreamQuirks(SCRIPTS);
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new OpenAIProvider({ baseUrl: `${mock.origin}/v1`, apiKey: 'up', retries: { max: 0 } })],
    models: Object.keys(SCRIPTS).map((id) => ({ id, provider: 'openai', upstreamModel: id })),
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const TOOLS = [
  {
    name: 'get_weather',
    description: 'The weather in a city',
    input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } } },
  },
];

/** The raw Messages events, checked for the API's order: each block started, its deltas, stopped, one at a time. */
async function anthropicEvents(model: string): Promise<Json[]> {
  const response = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model,
      max_tokens: 256,
      stream: true,
      tools: TOOLS,
      messages: [{ role: 'user', content: 'Weather?' }],
    }),
  });
  const events = (await response.text())
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Json);
  let open: number | undefined;
  let next = 0;
  for (const event of events) {
    if (event.type === 'content_block_start') {
      expect(open).toBeUndefined();
      expect(event.index).toBe(next++);
      open = event.index;
    } else if (event.type === 'content_block_delta') expect(event.index).toBe(open);
    else if (event.type === 'content_block_stop') {
      expect(event.index).toBe(open);
      open = undefined;
    }
  }
  expect(open).toBeUndefined();
  return events;
}

describe('text or reasoning between a chat tool call’s fragments', () => {
  it('an Anthropic caller: the whole input, then the text and the thinking as blocks after the tool_use', async () => {
    const events = await anthropicEvents('text-mid-call');
    const blocks = events
      .filter((event) => event.type === 'content_block_start')
      .map((event) => event.content_block.type);
    expect(blocks).toEqual(['tool_use', 'text', 'thinking']);
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'text-mid-call',
        max_tokens: 256,
        tools: TOOLS,
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      .finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'tool_use', id: 'call_mid', name: 'get_weather', input: WEATHER });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Looking it up.' });
    expect(message.content[2]).toMatchObject({ type: 'thinking', thinking: 'Celsius for Norway.' });
    expect(message.stop_reason).toBe('tool_use');
  });

  it('a chat-completions caller: the whole arguments and the text', async () => {
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions
      .stream({ model: 'text-mid-call', messages: [{ role: 'user', content: 'Weather?' }] })
      .finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(JSON.parse(message.tool_calls![0]!.function.arguments)).toEqual(WEATHER);
    expect(message.content).toBe('Looking it up.');
  });

  it('text after the arguments are whole ends the call where it did', async () => {
    const events = await anthropicEvents('text-after-call');
    const blocks = events
      .filter((event) => event.type === 'content_block_start')
      .map((event) => event.content_block.type);
    expect(blocks).toEqual(['tool_use', 'text']);
  });
});
