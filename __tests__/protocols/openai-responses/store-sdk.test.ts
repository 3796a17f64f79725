/**
 * The openai SDK against a gateway with a response store: `store` and `previous_response_id`
 * (the upstream gets the whole conversation), `responses.retrieve`, `responses.delete`,
 * `responses.inputItems.list`, one key's answers hidden from another, streamed answers kept at
 * completion, failed ones never; and a gateway without a store refusing `previous_response_id`.
 */
import OpenAI from 'openai';
import request from 'supertest';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, MemoryResponseStore, type ModelConfig } from '../../../lib';
import { AnthropicProvider } from '../../../lib/providers/anthropic';
import { OpenAIProvider } from '../../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../../helpers/mock-anthropic';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';

const ALICE = 'sk-alice-responses-0123456789';
const BOB = 'sk-bob-responses-0123456789';
const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: false,
  },
  {
    type: 'function',
    name: 'get_time',
    description: 'Time',
    parameters: { type: 'object', properties: { zone: { type: 'string' } } },
    strict: false,
  },
];
const models: ModelConfig[] = [
  { id: 'rosetta-echo', provider: 'local' },
  { id: 'up-echo', provider: 'openai', upstreamModel: 'echo' },
  { id: 'up-broken', provider: 'openai', upstreamModel: 'fail-500' },
  { id: 'up-stream-error', provider: 'openai', upstreamModel: 'stream-error-500' },
  { id: 'up-claude', provider: 'anthropic', upstreamModel: 'thinking-tools' },
  { id: 'up-claude-echo', provider: 'anthropic', upstreamModel: 'echo' },
];

let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let responseStore: MemoryResponseStore;
let stateful: RunningGateway;
let stateless: RunningGateway;
let alice: OpenAI;
let bob: OpenAI;

function gatewayOptions(store?: MemoryResponseStore) {
  return {
    keyStore: new MemoryKeyStore([
      { key: ALICE, id: 'alice' },
      { key: BOB, id: 'bob' },
    ]),
    quotaStore: new MemoryQuotaStore(),
    ...(store ? { responseStore: store } : {}),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } }),
    ],
    models,
  };
}

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  anthropicMock = await startMockAnthropic();
  responseStore = new MemoryResponseStore();
  stateful = await serveGateway(gatewayOptions(responseStore));
  stateless = await serveGateway(gatewayOptions());
  alice = new OpenAI({ apiKey: ALICE, baseURL: `${stateful.url}/v1`, maxRetries: 0 });
  bob = new OpenAI({ apiKey: BOB, baseURL: `${stateful.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await Promise.all([stateful.close(), stateless.close()]);
  await Promise.all([openaiMock.close(), anthropicMock.close()]);
});

/** The messages of the last request the OpenAI mock received. */
function lastUpstreamMessages(): unknown {
  return openaiMock.requests[openaiMock.requests.length - 1]!.body.messages;
}

describe('previous_response_id with a store', () => {
  it('sends the upstream the stored conversation before the new input, without the earlier instructions', async () => {
    const first = await alice.responses.create({
      model: 'up-echo',
      instructions: 'Be brief.',
      input: 'My name is Ada.',
    });
    expect((first as unknown as { store: boolean }).store).toBe(true);
    const second = await alice.responses.create({
      model: 'up-echo',
      instructions: 'Be kind.',
      input: 'What is my name?',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.id).not.toBe(first.id);
    expect(lastUpstreamMessages()).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: first.output_text },
      { role: 'user', content: 'What is my name?' },
    ]);
    const third = await alice.responses.create({
      model: 'up-echo',
      input: 'And again?',
      previous_response_id: second.id,
    });
    expect(third.output_text.length).toBeGreaterThan(0);
    expect((lastUpstreamMessages() as unknown[]).length).toBe(5);
  });

  it('carries a reasoning signature and the tool calls of the stored answer back to the vendor that made them', async () => {
    const first = await alice.responses.create({
      model: 'up-claude',
      input: 'Weather and time in Oslo?',
      tools: TOOLS,
    });
    const calls = first.output.filter(
      (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
    );
    expect(calls).toHaveLength(2);
    await alice.responses.create({
      model: 'up-claude-echo',
      tools: TOOLS,
      previous_response_id: first.id,
      input: calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: 'done' })),
    });
    const upstream = anthropicMock.requests[anthropicMock.requests.length - 1]!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    const assistant = upstream.find((message) => message.role === 'assistant')!;
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me think about it.',
      signature: 'EqQBsig-from-anthropic',
    });
    expect(assistant.content.filter((block) => block.type === 'tool_use').map((block) => block.id)).toEqual([
      'toolu_01A',
      'toolu_01B',
    ]);
    const results = upstream[upstream.length - 1]!.content.filter((block) => block.type === 'tool_result').map(
      (block) => block.tool_use_id,
    );
    expect(results).toEqual(['toolu_01A', 'toolu_01B']);
  });

  it('answers 404 for an unknown previous response, in the OpenAI envelope', async () => {
    const error = await alice.responses
      .create({ model: 'up-echo', input: 'x', previous_response_id: 'resp_unknown' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'previous_response_id',
    });
  });
});

describe('retrieve, delete, input items', () => {
  it('retrieves a stored answer as it was sent', async () => {
    const created = await alice.responses.create({ model: 'rosetta-echo', input: 'Keep this' });
    const retrieved = await alice.responses.retrieve(created.id);
    expect(retrieved).toEqual(created);
  });

  it('lists the input items of the whole conversation, newest first by default, paged', async () => {
    const first = await alice.responses.create({ model: 'rosetta-echo', input: 'one' });
    const second = await alice.responses.create({
      model: 'rosetta-echo',
      previous_response_id: first.id,
      input: [{ role: 'user', content: 'two' }],
    });
    const all = await alice.responses.inputItems.list(second.id, { order: 'asc' });
    const texts = all.data.map((item) => {
      const content = (item as OpenAI.Responses.ResponseInputMessageItem).content[0] as { text: string };
      return [item.type, (item as { role?: string }).role, content.text];
    });
    expect(texts).toEqual([
      ['message', 'user', 'one'],
      ['message', 'assistant', 'one'],
      ['message', 'user', 'two'],
    ]);
    expect(all.data.every((item) => typeof item.id === 'string' && item.id.length > 0)).toBe(true);
    const newest = await alice.responses.inputItems.list(second.id, { limit: 2 });
    expect(newest.data.map((item) => item.id)).toEqual([all.data[2]!.id, all.data[1]!.id]);
    expect(newest.has_more).toBe(true);
    const rest = await alice.responses.inputItems.list(second.id, { limit: 2, after: all.data[1]!.id });
    expect(rest.data.map((item) => item.id)).toEqual([all.data[0]!.id]);
    expect(rest.has_more).toBe(false);
  });

  it('refuses a bad input_items query with a 400 naming it', async () => {
    const created = await alice.responses.create({ model: 'rosetta-echo', input: 'x' });
    const bad = await request(stateful.url)
      .get(`/v1/responses/${created.id}/input_items?limit=0`)
      .set('authorization', `Bearer ${ALICE}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'limit' });
  });

  it('deletes a stored answer: deleted, then 404 to retrieve and to delete again', async () => {
    const created = await alice.responses.create({ model: 'rosetta-echo', input: 'Forget this' });
    await alice.responses.delete(created.id);
    const raw = await alice.responses.create({ model: 'rosetta-echo', input: 'And this' });
    const deleted = await request(stateful.url)
      .delete(`/v1/responses/${raw.id}`)
      .set('authorization', `Bearer ${ALICE}`);
    expect(deleted.body).toEqual({ id: raw.id, object: 'response', deleted: true });
    await expect(alice.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(alice.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("hides one key's answers from another: 404 to retrieve, list, continue and delete", async () => {
    const created = await alice.responses.create({ model: 'rosetta-echo', input: 'Private' });
    await expect(bob.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.responses.inputItems.list(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      bob.responses.create({ model: 'rosetta-echo', input: 'x', previous_response_id: created.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await alice.responses.retrieve(created.id)).id).toBe(created.id);
  });

  it('keeps nothing for store: false', async () => {
    const created = await alice.responses.create({ model: 'rosetta-echo', input: 'Ephemeral', store: false });
    expect((created as unknown as { store: boolean }).store).toBe(false);
    await expect(alice.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('needs a key, and answers 405 with Allow for other methods', async () => {
    expect((await request(stateful.url).get('/v1/responses/resp_x')).status).toBe(401);
    const put = await request(stateful.url)
      .put('/v1/responses/resp_x')
      .set('authorization', `Bearer ${ALICE}`)
      .send({});
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, DELETE');
    const deleteItems = await request(stateful.url)
      .delete('/v1/responses/resp_x/input_items')
      .set('authorization', `Bearer ${ALICE}`);
    expect(deleteItems.status).toBe(405);
    expect(deleteItems.headers.allow).toBe('GET');
  });
});

describe('streamed and failed answers', () => {
  it('keeps a streamed answer by response.completed: continued and retrieved at once', async () => {
    const stream = await alice.responses.create({ model: 'up-echo', input: 'Streamed words here', stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    expect(completed).toBeDefined();
    const retrieved = await alice.responses.retrieve(completed!.id);
    // The SDK adds output_text to what `create` returns, not to a stream event's response.
    expect({ ...retrieved, completed_at: null, output_text: '' }).toEqual({
      ...completed,
      completed_at: null,
      output_text: '',
    });
    await alice.responses.create({ model: 'up-echo', input: 'Next', previous_response_id: completed!.id });
    expect(lastUpstreamMessages()).toEqual([
      { role: 'user', content: 'Streamed words here' },
      { role: 'assistant', content: retrieved.output_text },
      { role: 'user', content: 'Next' },
    ]);
  });

  it('keeps nothing of a failed call, streamed or not', async () => {
    const before = responseStore.size.entries;
    await expect(alice.responses.create({ model: 'up-broken', input: 'x' })).rejects.toBeInstanceOf(OpenAI.APIError);
    const stream = await alice.responses.create({ model: 'up-stream-error', input: 'x', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[types.length - 1]).toBe('response.failed');
    expect(responseStore.size.entries).toBe(before);
  });
});

describe('without a store', () => {
  it('refuses previous_response_id with a 400 saying to resend the whole input', async () => {
    const client = new OpenAI({ apiKey: ALICE, baseURL: `${stateless.url}/v1`, maxRetries: 0 });
    const error = await client.responses
      .create({ model: 'rosetta-echo', input: 'x', previous_response_id: 'resp_1' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (error as InstanceType<typeof OpenAI.BadRequestError>).error as { param: string; message: string };
    expect(body.param).toBe('previous_response_id');
    expect(body.message).toMatch(/no responseStore.*whole conversation in input/);
  });

  it('accepts store: true, answers store: false, and has nothing to retrieve', async () => {
    const client = new OpenAI({ apiKey: ALICE, baseURL: `${stateless.url}/v1`, maxRetries: 0 });
    const created = await client.responses.create({ model: 'rosetta-echo', input: 'x', store: true });
    expect((created as unknown as { store: boolean }).store).toBe(false);
    const error = await client.responses.retrieve(created.id).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('no responseStore');
  });
});
