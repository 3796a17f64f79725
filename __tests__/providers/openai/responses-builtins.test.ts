/**
 * A Responses upstream's answer to a Responses caller, whole: the fields canonical does not model (on the Response, on
 * each item, on each text part) and the built-in tools' items (`web_search_call`, …) in place, non-streamed and
 * streamed (their own events relayed under the gateway's sequence numbers); built-in items of an earlier turn in the
 * input reach a Responses upstream in place; a caller of another protocol is told what it was not shown.
 */
import { MemoryKeyStore, MemoryQuotaStore, MemoryResponseStore, OpenAIProvider } from '../../../lib';
import { buildApp, dataEvents, listen, readJson, type Json, type RunningServer } from '../../helpers/app';
import {
  CITATION,
  LOGPROB,
  startMockOpenAIResponses,
  type MockOpenAIResponses,
} from '../../helpers/mock-openai-responses';

const KEY = 'sk-responses-builtins';
let mock: MockOpenAIResponses;
let server: RunningServer;

beforeAll(async () => {
  mock = await startMockOpenAIResponses();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 10_000_000 } }),
    responseStore: new MemoryResponseStore(),
    providers: [new OpenAIProvider({ baseUrl: mock.url, apiKey: 'sk-up', responsesModels: () => true })],
    models: [
      { id: 'searcher', provider: 'openai', upstreamModel: 'builtins' },
      { id: 'plain', provider: 'openai', upstreamModel: 'echo' },
    ],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

function post(path: string, body: Json): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The SSE events of a body: each `event:` line's type with its data. */
function sseEvents(text: string): Array<{ event: string; data: Json }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))!.slice('event: '.length);
      const data = JSON.parse(lines.find((line) => line.startsWith('data: '))!.slice('data: '.length)) as Json;
      return { event, data };
    });
}

const SEARCH_ITEM = { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'Oslo news' } };

/** What the upstream's answer holds, as a Responses caller must see it (ids aside). */
function expectWholeAnswer(response: Json): void {
  expect(response.service_tier).toBe('priority');
  expect(response.billing).toEqual({ payer: 'developer' });
  expect(response.output).toHaveLength(2);
  expect(response.output[0]).toEqual({ ...SEARCH_ITEM, id: expect.stringMatching(/^ws_mock\d+$/) });
  const message = response.output[1];
  expect(message).toMatchObject({ type: 'message', role: 'assistant', phase: 'final_answer', trace_id: 'tr-1' });
  expect(message.content).toEqual([
    { type: 'output_text', text: 'upstream says: Oslo news', annotations: [CITATION], logprobs: [LOGPROB] },
  ]);
}

describe('a Responses caller gets the whole of a Responses upstream’s answer', () => {
  it('not streamed: the built-in tool’s item in place, and every field canonical does not model', async () => {
    const res = await post('/v1/responses', { model: 'searcher', input: 'Oslo news', tools: [{ type: 'web_search' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rosetta-warnings')).toBeNull();
    expectWholeAnswer(await readJson(res));
  });

  it('streamed: the item’s own events relayed in place, numbered by the gateway, and the whole answer at the end', async () => {
    const res = await post('/v1/responses', {
      model: 'searcher',
      input: 'Oslo news',
      tools: [{ type: 'web_search' }],
      stream: true,
    });
    expect(res.status).toBe(200);
    const events = sseEvents(await res.text());
    events.forEach(({ event, data }, index) => {
      expect(data.type).toBe(event);
      expect(data.sequence_number).toBe(index);
    });
    const types = events.map(({ event }) => event);
    expect(types.slice(0, 7)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ]);
    const search = events.slice(2, 7).map(({ data }) => data);
    for (const data of search) expect(data.output_index).toBe(0);
    expect(search[0]!.item).toMatchObject({ type: 'web_search_call', status: 'in_progress' });
    expect(search[1]!.item_id).toBe(search[0]!.item.id);
    expect(search[4]!.item).toEqual({ ...SEARCH_ITEM, id: search[0]!.item.id });
    const message = events.filter(({ event }) => event === 'response.output_item.added')[1]!.data;
    expect(message.output_index).toBe(1);
    const messageDone = events.filter(({ event }) => event === 'response.output_item.done')[1]!.data;
    expect(messageDone.item).toMatchObject({ phase: 'final_answer', trace_id: 'tr-1' });
    expect(messageDone.item.content[0].annotations).toEqual([CITATION]);
    expect(types.at(-1)).toBe('response.completed');
    expectWholeAnswer(events.at(-1)!.data.response);
  });

  it.each([false, true])(
    'kept (stream: %s): the stored answer holds the item, and a continuation resends it in place',
    async (stream) => {
      const first = await post('/v1/responses', {
        model: 'searcher',
        input: 'Oslo news',
        tools: [{ type: 'web_search' }],
        store: true,
        stream,
      });
      const text = await first.text();
      const id = stream ? sseEvents(text).at(-1)!.data.response.id : (JSON.parse(text) as Json).id;
      const stored = await fetch(`${server.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expectWholeAnswer(await readJson(stored));

      const next = await post('/v1/responses', { model: 'plain', input: 'And Bergen?', previous_response_id: id });
      expect(next.status).toBe(200);
      const input = mock.requests.at(-1)!.body.input as Json[];
      expect(input.map((item) => item.type ?? 'message')).toEqual(['message', 'web_search_call', 'message', 'message']);
      expect(input[1]).toEqual({ ...SEARCH_ITEM, id: expect.stringMatching(/^ws_mock\d+$/) });
      expect(input[2]).toMatchObject({ role: 'assistant', phase: 'final_answer' });
    },
  );
});

describe('built-in tools’ items of an earlier turn in a Responses caller’s input', () => {
  const input = [
    { role: 'user', content: 'Oslo news' },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA-1' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'Oslo' } },
    { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAA-2' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Calm.' }] },
    { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 'fs', name: 'rm', arguments: '{}' },
    { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: false },
    { role: 'user', content: 'Thanks.' },
  ];

  it.each([false, true])('reach a Responses upstream as sent, in place (stream: %s)', async (stream) => {
    const res = await post('/v1/responses', { model: 'plain', input, stream });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rosetta-warnings')).toBeNull();
    await res.text();
    const sent = mock.requests.at(-1)!.body.input as Json[];
    expect(sent.map((item) => item.type)).toEqual([
      'message',
      'reasoning',
      'web_search_call',
      'reasoning',
      'message',
      'mcp_approval_request',
      'mcp_approval_response',
      'message',
    ]);
    expect(sent[2]).toEqual(input[2]);
    expect(sent[5]).toEqual(input[5]);
    expect(sent[6]).toEqual(input[6]);
  });

  it('an input of such an item alone (continuing a stored answer) is accepted', async () => {
    const res = await post('/v1/responses', {
      model: 'plain',
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true }],
    });
    expect(res.status).toBe(200);
    expect(mock.requests.at(-1)!.body.input).toEqual([
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
    ]);
  });
});

describe('a caller of another protocol through a Responses upstream', () => {
  it('gets the answer’s text, and a warning naming the built-in item it is not shown', async () => {
    const res = await post('/v1/chat/completions', {
      model: 'searcher',
      messages: [{ role: 'user', content: 'Oslo news' }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rosetta-warnings')).toBe('unsupported-tool=web_search_call');
    const body = await readJson(res);
    expect(body.choices[0].message.content).toBe('upstream says: Oslo news');
    expect(JSON.stringify(body)).not.toContain('web_search_call');
  });

  it('streamed: the item leaves no trace in its stream', async () => {
    const res = await post('/v1/chat/completions', {
      model: 'searcher',
      stream: true,
      messages: [{ role: 'user', content: 'Oslo news' }],
    });
    const chunks = dataEvents(await res.text());
    expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('')).toBe('upstream says: Oslo news');
    expect(JSON.stringify(chunks)).not.toContain('web_search');
  });
});
