/**
 * Upstream answers that lack what their protocol requires are upstream faults, never successes:
 * streamed, a 502 before the first byte or the protocol's in-stream error after it; non-streamed, a
 * 502. The legitimate variants (usage-only chunks, empty deltas, pings, unknown event types,
 * usage- or feedback-only Gemini chunks) still pass.
 */
import {
  AnthropicProvider,
  GeminiProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type ModelConfig,
} from '../../lib';
import { dataEvents, serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-malformed-caller-0123456789';

/** An SSE body from `[event name | undefined, data]` pairs. */
const sse = (events: Array<[string | undefined, unknown]>) =>
  events
    .map(
      ([name, data]) =>
        `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');

// OpenAI chat-completions chunks.
const oaHead = { id: 'chatcmpl-m', object: 'chat.completion.chunk', created: 1700000000, model: 'm' };
const oaDelta = (delta: Json, finish: string | null = null) => ({
  ...oaHead,
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const oaUsage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
const oaEnd: Array<[undefined, unknown]> = [
  [undefined, oaDelta({}, 'stop')],
  [undefined, { ...oaHead, choices: [], usage: oaUsage }],
  [undefined, '[DONE]'],
];

// Anthropic Messages events.
const anStart: [string, unknown] = [
  'message_start',
  {
    type: 'message_start',
    message: {
      id: 'msg_m',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  },
];
const anText = (index: number, text: string): Array<[string, unknown]> => [
  ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }],
  ['content_block_stop', { type: 'content_block_stop', index }],
];
const anEnd: Array<[string, unknown]> = [
  [
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
  ],
  ['message_stop', { type: 'message_stop' }],
];

// Gemini streamGenerateContent chunks.
const geText = (text: string, finishReason?: string) => ({
  candidates: [{ index: 0, content: { role: 'model', parts: [{ text }] }, ...(finishReason ? { finishReason } : {}) }],
  modelVersion: 'm',
  responseId: 'r',
});
const geUsage = { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 };

/** Per upstream model id: the streamed body, and the non-streamed JSON body. */
const SCRIPTS: Record<string, { stream?: string; json?: unknown }> = {
  // OpenAI: a first chunk without choices; a first choice without a delta; a later chunk without choices.
  'oa-no-choices-first': {
    stream: sse([[undefined, { ...oaHead }], [undefined, oaDelta({ content: 'Hello' })], ...oaEnd]),
  },
  'oa-no-delta-first': {
    stream: sse([
      [undefined, { ...oaHead, choices: [{ index: 0 }] }],
      [undefined, oaDelta({ content: 'Hello' })],
      ...oaEnd,
    ]),
  },
  'oa-no-choices-later': {
    stream: sse([
      [undefined, oaDelta({ role: 'assistant', content: 'Hello' })],
      [undefined, { ...oaHead, object: 'chat.completion.chunk' }],
      ...oaEnd,
    ]),
  },
  'oa-choices-not-array-later': {
    stream: sse([
      [undefined, oaDelta({ content: 'Hello' })],
      [undefined, { ...oaHead, choices: { index: 0 } }],
      ...oaEnd,
    ]),
  },
  // Legitimate: a first chunk with `choices: []` (Azure's prompt filter results), an empty delta, a finish chunk
  // without a delta, a usage chunk without choices.
  'oa-legit': {
    stream: sse([
      [undefined, { ...oaHead, choices: [], prompt_filter_results: [] }],
      [undefined, oaDelta({ role: 'assistant' })],
      [undefined, oaDelta({})],
      [undefined, oaDelta({ content: 'Hello' })],
      [undefined, { ...oaHead, choices: [{ index: 0, finish_reason: 'stop' }] }],
      [undefined, { id: 'chatcmpl-m', usage: oaUsage }],
      [undefined, '[DONE]'],
    ]),
    json: {
      id: 'chatcmpl-m',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: oaUsage,
    },
  },
  'oa-json-no-choices': { json: { id: 'chatcmpl-m', object: 'chat.completion', model: 'm', usage: oaUsage } },
  'oa-json-null': { json: null },
  'oa-json-null-choice': {
    json: { id: 'chatcmpl-m', object: 'chat.completion', model: 'm', choices: [null], usage: oaUsage },
  },

  // Anthropic: a message_start without its message; a later block start without content_block; a delta without an
  // index; an event without a type.
  'an-no-message-first': {
    stream: sse([['message_start', { type: 'message_start' }], ...anText(0, 'Hello'), ...anEnd]),
  },
  'an-no-block-later': {
    stream: sse([
      anStart,
      ['content_block_start', { type: 'content_block_start', index: 0 }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ...anEnd,
    ]),
  },
  'an-no-index-later': {
    stream: sse([
      anStart,
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Hello' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ...anEnd,
    ]),
  },
  'an-no-type-later': {
    stream: sse([
      anStart,
      [undefined, { index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
      ...anText(0, 'Hello'),
      ...anEnd,
    ]),
  },
  // Legitimate: pings, an unknown event type, an unknown delta type, a server-tool block without a canonical twin.
  'an-legit': {
    stream: sse([
      ['ping', { type: 'ping' }],
      anStart,
      ['ping', { type: 'ping' }],
      ['future_event', { type: 'future_event', whatever: true }],
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} },
        },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: {} } },
      ],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ...anEnd,
    ]),
    json: {
      id: 'msg_m',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'Hello' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 2 },
    },
  },
  'an-json-no-content': {
    json: {
      id: 'msg_m',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 2 },
    },
  },
  'an-json-null-block': {
    json: {
      id: 'msg_m',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [null],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 2 },
    },
  },

  // Gemini: a first chunk without candidates (nor usage or feedback); a later candidate without content or
  // finishReason.
  'ge-no-candidates-first': {
    stream: sse([
      [undefined, { modelVersion: 'm', responseId: 'r' }],
      [undefined, geText('Hello', 'STOP')],
    ]),
  },
  'ge-no-content-later': {
    stream: sse([
      [undefined, geText('Hello')],
      [undefined, { candidates: [{ index: 0 }], modelVersion: 'm' }],
      [undefined, { ...geText('', 'STOP'), usageMetadata: geUsage }],
    ]),
  },
  'ge-parts-not-array-later': {
    stream: sse([
      [undefined, geText('Hello')],
      [undefined, { candidates: [{ index: 0, content: { role: 'model', parts: { text: 'x' } } }] }],
      [undefined, { ...geText('', 'STOP'), usageMetadata: geUsage }],
    ]),
  },
  // Legitimate: a finishReason without content, then a usage-only chunk.
  'ge-legit': {
    stream: sse([
      [undefined, geText('Hello')],
      [undefined, { candidates: [{ index: 0, finishReason: 'STOP' }], modelVersion: 'm' }],
      [undefined, { usageMetadata: geUsage, modelVersion: 'm' }],
    ]),
    json: { ...geText('Hello', 'STOP'), usageMetadata: geUsage },
  },
  // Legitimate: a prompt blocked before generation (feedback only).
  'ge-blocked': {
    stream: sse([
      [
        undefined,
        { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } },
      ],
    ]),
  },
  'ge-json-null-candidate': { json: { candidates: [null], usageMetadata: geUsage } },
  'ge-json-empty-candidate': { json: { candidates: [{ index: 0 }], usageMetadata: geUsage } },
};

let upstream: MockServer;
let server: RunningGateway;
let quotaStore: MemoryQuotaStore;

beforeAll(async () => {
  upstream = await startMockServer((body, request, response) => {
    const fromPath = /\/models\/([^/:]+):(\w+)/.exec(request.url ?? '');
    const model = String(fromPath?.[1] ?? body.model);
    const streamed = fromPath ? fromPath[2] === 'streamGenerateContent' : body.stream === true;
    const script = SCRIPTS[model];
    const payload = streamed ? script?.stream : script?.json;
    if (payload === undefined) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no script for ${model}` } }));
    } else if (streamed) {
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end(payload);
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    }
  });
  const models: ModelConfig[] = Object.keys(SCRIPTS).map((id) => ({
    id,
    provider: id.startsWith('oa-') ? 'openai' : id.startsWith('an-') ? 'anthropic' : 'gemini',
    upstreamModel: id,
  }));
  quotaStore = new MemoryQuotaStore({ balances: { caller: 1_000_000 } });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({
        baseUrl: `${upstream.origin}/v1`,
        apiKey: 'sk-upstream-openai-0123456789',
        retries: { max: 0 },
      }),
      new AnthropicProvider({ baseUrl: upstream.origin, apiKey: 'sk-ant-upstream-0123456789', retries: { max: 0 } }),
      new GeminiProvider({
        baseUrl: `${upstream.origin}/v1beta`,
        apiKey: 'AIzaUpstream0123456789',
        retries: { max: 0 },
      }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

type Caller = 'openai' | 'anthropic' | 'gemini';

/** Calls `model` in a caller's protocol, streamed or not. */
async function call(caller: Caller, model: string, stream: boolean): Promise<{ status: number; text: string }> {
  const messages = [{ role: 'user', content: 'hi' }];
  const [path, headers, body] =
    caller === 'openai'
      ? ['/v1/chat/completions', { authorization: `Bearer ${KEY}` }, { model, stream, messages }]
      : caller === 'anthropic'
        ? ['/v1/messages', { 'x-api-key': KEY }, { model, stream, max_tokens: 16, messages }]
        : [
            `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
            { 'x-goog-api-key': KEY },
            { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
          ];
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The 502 `upstream_malformed` error in each caller's envelope. */
function expectMalformedEnvelope(caller: Caller, body: Json): void {
  if (caller === 'openai')
    expect(body.error).toMatchObject({
      type: 'server_error',
      code: 'upstream_malformed',
      message: expect.stringMatching(/sent a/),
    });
  else if (caller === 'anthropic')
    expect(body).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringMatching(/sent a/) },
    });
  else expect(body.error).toMatchObject({ code: 502, message: expect.stringMatching(/sent a/) });
}

/** Anthropic frames as `{event, data}`. */
function anthropicFrames(text: string): Array<{ event: string; data: Json }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as Json };
    });
}

/** The streamed answer's text and how it ended: `finish` (a success finish) or the error message. */
function streamOutcome(caller: Caller, text: string): { text: string; finished: boolean; error?: string } {
  if (caller === 'anthropic') {
    const frames = anthropicFrames(text);
    const error = frames.find((frame) => frame.event === 'error');
    return {
      text: frames
        .filter((frame) => frame.data.delta?.type === 'text_delta')
        .map((frame) => frame.data.delta.text)
        .join(''),
      finished: frames.some((frame) => frame.event === 'message_stop'),
      ...(error ? { error: error.data.error.message as string } : {}),
    };
  }
  const events = dataEvents(text);
  const error = events.find((event) => event.error);
  if (caller === 'openai') {
    return {
      text: events.map((event) => event.choices?.[0]?.delta?.content ?? '').join(''),
      finished: events.some((event) => event.choices?.[0]?.finish_reason) || text.includes('[DONE]'),
      ...(error ? { error: error.error.message as string } : {}),
    };
  }
  return {
    text: events
      .map((event) => (event.candidates?.[0]?.content?.parts ?? []).map((part: Json) => part.text ?? '').join(''))
      .join(''),
    finished: events.some((event) => event.candidates?.[0]?.finishReason),
    ...(error ? { error: error.error.message as string } : {}),
  };
}

const CALLERS: Caller[] = ['openai', 'anthropic', 'gemini'];

describe("a malformed first upstream stream event: 502 upstream_malformed before the first byte, in the caller's envelope", () => {
  const FIRST = ['oa-no-choices-first', 'oa-no-delta-first', 'an-no-message-first', 'ge-no-candidates-first'];
  for (const model of FIRST) {
    for (const caller of CALLERS) {
      it(`${model} → a ${caller} caller`, async () => {
        const { status, text } = await call(caller, model, true);
        expect(status).toBe(502);
        expectMalformedEnvelope(caller, JSON.parse(text) as Json);
        expect(quotaStore.getAccount('caller').reserved).toBe(0);
      });
    }
  }
});

describe('a malformed later upstream stream event: the in-stream error, and no success finish', () => {
  const LATER: Array<[string, Caller]> = [
    ['oa-no-choices-later', 'openai'],
    ['oa-choices-not-array-later', 'anthropic'],
    ['an-no-block-later', 'anthropic'],
    ['an-no-index-later', 'gemini'],
    ['an-no-type-later', 'openai'],
    ['ge-no-content-later', 'gemini'],
    ['ge-parts-not-array-later', 'openai'],
  ];
  for (const [model, caller] of LATER) {
    it(`${model} → a ${caller} caller`, async () => {
      const { status, text } = await call(caller, model, true);
      expect(status).toBe(200);
      const outcome = streamOutcome(caller, text);
      expect(outcome.error).toMatch(/sent a/);
      expect(outcome.finished).toBe(false);
      expect(quotaStore.getAccount('caller').reserved).toBe(0);
    });
  }
});

describe('legitimate variants still succeed', () => {
  for (const model of ['oa-legit', 'an-legit', 'ge-legit']) {
    for (const caller of CALLERS) {
      it(`${model}, streamed and not → a ${caller} caller`, async () => {
        const streamed = await call(caller, model, true);
        expect(streamed.status).toBe(200);
        const outcome = streamOutcome(caller, streamed.text);
        expect(outcome).toEqual({ text: 'Hello', finished: true });
        const plain = await call(caller, model, false);
        expect(plain.status).toBe(200);
        expect(plain.text).toContain('Hello');
      });
    }
  }

  it('a Gemini prompt blocked before generation (a feedback-only chunk) finishes as filtered', async () => {
    const { status, text } = await call('openai', 'ge-blocked', true);
    expect(status).toBe(200);
    expect(dataEvents(text).some((event) => event.choices?.[0]?.finish_reason === 'content_filter')).toBe(true);
  });
});

describe('a malformed non-streamed upstream answer: 502 upstream_malformed', () => {
  const CASES: Array<[string, Caller]> = [
    ['oa-json-no-choices', 'openai'],
    ['oa-json-null', 'anthropic'],
    ['oa-json-null-choice', 'gemini'],
    ['an-json-no-content', 'anthropic'],
    ['an-json-null-block', 'openai'],
    ['ge-json-null-candidate', 'gemini'],
    ['ge-json-empty-candidate', 'anthropic'],
  ];
  for (const [model, caller] of CASES) {
    it(`${model} → a ${caller} caller`, async () => {
      const { status, text } = await call(caller, model, false);
      expect(status).toBe(502);
      expectMalformedEnvelope(caller, JSON.parse(text) as Json);
    });
  }
});
