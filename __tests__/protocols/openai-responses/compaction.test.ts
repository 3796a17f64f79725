/**
 * Remote compaction as Codex uses it on its built-in `openai` provider: `POST /v1/responses/compact`, then the
 * compaction item sent back in a later `/v1/responses` input. On every upstream kind the gateway runs a summarising
 * turn of the caller's model (charged and recorded like any call) and answers OpenAI's `response.compaction` object;
 * the later request's upstream gets the summary in place of the history it replaced. A Responses upstream that
 * compacts itself (`responsesCompaction`) is passed the compact call, and its own compaction item goes back only to it.
 */
import type http from 'node:http';
import {
  AnthropicProvider,
  GeminiProvider,
  LocalProvider,
  MemoryKeyStore,
  OpenAIProvider,
  type ModelConfig,
  type UsageRecord,
} from '../../../lib';
import { serveGateway, type Json, type RunningGateway } from '../../helpers/app';
import { startMockServer, type MockServer } from '../../helpers/mock-server';
import { RecordingQuotaStore } from '../../helpers/recording-quota-store';

const KEY = 'sk-compaction-caller-0123456789';
const SUMMARY = 'Handoff: the user is fixing bug 42 in parser.ts; the fix is written, a test is still to add.';
const DROPPED = 'DROPPED-ASSISTANT-TEXT-7d1c';
const DROPPED_OUTPUT = 'DROPPED-TOOL-OUTPUT-9f3e';
const UPSTREAM_CIPHERTEXT = 'gAAAAB-upstream-own-compaction-ciphertext';

interface Received {
  url: string;
  body: Json;
}

let upstream: MockServer;
let received: Received[] = [];
let gateway: RunningGateway;
let quotaStore: RecordingQuotaStore;
const records: UsageRecord[] = [];

function answerJson(response: http.ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Writes `events` as server-sent events (each `[name, data]`, or data alone). */
function answerSse(response: http.ServerResponse, events: Array<[string | undefined, unknown]>): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const [name, data] of events)
    response.write(
      `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    );
  response.end();
}

/** SUMMARY streamed in the upstream's protocol. */
function streamSummary(url: string, body: Json, response: http.ServerResponse): void {
  if (url === '/v1/chat/completions') {
    const chunk = (choices: Json[], extra: Json = {}) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: body.model,
      choices,
      ...extra,
    });
    answerSse(response, [
      [undefined, chunk([{ index: 0, delta: { role: 'assistant', content: SUMMARY }, finish_reason: null }])],
      [undefined, chunk([{ index: 0, delta: {}, finish_reason: 'stop' }])],
      [undefined, chunk([], { usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } })],
      [undefined, '[DONE]'],
    ]);
  } else if (url === '/v1/responses') {
    const item = { type: 'message', id: 'msg_up1', role: 'assistant', status: 'completed', content: [] as Json[] };
    const done = { ...item, content: [{ type: 'output_text', text: SUMMARY, annotations: [] }] };
    const base = { id: 'resp_up1', object: 'response', created_at: 1, model: body.model };
    answerSse(response, [
      ['response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } }],
      ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
      [
        'response.output_text.delta',
        { type: 'response.output_text.delta', item_id: 'msg_up1', output_index: 0, content_index: 0, delta: SUMMARY },
      ],
      ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item: done }],
      [
        'response.completed',
        {
          type: 'response.completed',
          response: {
            ...base,
            status: 'completed',
            output: [done],
            usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
          },
        },
      ],
    ]);
  } else if (url === '/v1/messages') {
    answerSse(response, [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [],
            usage: { input_tokens: 120, output_tokens: 0 },
          },
        },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: SUMMARY } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 30 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  } else {
    answerSse(response, [
      [
        undefined,
        {
          candidates: [{ content: { role: 'model', parts: [{ text: SUMMARY }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150 },
        },
      ],
    ]);
  }
}

/** The upstream's own compaction item, as OpenAI answers a `compaction_trigger` call. */
const UPSTREAM_ITEM = { type: 'compaction', id: 'cmp_up2', encrypted_content: UPSTREAM_CIPHERTEXT };

/** A compacting Responses upstream's answer to an input ending in `compaction_trigger`: its compaction item. */
function compactOnUpstream(body: Json, response: http.ServerResponse): void {
  const completed = {
    id: 'resp_up2',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: body.model,
    output: [UPSTREAM_ITEM],
    usage: { input_tokens: 300, output_tokens: 50, total_tokens: 350 },
  };
  if (body.stream !== true) {
    answerJson(response, completed);
    return;
  }
  answerSse(response, [
    ['response.created', { type: 'response.created', response: { ...completed, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: UPSTREAM_ITEM }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item: UPSTREAM_ITEM }],
    ['response.completed', { type: 'response.completed', response: completed }],
  ]);
}

/** Answers every protocol with SUMMARY (a compact call's pass-through with the upstream's own compaction). */
function serve(body: Json, request: http.IncomingMessage, response: http.ServerResponse): void {
  const url = request.url ?? '';
  received.push({ url, body });
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  if (url === '/v1/responses' && input.at(-1)?.type === 'compaction_trigger') {
    compactOnUpstream(body, response);
  } else if (body.stream === true || url.includes(':streamGenerateContent')) {
    streamSummary(url, body, response);
  } else if (url === '/v1/chat/completions') {
    answerJson(response, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    });
  } else if (url === '/v1/responses') {
    answerJson(response, {
      id: 'resp_up1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: body.model,
      output: [
        {
          type: 'message',
          id: 'msg_up1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: SUMMARY, annotations: [] }],
        },
      ],
      usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
    });
  } else if (url === '/v1/responses/compact') {
    const users = (body.input as Json[]).filter((item) => item.role === 'user');
    answerJson(response, {
      id: 'resp_cmp_up1',
      object: 'response.compaction',
      created_at: 1,
      output: [...users, { type: 'compaction', id: 'cmp_up1', encrypted_content: UPSTREAM_CIPHERTEXT }],
      usage: { input_tokens: 200, output_tokens: 40, total_tokens: 240 },
    });
  } else if (url === '/v1/messages') {
    answerJson(response, {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: SUMMARY }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 120, output_tokens: 30 },
    });
  } else if (url.startsWith('/v1beta/models/')) {
    answerJson(response, {
      candidates: [{ content: { role: 'model', parts: [{ text: SUMMARY }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150 },
    });
  } else {
    response.writeHead(404).end();
  }
}

const PRICING = { input: 2, output: 8 };
const models: ModelConfig[] = [
  { id: 'via-chat', provider: 'chat', upstreamModel: 'up-chat', pricing: PRICING },
  { id: 'via-responses', provider: 'responses', upstreamModel: 'up-resp', pricing: PRICING },
  { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'up-claude', pricing: PRICING },
  { id: 'via-gemini', provider: 'gemini', upstreamModel: 'up-gemini', pricing: PRICING },
  { id: 'via-compacting', provider: 'compacting', upstreamModel: 'up-gpt', pricing: PRICING },
  { id: 'rosetta-echo', provider: 'local', upstreamModel: 'rosetta-echo', pricing: PRICING },
];

beforeAll(async () => {
  upstream = await startMockServer(serve);
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  const v1 = `${upstream.origin}/v1`;
  quotaStore = new RecordingQuotaStore({ balances: { caller: 100_000_000 } });
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({ name: 'chat', baseUrl: v1, ...common }),
      new OpenAIProvider({ name: 'responses', baseUrl: v1, responsesModels: ['up-resp'], ...common }),
      new OpenAIProvider({
        name: 'compacting',
        baseUrl: v1,
        responsesModels: ['up-gpt'],
        responsesCompaction: true,
        ...common,
      }),
      new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.origin, ...common }),
      new GeminiProvider({ name: 'gemini', baseUrl: `${upstream.origin}/v1beta`, ...common }),
      new LocalProvider(),
    ],
    models,
    usageSink: (record) => {
      records.push(record);
    },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  received = [];
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A Codex-shaped history: its developer prompt, two user turns, and an assistant turn with a tool call between. */
function history(): Json[] {
  return [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix bug 42 in parser.ts.' }] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: DROPPED }] },
    { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["cat","parser.ts"]}' },
    { type: 'function_call_output', call_id: 'call_1', output: DROPPED_OUTPUT },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Now add a test.' }] },
  ];
}

const SHELL_TOOL = {
  type: 'function',
  name: 'shell',
  description: 'Runs a command.',
  strict: false,
  parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
};

/** The body Codex sends to `/responses/compact`. */
function compactBody(model: string): Json {
  return {
    model,
    instructions: 'You are Codex, a coding agent.',
    input: history(),
    tools: [SHELL_TOOL],
    parallel_tool_calls: true,
    reasoning: { summary: 'auto' },
  };
}

/** Everything the upstream was sent, as one string. */
function sentText(): string {
  return JSON.stringify(received.map((entry) => entry.body));
}

const KINDS = [
  ['an OpenAI chat-completions upstream', 'via-chat', '/v1/chat/completions'],
  ['an OpenAI Responses upstream that does not compact', 'via-responses', '/v1/responses'],
  ['an Anthropic upstream', 'via-anthropic', '/v1/messages'],
  ['a Gemini upstream', 'via-gemini', '/v1beta/models/up-gemini:generateContent'],
] as const;

describe.each(KINDS)('POST /v1/responses/compact on %s', (_name, model, upstreamPath) => {
  it('runs a summarising turn and answers a response.compaction with the user messages and one compaction item', async () => {
    const compacted = await post('/v1/responses/compact', compactBody(model));
    expect(compacted.status).toBe(200);
    expect(compacted.body).toMatchObject({
      object: 'response.compaction',
      usage: { input_tokens: 120, output_tokens: 30 },
    });
    expect(compacted.body.id).toMatch(/^resp_/);
    expect(typeof compacted.body.created_at).toBe('number');
    const output = compacted.body.output as Json[];
    expect(output.slice(0, -1)).toEqual(history().filter((item) => item.role === 'user'));
    const compaction = output.at(-1)!;
    expect(compaction).toEqual({ type: 'compaction', id: expect.any(String), encrypted_content: expect.any(String) });
    // Opaque to the caller: the summary is not readable as it stands.
    expect(compaction.encrypted_content).not.toContain('bug 42');

    // The upstream got the whole conversation and then the instruction to summarise, with no tool to call.
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe(upstreamPath);
    const sent = sentText();
    expect(sent).toContain(DROPPED);
    expect(sent).toContain(DROPPED_OUTPUT);
    expect(sent).toContain('handoff summary');

    // A later request with the compaction item: its upstream gets the summary, not the history it replaced.
    received = [];
    const next = await post('/v1/responses', {
      model,
      input: [...output, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Continue.' }] }],
    });
    expect(next.status).toBe(200);
    expect(received).toHaveLength(1);
    const followUp = sentText();
    expect(followUp).toContain(SUMMARY);
    expect(followUp).toContain('Continue.');
    expect(followUp).not.toContain(DROPPED);
    expect(followUp).not.toContain(DROPPED_OUTPUT);
    expect(followUp).not.toContain('rosetta.compaction');
  });

  it('charges the summarising turn and records its usage like any call', async () => {
    const settlesBefore = quotaStore.settles.length;
    const recordsBefore = records.length;
    const compacted = await post('/v1/responses/compact', compactBody(model));
    expect(compacted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const settle = quotaStore.settles[settlesBefore]!;
    // 120 input tokens at 2, 30 output at 8, per million tokens: the model's prices.
    expect(settle.actual).toBeGreaterThan(0);
    const record = records.slice(recordsBefore).find((entry) => entry.model === model)!;
    expect(record).toBeDefined();
    expect(record.usage).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(record.credits.charged).toBe(settle.actual);
  });
});

/** The SSE events of a streamed answer, parsed. */
async function streamEvents(body: unknown): Promise<{ status: number; events: Json[] }> {
  const response = await fetch(`${gateway.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Json);
  return { status: response.status, events };
}

/** Codex's compaction v2 request: its history, then the trigger, streamed. */
function triggerBody(model: string, stream: boolean): Json {
  return {
    model,
    instructions: 'You are Codex, a coding agent.',
    input: [...history(), { type: 'compaction_trigger' }],
    tools: [SHELL_TOOL],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    store: false,
    stream,
    include: ['reasoning.encrypted_content'],
  };
}

describe.each(KINDS)('a /v1/responses input ending in compaction_trigger on %s', (_name, model, upstreamPath) => {
  it('streamed: one compaction item (output_item.added and .done), then response.completed with usage', async () => {
    const { status, events } = await streamEvents(triggerBody(model, true));
    expect(status).toBe(200);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4]);
    const item = events[3]!.item as Json;
    expect(item).toEqual({ type: 'compaction', id: expect.any(String), encrypted_content: expect.any(String) });
    const completed = events[4]!.response as Json;
    expect(completed).toMatchObject({
      status: 'completed',
      output: [item],
      usage: { input_tokens: 120, output_tokens: 30 },
    });
    // The summary the upstream wrote is never streamed as text; the upstream got the instruction, not the trigger.
    expect(JSON.stringify(events)).not.toContain('bug 42');
    expect(received.map((entry) => entry.url)).toEqual([
      upstreamPath === '/v1beta/models/up-gemini:generateContent'
        ? '/v1beta/models/up-gemini:streamGenerateContent?alt=sse'
        : upstreamPath,
    ]);
    const sent = sentText();
    expect(sent).toContain('handoff summary');
    expect(sent).toContain(DROPPED_OUTPUT);
    expect(sent).not.toContain('compaction_trigger');

    // The item goes back in a later request as the summary.
    received = [];
    const next = await post('/v1/responses', {
      model,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix bug 42.' }] }, item],
    });
    expect(next.status).toBe(200);
    expect(sentText()).toContain(SUMMARY);
  });

  it('not streamed: a Response whose only output is the compaction item', async () => {
    const answer = await post('/v1/responses', triggerBody(model, false));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'response', status: 'completed', usage: { input_tokens: 120 } });
    expect(answer.body.output).toEqual([
      {
        type: 'compaction',
        id: expect.any(String),
        encrypted_content: expect.stringMatching(/^rosetta\.compaction\.v1:/),
      },
    ]);
  });
});

describe('POST /v1/responses/compact on the local provider', () => {
  it('compacts, and a later request with the item is answered', async () => {
    const compacted = await post('/v1/responses/compact', compactBody('rosetta-echo'));
    expect(compacted.status).toBe(200);
    const output = compacted.body.output as Json[];
    expect(output.at(-1)!.type).toBe('compaction');
    const next = await post('/v1/responses', { model: 'rosetta-echo', input: output });
    expect(next.status).toBe(200);
    expect(next.body.output[0].content[0].text).toContain('compacted');
  });
});

describe('a Responses upstream that compacts (responsesCompaction)', () => {
  it('is passed the compact call, and its output comes back as it was, charged on its usage', async () => {
    const recordsBefore = records.length;
    const compacted = await post('/v1/responses/compact', compactBody('via-compacting'));
    expect(compacted.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1/responses/compact');
    expect(received[0]!.body).toEqual({ ...compactBody('via-compacting'), model: 'up-gpt' });
    expect(compacted.body).toMatchObject({
      object: 'response.compaction',
      usage: { input_tokens: 200, output_tokens: 40 },
    });
    expect(compacted.body.output.at(-1)).toEqual({
      type: 'compaction',
      id: 'cmp_up1',
      encrypted_content: UPSTREAM_CIPHERTEXT,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const record = records.slice(recordsBefore).find((entry) => entry.model === 'via-compacting')!;
    expect(record.usage).toMatchObject({ inputTokens: 200, outputTokens: 40 });
    expect(record.credits.charged).toBeGreaterThan(0);
  });

  it('gets its own compaction item back as it was in a later request', async () => {
    const item = { type: 'compaction', id: 'cmp_up1', encrypted_content: UPSTREAM_CIPHERTEXT };
    const next = await post('/v1/responses', {
      model: 'via-compacting',
      input: [item, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Continue.' }] }],
    });
    expect(next.status).toBe(200);
    expect(received[0]!.url).toBe('/v1/responses');
    expect(received[0]!.body.input).toContainEqual(item);
  });

  it.each([true, false])(
    'is sent a compaction_trigger call as the caller sent it, and its compaction item comes back (stream: %s)',
    async (stream) => {
      const recordsBefore = records.length;
      const body = triggerBody('via-compacting', stream);
      let output: Json[];
      if (stream) {
        const { status, events } = await streamEvents(body);
        expect(status).toBe(200);
        expect(events.filter((event) => event.type === 'response.output_item.done').map((event) => event.item)).toEqual(
          [UPSTREAM_ITEM],
        );
        const completed = events.at(-1)!;
        expect(completed).toMatchObject({ type: 'response.completed', response: { usage: { input_tokens: 300 } } });
        output = completed.response.output;
      } else {
        const answer = await post('/v1/responses', body);
        expect(answer.status).toBe(200);
        expect(answer.body.usage).toMatchObject({ input_tokens: 300, output_tokens: 50 });
        output = answer.body.output;
      }
      expect(output).toEqual([UPSTREAM_ITEM]);
      expect(received).toHaveLength(1);
      const sent = received[0]!.body;
      expect(received[0]!.url).toBe('/v1/responses');
      expect((sent.input as Json[]).at(-1)).toEqual({ type: 'compaction_trigger' });
      expect(sent.tool_choice).toBe('auto');
      expect(JSON.stringify(sent)).not.toContain('handoff summary');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const record = records.slice(recordsBefore).find((entry) => entry.model === 'via-compacting')!;
      expect(record.usage).toMatchObject({ inputTokens: 300, outputTokens: 50 });
    },
  );

  it.each(['via-chat', 'via-anthropic', 'via-gemini', 'rosetta-echo'])(
    'is a 400 in the Responses error shape when its compaction item goes to another upstream (%s)',
    async (model) => {
      const next = await post('/v1/responses', {
        model,
        input: [
          { type: 'compaction', encrypted_content: UPSTREAM_CIPHERTEXT },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Continue.' }] },
        ],
      });
      expect(next.status).toBe(400);
      expect(next.body.error).toMatchObject({
        type: 'invalid_request_error',
        param: 'input',
        code: 'unsupported_compaction_item',
      });
      expect(next.body.error.message).toContain('compaction');
      expect(received).toHaveLength(0);
    },
  );
});

describe('bad compaction input', () => {
  it.each([
    ['no input', { model: 'via-chat' }, 'input'],
    [
      'a previous_response_id',
      { model: 'via-chat', input: 'hi', previous_response_id: 'resp_1' },
      'previous_response_id',
    ],
    ['no model', { input: 'hi' }, 'model'],
  ])('POST /v1/responses/compact with %s is a 400 naming the field', async (_what, body, param) => {
    const answer = await post('/v1/responses/compact', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(received).toHaveLength(0);
  });

  it('POST /v1/responses/compact with a body that is not an object is a 400', async () => {
    const answer = await post('/v1/responses/compact', [1, 2]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(received).toHaveLength(0);
  });

  it('a compaction item of this gateway that was tampered with is a 400, not a 5xx', async () => {
    const next = await post('/v1/responses', {
      model: 'via-chat',
      input: [{ type: 'compaction', encrypted_content: 'rosetta.compaction.v1:not base64url!' }],
    });
    expect(next.status).toBe(400);
    expect(next.body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
  });

  it('a compaction item without encrypted_content is a 400 naming it', async () => {
    const next = await post('/v1/responses', { model: 'via-chat', input: [{ type: 'compaction' }] });
    expect(next.status).toBe(400);
    expect(next.body.error).toMatchObject({ param: 'input[0].encrypted_content' });
  });
});
