/** Anthropic messages streaming: raw event frames, scripted thinking and tool blocks, the official SDK, errors. */
import Anthropic from '@anthropic-ai/sdk';
import express from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { EMPTY_KEY, listen, TEST_KEY, testOptions, type Json, type RunningServer } from '../../helpers/app';
import {
  createGateway,
  GatewayError,
  LocalProvider,
  type ErrorKind,
  type Provider,
  type StreamPart,
} from '../../../lib';
import { countTextTokens, LOCAL_MODELS } from '../../../lib/extend';
import { encodeMessagesStream, MessageStreamEncoder } from '../../../lib/protocols/anthropic-messages/encode-stream';
import { JsonObjectPrefix } from '../../../lib/protocols/anthropic-messages/json-object-prefix';

/** One parsed server-sent event. */
interface Event {
  event: string;
  data: Json;
}

/** The events of a body, each checked to be exactly an `event:` line, a one-line `data:` JSON and a blank line. */
function parseEvents(text: string): Event[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const lines = frame.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^event: [a-z_]+$/);
      expect(lines[1]).toMatch(/^data: \{.*\}$/);
      const event = lines[0]!.slice('event: '.length);
      const data = JSON.parse(lines[1]!.slice('data: '.length)) as Json;
      expect(data.type).toBe(event);
      return { event, data };
    });
}

/** A provider that streams the parts a script yields (the script may throw). */
function scripted(name: string, script: () => AsyncGenerator<StreamPart>): Provider {
  return {
    specificationVersion: 'v1',
    name,
    async *stream() {
      yield* script();
    },
  };
}

const start: StreamPart = {
  type: 'response-start',
  id: 'resp-1',
  model: 'upstream-name',
  created: 1,
  usage: { inputTokens: 42, cacheReadTokens: 10 },
};

/** Thinking with a signature, a text block, and two tool calls whose arguments arrive in fragments. */
async function* toolTurn(): AsyncGenerator<StreamPart> {
  yield start;
  yield { type: 'reasoning-start', id: 'r' };
  yield { type: 'reasoning-delta', id: 'r', delta: 'Let me think' };
  yield { type: 'reasoning-delta', id: 'r', delta: ' about it.' };
  yield { type: 'reasoning-end', id: 'r', signature: 'sig-abc' };
  yield { type: 'text-start', id: 't' };
  yield { type: 'text-delta', id: 't', delta: 'I will call tools.' };
  yield { type: 'text-end', id: 't' };
  yield { type: 'tool-call-start', id: 'call:1|x', name: 'get_weather' };
  for (const delta of ['{"ci', 'ty": "Os', 'lo"}']) yield { type: 'tool-call-delta', id: 'call:1|x', delta };
  yield { type: 'tool-call-end', id: 'call:1|x' };
  yield { type: 'tool-call-start', id: 'call_2', name: 'get_time' };
  for (const delta of ['', '{"zone":', ' "UTC", "n": [1, 2.5e3]}'])
    yield { type: 'tool-call-delta', id: 'call_2', delta };
  yield { type: 'tool-call-end', id: 'call_2' };
  yield {
    type: 'finish',
    usage: { inputTokens: 42, outputTokens: 30, cacheReadTokens: 10, reasoningTokens: 5 },
    finishReason: { unified: 'tool-calls' },
  };
}

/**
 * Blocks the protocol cannot carry as they came: an empty text block, redacted thinking, a call without arguments,
 * broken arguments.
 */
async function* awkwardTurn(): AsyncGenerator<StreamPart> {
  yield start;
  yield { type: 'text-start', id: 'empty' };
  yield { type: 'text-delta', id: 'empty', delta: '' };
  yield { type: 'text-end', id: 'empty' };
  yield { type: 'reasoning-start', id: 'hidden' };
  yield { type: 'reasoning-end', id: 'hidden', redactedData: 'EmwKAhgBEgy3' };
  yield { type: 'reasoning-start', id: 'nothing' };
  yield { type: 'reasoning-end', id: 'nothing' };
  yield { type: 'reasoning-start', id: 'omitted' };
  yield { type: 'reasoning-end', id: 'omitted', signature: 'sig-only' };
  yield { type: 'tool-call-start', id: 'call_a', name: 'no_args' };
  yield { type: 'tool-call-end', id: 'call_a' };
  yield { type: 'tool-call-start', id: 'call_b', name: 'bad_args' };
  yield { type: 'tool-call-delta', id: 'call_b', delta: '{"a": 1' };
  yield { type: 'tool-call-delta', id: 'call_b', delta: '}} trailing' };
  yield { type: 'tool-call-delta', id: 'call_b', delta: ' more' };
  yield { type: 'tool-call-end', id: 'call_b' };
  yield { type: 'finish', usage: { inputTokens: 42, outputTokens: 7 }, finishReason: { unified: 'stop' } };
}

/** A provider that never says `response-start` and skips the end of its text block. */
async function* startless(): AsyncGenerator<StreamPart> {
  yield { type: 'text-start', id: '0' };
  yield { type: 'text-delta', id: '0', delta: 'no start' };
  yield { type: 'finish', usage: { inputTokens: 5, outputTokens: 2 }, finishReason: { unified: 'stop' } };
}

/** Some text, then an upstream failure of the given kind. */
function failing(kind: ErrorKind, message: string) {
  return async function* (): AsyncGenerator<StreamPart> {
    yield start;
    yield { type: 'text-start', id: '0' };
    yield { type: 'text-delta', id: '0', delta: 'partial ' };
    yield { type: 'text-delta', id: '0', delta: 'answer' };
    throw new GatewayError(kind, message);
  };
}

const FAILURES: Array<[ErrorKind, string]> = [
  ['upstream', 'api_error'],
  ['overloaded', 'overloaded_error'],
  ['rate_limit', 'rate_limit_error'],
  ['upstream_timeout', 'timeout_error'],
];

/** Every request the server saw: its URL and headers. */
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

const gateway = createGateway(
  testOptions({
    providers: [
      new LocalProvider(),
      scripted('tools', toolTurn),
      scripted('awkward', awkwardTurn),
      scripted('startless', startless),
      ...FAILURES.map(([kind]) => scripted(`fail-${kind}`, failing(kind, 'boom'))),
    ],
    models: [
      ...LOCAL_MODELS,
      { id: 'tools', provider: 'tools' },
      { id: 'awkward', provider: 'awkward' },
      { id: 'startless', provider: 'startless' },
      ...FAILURES.map(([kind]) => ({ id: `fail-${kind}`, provider: `fail-${kind}` })),
    ],
  }),
);
const app = express();
app.use((request, _response, next) => {
  seen.push({ url: request.originalUrl, headers: request.headers });
  next();
});
app.use(gateway);

let server: RunningServer;
beforeAll(async () => {
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
});

const headers = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

function post(body: Json, path = '/v1/messages', with_: Record<string, string> = headers): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: with_, body: JSON.stringify(body) });
}

async function streamEvents(
  body: Json,
  path?: string,
  with_?: Record<string, string>,
): Promise<{ response: Response; events: Event[] }> {
  const response = await post({ stream: true, ...body }, path, with_);
  expect(response.status).toBe(200);
  return { response, events: parseEvents(await response.text()) };
}

function types(events: Event[]): string[] {
  return events.map((event) => event.event);
}

function textOf(events: Event[]): string {
  return events
    .filter((event) => event.data.delta?.type === 'text_delta')
    .map((event) => event.data.delta.text)
    .join('');
}

function client(options: { apiKey?: string; authToken?: string } = { apiKey: TEST_KEY }) {
  return new Anthropic({ baseURL: server.url, maxRetries: 0, apiKey: null, authToken: null, ...options });
}

const REPLY = 'Stream me through the Anthropic codec, please.';
const ask = (text: string, extra: Json = {}) => ({
  model: 'rosetta-echo',
  max_tokens: 1024,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

describe('raw frames on the wire', () => {
  it('sends message_start, one text block with a ping, message_delta and message_stop, each with its event line', async () => {
    const { response, events } = await streamEvents(ask(REPLY));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-request-id')).toBe(response.headers.get('request-id'));

    const deltas = countTextTokens(REPLY);
    expect(types(events)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(deltas).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]!.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '', citations: [] },
    });
    expect(events[2]!.data).toEqual({ type: 'ping' });
    for (const event of events.slice(3, 3 + deltas)) {
      expect(event.data.index).toBe(0);
      expect(event.data.delta.type).toBe('text_delta');
    }
    expect(events[3 + deltas]!.data).toEqual({ type: 'content_block_stop', index: 0 });
    expect(textOf(events)).toBe(REPLY);
    expect(events.at(-1)!.data).toEqual({ type: 'message_stop' });
  });

  it('message_start is the non-streamed message without content; message_delta carries the stop reason and final usage', async () => {
    const plain = (await (await post(ask(REPLY))).json()) as Json;
    const { events } = await streamEvents(ask(REPLY));
    const message = events[0]!.data.message;
    expect(message.id).toMatch(/^msg_/);
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'rosetta-echo',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      context_management: { applied_edits: [] },
      container: null,
    });
    expect(Object.keys(message).sort()).toEqual(Object.keys(plain).sort());
    expect(Object.keys(message.usage).sort()).toEqual(Object.keys(plain.usage).sort());
    expect(message.usage).toMatchObject({
      input_tokens: plain.usage.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens_details: { thinking_tokens: 0 },
      service_tier: 'standard',
      inference_geo: 'not_available',
    });

    const delta = events.find((event) => event.event === 'message_delta')!.data;
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null, stop_details: null, container: null });
    expect(delta.usage).toEqual({
      input_tokens: plain.usage.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: countTextTokens(REPLY),
      output_tokens_details: { thinking_tokens: 0 },
      server_tool_use: null,
    });
    expect(delta.usage.output_tokens).toBe(plain.usage.output_tokens);
  });

  it('max_tokens cuts the reply: stop_reason max_tokens, output_tokens = the cap', async () => {
    const { events } = await streamEvents(ask(REPLY, { max_tokens: 3 }));
    const delta = events.find((event) => event.event === 'message_delta')!.data;
    expect(delta.delta.stop_reason).toBe('max_tokens');
    expect(delta.delta.stop_sequence).toBeNull();
    expect(delta.usage.output_tokens).toBe(3);
    expect(events.filter((event) => event.event === 'content_block_delta')).toHaveLength(3);
    expect(REPLY.startsWith(textOf(events))).toBe(true);
    expect(textOf(events).length).toBeGreaterThan(0);
  });

  it('a stop sequence cuts the reply: stop_reason stop_sequence with the matched sequence', async () => {
    const { events } = await streamEvents(ask('alpha beta STOP gamma', { stop_sequences: ['nope', 'STOP'] }));
    expect(textOf(events)).toBe('alpha beta ');
    const delta = events.find((event) => event.event === 'message_delta')!.data;
    expect(delta.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
    expect(delta.usage.output_tokens).toBe(countTextTokens('alpha beta '));
  });

  it('streams on /v1/messages?beta=true with a Bearer token too', async () => {
    const { events } = await streamEvents(ask('beta path'), '/v1/messages?beta=true', {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
    });
    expect(textOf(events)).toBe('beta path');
    expect(types(events).at(-1)).toBe('message_stop');
  });

  it('decides streaming from the body, whatever Accept says', async () => {
    const { events } = await streamEvents(ask('accept json'), '/v1/messages', {
      ...headers,
      accept: 'application/json',
    });
    expect(textOf(events)).toBe('accept json');
  });
});

describe('thinking, text and tool blocks from a scripted provider', () => {
  it('encodes thinking and signature deltas, text, and tool_use blocks with input_json_delta fragments', async () => {
    const { events } = await streamEvents({
      model: 'tools',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ type: 'message_start' }),
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' about it.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-abc' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: [] } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'I will call tools.' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'call_1_x', name: 'get_weather', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"ci' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ty": "Os' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'lo"}' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
      },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"zone":' } },
      {
        type: 'content_block_delta',
        index: 3,
        delta: { type: 'input_json_delta', partial_json: ' "UTC", "n": [1, 2.5e3]}' },
      },
      { type: 'content_block_stop', index: 3 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null, container: null },
        usage: {
          input_tokens: 32,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 10,
          output_tokens: 30,
          output_tokens_details: { thinking_tokens: 5 },
          server_tool_use: null,
        },
      },
      { type: 'message_stop' },
    ]);
    expect(events[0]!.data.message.model).toBe('tools');
    expect(events[0]!.data.message.id).toBe('msg_resp-1');
    expect(events[0]!.data.message.usage).toMatchObject({
      input_tokens: 32,
      cache_read_input_tokens: 10,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    });
  });

  it.each([
    [
      'messages.stream',
      (sdk: Anthropic, body: Anthropic.MessageCreateParamsNonStreaming) => sdk.messages.stream(body).finalMessage(),
    ],
    [
      'beta.messages.stream',
      (sdk: Anthropic, body: Anthropic.MessageCreateParamsNonStreaming) =>
        sdk.beta.messages.stream(body).finalMessage(),
    ],
  ])('the SDK accumulator (%s) rebuilds thinking, text and parsed tool inputs', async (_name, accumulate) => {
    const final = await accumulate(client(), {
      model: 'tools',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'Let me think about it.', signature: 'sig-abc' },
      { type: 'text', text: 'I will call tools.', citations: [] },
      { type: 'tool_use', id: 'call_1_x', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'call_2', name: 'get_time', input: { zone: 'UTC', n: [1, 2500] } },
    ]);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.stop_sequence).toBeNull();
    expect(final.usage).toMatchObject({
      input_tokens: 32,
      cache_read_input_tokens: 10,
      output_tokens: 30,
      output_tokens_details: { thinking_tokens: 5 },
    });
  });

  it('drops an empty text block and empty thinking, sends redacted thinking, gives {} to a call without arguments and keeps the valid prefix of broken ones', async () => {
    const { events } = await streamEvents({
      model: 'awkward',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(events.slice(1).map((event) => event.data)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } },
      { type: 'ping' },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'sig-only' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'call_a', name: 'no_args', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{}' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'call_b', name: 'bad_args', input: {} },
      },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"a": 1' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '}' } },
      { type: 'content_block_stop', index: 3 },
      expect.objectContaining({ type: 'message_delta', delta: expect.objectContaining({ stop_reason: 'tool_use' }) }),
      { type: 'message_stop' },
    ]);
    const final = await client()
      .beta.messages.stream({ model: 'awkward', max_tokens: 1024, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(final.content).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
      { type: 'thinking', thinking: '', signature: 'sig-only' },
      { type: 'tool_use', id: 'call_a', name: 'no_args', input: {} },
      { type: 'tool_use', id: 'call_b', name: 'bad_args', input: { a: 1 } },
    ]);
  });

  it('starts the message itself when the provider sends no response-start, and closes a block left open', async () => {
    const { response, events } = await streamEvents({
      model: 'startless',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(types(events)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const message = events[0]!.data.message;
    expect(message.id).toBe(`msg_${response.headers.get('request-id')!.replace(/^req_/, '')}`);
    expect(message.model).toBe('startless');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(textOf(events)).toBe('no start');
  });
});

describe('the official SDK (@anthropic-ai/sdk)', () => {
  it('iterates messages.create({ stream: true })', async () => {
    const stream = await client().messages.create({
      ...ask('Hello SDK stream'),
      stream: true,
    } as Anthropic.MessageCreateParamsStreaming);
    const seenTypes: string[] = [];
    let text = '';
    for await (const event of stream) {
      seenTypes.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') expect(event.usage.output_tokens).toBe(countTextTokens('Hello SDK stream'));
    }
    expect(text).toBe('Hello SDK stream');
    expect(seenTypes[0]).toBe('message_start');
    expect(seenTypes.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(seenTypes).not.toContain('ping');
  });

  it('messages.stream() emits text events and finalMessage() has the whole message', async () => {
    const deltas: string[] = [];
    const stream = client()
      .messages.stream(ask('helper stream, with events') as Anthropic.MessageCreateParamsNonStreaming)
      .on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.length).toBe(countTextTokens('helper stream, with events'));
    expect(deltas.join('')).toBe('helper stream, with events');
    expect(final.id).toMatch(/^msg_/);
    expect(final.model).toBe('rosetta-echo');
    expect(final.content).toEqual([{ type: 'text', text: 'helper stream, with events', citations: [] }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.stop_details).toBeNull();
    expect(final.usage.output_tokens).toBe(countTextTokens('helper stream, with events'));
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('beta.messages.stream and beta.messages.create({ stream: true, betas }) with an auth token (Bearer)', async () => {
    const sdk = client({ authToken: TEST_KEY });
    seen.length = 0;
    const final = await sdk.beta.messages
      .stream({
        ...ask('beta helper'),
        betas: ['interleaved-thinking-2025-05-14'],
      } as Anthropic.Beta.MessageCreateParamsNonStreaming)
      .finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'beta helper', citations: [] }]);
    const stream = await sdk.beta.messages.create({
      ...ask('beta create'),
      stream: true,
      betas: ['fine-grained-tool-streaming-2025-05-14', 'context-management-2025-06-27'],
    } as Anthropic.Beta.MessageCreateParamsStreaming);
    let text = '';
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(text).toBe('beta create');
    // @anthropic-ai/sdk 1.x posts beta calls to /v1/messages; older SDKs (and Claude Code) add ?beta=true.
    expect(seen.map((request) => request.url)).toEqual(['/v1/messages', '/v1/messages']);
    expect(seen[0]!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    for (const request of seen) {
      expect(request.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
      expect(request.headers['x-api-key']).toBeUndefined();
    }
    expect(seen[1]!.headers['anthropic-beta']).toBe(
      'fine-grained-tool-streaming-2025-05-14,context-management-2025-06-27',
    );
  });

  it('streams a Claude-Code-shaped request through, accumulated by the SDK without error', async () => {
    const sdk = client({ authToken: TEST_KEY });
    const body = claudeCodeBody();
    // Claude Code's bundled client posts to /v1/messages?beta=true.
    const options = {
      query: { beta: 'true' },
      headers: { 'x-app': 'cli', 'anthropic-dangerous-direct-browser-access': 'true' },
    };
    seen.length = 0;
    const stream = await sdk.beta.messages.create(body, options);
    const seenTypes: string[] = [];
    for await (const event of stream) seenTypes.push(event.type);
    expect(seenTypes[0]).toBe('message_start');
    expect(seenTypes.at(-1)).toBe('message_stop');
    const final = await sdk.beta.messages.stream({ ...body, stream: undefined }, options).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Thanks, summarise.', citations: [] }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(countTextTokens('Thanks, summarise.'));
    expect(seen).toHaveLength(2);
    expect(seen.map((request) => request.url)).toEqual(['/v1/messages?beta=true', '/v1/messages?beta=true']);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(seen[0]!.headers['anthropic-beta']).toBe(
      'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,advanced-tool-use-2025-11-20',
    );
  });
});

/** A request body shaped like the one Claude Code 2.1.x sends (protocols.md 6.10), streamed. */
function claudeCodeBody(): Anthropic.Beta.MessageCreateParamsStreaming {
  const names = ['Task', 'Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'WebFetch', 'TodoWrite', 'WebSearch'];
  return {
    model: 'rosetta-echo',
    max_tokens: 32000,
    stream: true,
    betas: [
      'claude-code-20250219',
      'interleaved-thinking-2025-05-14',
      'context-management-2025-06-27',
      'advanced-tool-use-2025-11-20',
    ],
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.3.abc; cc_entrypoint=cli; cch=00000;' },
      { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Environment: linux.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    tools: names.map((name, index) => ({
      name,
      description: `The ${name} tool.`,
      input_schema: {
        type: 'object' as const,
        properties: { value: { type: 'string' } },
        required: ['value'],
        additionalProperties: false,
      },
      ...(index === 9 ? { defer_loading: true } : {}),
      ...(index === 8 ? { cache_control: { type: 'ephemeral' as const } } : {}),
    })),
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: {
      user_id: JSON.stringify({
        device_id: 'd'.repeat(64),
        account_uuid: '',
        session_id: '3f1c7e2a-0000-4000-8000-000000000000',
      }),
    },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'List the files.', cache_control: { type: 'ephemeral' } }] },
      { role: 'system', content: 'The user switched to plan mode.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: '', signature: 'EqQBCkYIBRgCKkA' },
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'Bash', input: { value: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: [{ type: 'text', text: 'a.ts\nb.ts' }] },
          { type: 'text', text: 'Thanks, summarise.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
  } as Anthropic.Beta.MessageCreateParamsStreaming;
}

describe('errors', () => {
  it.each([
    ['a wrong key', { apiKey: 'sk-wrong' }, 'rosetta-echo', 401, 'authentication_error', Anthropic.AuthenticationError],
    [
      'a key without balance',
      { apiKey: EMPTY_KEY },
      'rosetta-echo',
      403,
      'billing_error',
      Anthropic.PermissionDeniedError,
    ],
    ['an unknown model', { apiKey: TEST_KEY }, 'no-such-model', 404, 'not_found_error', Anthropic.NotFoundError],
  ] as const)(
    'before the stream, %s is a plain JSON error the SDK raises as its class',
    async (_name, auth, model, status, type, ErrorClass) => {
      const raw = await post(ask('x', { model, stream: true }), '/v1/messages', {
        ...headers,
        'x-api-key': auth.apiKey,
      });
      expect(raw.status).toBe(status);
      expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await raw.json()) as Json;
      expect(body).toMatchObject({ type: 'error', error: { type } });
      expect(body.request_id).toMatch(/^req_/);

      const sdk = client(auth);
      await expect(
        sdk.messages.create({ ...ask('x', { model }), stream: true } as Anthropic.MessageCreateParamsStreaming),
      ).rejects.toBeInstanceOf(ErrorClass);
      await expect(
        sdk.messages.stream(ask('x', { model }) as Anthropic.MessageCreateParamsNonStreaming).finalMessage(),
      ).rejects.toBeInstanceOf(ErrorClass);
    },
  );

  it.each(FAILURES)(
    'a %s failure mid-stream is an error event of type %s, and the stream ends without message_stop',
    async (kind, type) => {
      const { response, events } = await streamEvents({
        model: `fail-${kind}`,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(types(events)).toEqual([
        'message_start',
        'content_block_start',
        'ping',
        'content_block_delta',
        'content_block_delta',
        'error',
      ]);
      expect(textOf(events)).toBe('partial answer');
      expect(events.at(-1)!.data).toEqual({
        type: 'error',
        error: { type, message: 'boom' },
        request_id: response.headers.get('request-id'),
      });
    },
  );

  it('the SDK stream iterator throws an APIError of the event type; the helper rejects after the partial text', async () => {
    const sdk = client();
    const stream = await sdk.messages.create({
      model: 'fail-overloaded',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    let text = '';
    const thrown = await (async () => {
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    })().catch((error: unknown) => error);
    expect(text).toBe('partial answer');
    expect(thrown).toBeInstanceOf(Anthropic.APIError);
    expect((thrown as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect((thrown as Error).message).toMatch(/boom/);

    const deltas: string[] = [];
    const helper = sdk.messages
      .stream({ model: 'fail-upstream', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] })
      .on('text', (delta) => deltas.push(delta));
    const failure = await helper.finalMessage().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).type).toBe('api_error');
    expect(deltas.join('')).toBe('partial answer');
  });
});

describe('MessageStreamEncoder (unit)', () => {
  function encodeAll(parts: StreamPart[]): Event[] {
    const encoder = new MessageStreamEncoder({ requestId: 'req_abc', model: 'm', estimatedInputTokens: () => 9 });
    return parseEvents(parts.flatMap((part) => encoder.encode(part)).join(''));
  }

  it('keeps indices contiguous and starts a block before its deltas when the provider skips starts and ends', () => {
    const events = encodeAll([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'text-delta', id: 'a', delta: 'one' },
      { type: 'reasoning-delta', id: 'b', delta: 'two' },
      { type: 'text-delta', id: 'c', delta: 'three' },
      { type: 'finish', usage: { inputTokens: 9, outputTokens: 3 }, finishReason: { unified: 'stop' } },
    ]);
    expect(events.map((event) => [event.event, event.data.index ?? null])).toEqual([
      ['message_start', null],
      ['content_block_start', 0],
      ['ping', null],
      ['content_block_delta', 0],
      ['content_block_stop', 0],
      ['content_block_start', 1],
      ['content_block_delta', 1],
      // A thinking block stops with its signature_delta, even one closed by the next block: the API's order.
      ['content_block_delta', 1],
      ['content_block_stop', 1],
      ['content_block_start', 2],
      ['content_block_delta', 2],
      ['content_block_stop', 2],
      ['message_delta', null],
      ['message_stop', null],
    ]);
    expect(events[0]!.data.message.usage.input_tokens).toBe(9);
    expect(events[7]!.data.delta).toEqual({ type: 'signature_delta', signature: '' });
  });

  it('sends no ping and no blocks for an empty reply', () => {
    const events = encodeAll([
      { type: 'response-start', id: 'x', model: 'm', created: 1, usage: { inputTokens: 4 } },
      { type: 'finish', usage: { inputTokens: 4, outputTokens: 0 }, finishReason: { unified: 'length' } },
    ]);
    expect(types(events)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(events[1]!.data.delta.stop_reason).toBe('max_tokens');
  });

  it('promotes a normal stop to tool_use when a tool was called', () => {
    const events = encodeAll([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'tool-call-start', id: 't', name: 'f' },
      { type: 'tool-call-delta', id: 't', delta: '{}' },
      { type: 'tool-call-end', id: 't' },
      { type: 'finish', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: { unified: 'stop' } },
    ]);
    expect(events.find((event) => event.event === 'message_delta')!.data.delta.stop_reason).toBe('tool_use');
  });

  it('encodeMessagesStream turns an error part into the error event, without leaking its message', () => {
    const encoder = encodeMessagesStream(
      { model: 'm', messages: [], stream: true },
      {
        requestId: 'req_1',
        http: { method: 'POST', path: '/v1/messages', headers: {}, query: new URLSearchParams(), body: {} },
      },
    );
    expect(encoder.headers).toEqual({ 'request-id': 'req_1' });
    let text = encoder.encode({ type: 'response-start', id: 'x', model: 'm', created: 1 });
    text += encoder.encode({ type: 'error', error: new Error('secret internals') });
    const events = parseEvents(text);
    expect(types(events)).toEqual(['message_start', 'error']);
    expect(events[1]!.data.error).toEqual({ type: 'api_error', message: 'The gateway failed to process the request.' });
  });
});

describe('JsonObjectPrefix', () => {
  function accepted(pieces: string[]): { kept: string; complete: boolean } {
    const scanner = new JsonObjectPrefix();
    let kept = '';
    for (const piece of pieces) kept += piece.slice(0, scanner.accept(piece));
    return { kept, complete: scanner.complete };
  }

  it.each([
    '{}',
    ' { "a" : [1, -0.5, 2e10, 3E-2, true, false, null, {"b": "c\\"\\\\\\u00e9\\n"}], "d": {} } \n',
    '{"nested": [[[]], [{}]], "emoji": "😀"}',
  ])('accepts the whole of %j, split anywhere', (json) => {
    for (let cut = 0; cut <= json.length; cut++) {
      expect(accepted([json.slice(0, cut), json.slice(cut)])).toEqual({ kept: json, complete: true });
    }
    expect(accepted(json.split(''))).toEqual({ kept: json, complete: true });
  });

  it.each([
    ['{"a": 1', '{"a": 1', false],
    ['{"a": 1}}', '{"a": 1}', true],
    ['{"a": 01}', '{"a": 0', false],
    ['{"a": 1,}', '{"a": 1,', false],
    ['{"a" 1}', '{"a" ', false],
    ['{"a": tru}', '{"a": tru', false],
    ['{"a": "x\\q"}', '{"a": "x\\', false],
    ['{"a": "\\u12g4"}', '{"a": "\\u12', false],
    ['{"a": "line\nbreak"}', '{"a": "line', false],
    ['{"a": [1 2]}', '{"a": [1 ', false],
    ['{"a": [}', '{"a": [', false],
    ['{"a": -}', '{"a": -', false],
    ['{"a": 1.}', '{"a": 1.', false],
    ['{"a": 1e}', '{"a": 1e', false],
    ['{1: 2}', '{', false],
    ['[1, 2]', '', false],
    ['"text"', '', false],
    ['not json', '', false],
    ['{"a": 1} x', '{"a": 1} ', true],
  ])('keeps the valid prefix of %j', (json, kept, complete) => {
    expect(accepted([json])).toEqual({ kept, complete });
  });

  it('accepts nothing once broken', () => {
    const scanner = new JsonObjectPrefix();
    expect(scanner.accept('{"a": x')).toBe(6);
    expect(scanner.broken).toBe(true);
    expect(scanner.accept('1}')).toBe(0);
    expect(scanner.opened).toBe(true);
    expect(scanner.complete).toBe(false);
    const never = new JsonObjectPrefix();
    expect(never.accept('  [')).toBe(2);
    expect(never.opened).toBe(false);
  });
});
