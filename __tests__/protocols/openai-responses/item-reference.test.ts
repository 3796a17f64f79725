/**
 * `item_reference` input items through the openai SDK: resolved from the caller's own stored answers (output and input
 * items alike) and sent upstream as if the items had been sent; another key's item ids are a 404; a gateway without a
 * store, or whose store cannot find items by id, answers them with a 400 saying to send the items.
 */
import OpenAI from 'openai';
import {
  MemoryKeyStore,
  MemoryQuotaStore,
  MemoryResponseStore,
  type ModelConfig,
  type ResponseStore,
} from '../../../lib';
import { OpenAIProvider } from '../../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../../helpers/app';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';

const ALICE = 'sk-alice-itemref-0123456789';
const BOB = 'sk-bob-itemref-0123456789';
const models: ModelConfig[] = [{ id: 'up-echo', provider: 'openai', upstreamModel: 'echo' }];

let openaiMock: MockOpenAI;
let stateful: RunningGateway;
let stateless: RunningGateway;
let withoutFindItem: RunningGateway;

function gatewayOptions(store?: ResponseStore) {
  return {
    keyStore: new MemoryKeyStore([
      { key: ALICE, id: 'alice' },
      { key: BOB, id: 'bob' },
    ]),
    quotaStore: new MemoryQuotaStore(),
    ...(store ? { responseStore: store } : {}),
    providers: [
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { max: 0 } }),
    ],
    models,
  };
}

function client(key: string, gateway: RunningGateway): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
}

function lastUpstreamMessages(): unknown {
  return openaiMock.requests[openaiMock.requests.length - 1]!.body.messages;
}

/** A reference as the SDK's types do not list it. */
function reference(id: string): OpenAI.Responses.ResponseInputItem {
  return { type: 'item_reference', id } as unknown as OpenAI.Responses.ResponseInputItem;
}

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  stateful = await serveGateway(gatewayOptions(new MemoryResponseStore()));
  stateless = await serveGateway(gatewayOptions());
  const memory = new MemoryResponseStore();
  withoutFindItem = await serveGateway(
    gatewayOptions({
      put: (owner, id, record) => memory.put(owner, id, record),
      get: (owner, id) => memory.get(owner, id),
      delete: (owner, id) => memory.delete(owner, id),
    }),
  );
});
afterAll(async () => {
  await Promise.all([stateful.close(), stateless.close(), withoutFindItem.close()]);
  await openaiMock.close();
});

describe('item_reference with a store', () => {
  it("sends the upstream the referenced output and input items of the caller's stored answer", async () => {
    const alice = client(ALICE, stateful);
    const first = await alice.responses.create({
      model: 'up-echo',
      input: [{ type: 'message', role: 'user', content: 'My name is Ada.' }],
    });
    const answerItem = first.output[0]!;
    expect(answerItem.type).toBe('message');
    const listed = await alice.responses.inputItems.list(first.id);
    const questionId = listed.data[0]!.id!;
    await alice.responses.create({
      model: 'up-echo',
      input: [
        reference(questionId),
        reference(answerItem.id!),
        { type: 'message', role: 'user', content: 'What is my name?' },
      ],
    });
    expect(lastUpstreamMessages()).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: first.output_text },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it("answers 404 naming the item for another key's item id, and for an unknown one", async () => {
    const first = await client(ALICE, stateful).responses.create({ model: 'up-echo', input: 'Secret of Alice.' });
    const before = openaiMock.requests.length;
    for (const id of [first.output[0]!.id!, 'msg_unknown']) {
      const error = await client(BOB, stateful)
        .responses.create({ model: 'up-echo', input: [reference(id), { role: 'user', content: 'Repeat that.' }] })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      const body = (error as InstanceType<typeof OpenAI.NotFoundError>).error as { param: string; message: string };
      expect(body.param).toBe('input');
      expect(body.message).toContain(`'${id}' not found`);
    }
    expect(openaiMock.requests.length).toBe(before);
  });
});

describe('item_reference without a store', () => {
  it('answers 400 naming item_reference, saying to send the item or configure a responseStore', async () => {
    const error = await client(ALICE, stateless)
      .responses.create({ model: 'up-echo', input: [reference('msg_1'), { role: 'user', content: 'Go on.' }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (error as InstanceType<typeof OpenAI.BadRequestError>).error as { param: string; message: string };
    expect(body.param).toBe('input[0].type');
    expect(body.message).toMatch(/item_reference.*send the item itself.*responseStore/);
  });
});

describe('item_reference with a store that cannot find items', () => {
  it('answers 400 saying to send the items themselves', async () => {
    const alice = client(ALICE, withoutFindItem);
    const first = await alice.responses.create({ model: 'up-echo', input: 'Hello.' });
    const error = await alice.responses
      .create({ model: 'up-echo', input: [reference(first.output[0]!.id!), { role: 'user', content: 'Go on.' }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (error as InstanceType<typeof OpenAI.BadRequestError>).error as { param: string; message: string };
    expect(body.param).toBe('input');
    expect(body.message).toMatch(/cannot find items by id.*send the items themselves/);
  });
});

describe('POST /v1/responses/input_tokens reads the store as the call it counts would', () => {
  async function counted(key: string, gateway: RunningGateway, body: Record<string, unknown>): Promise<number> {
    const count = await client(key, gateway).responses.inputTokens.count({ model: 'up-echo', ...body } as never);
    return count.input_tokens;
  }

  it('counts the stored items an item_reference names, and the conversation a previous_response_id continues', async () => {
    const alice = client(ALICE, stateful);
    const first = await alice.responses.create({ model: 'up-echo', input: 'My name is Ada Lovelace, of London.' });
    const questionId = (await alice.responses.inputItems.list(first.id)).data[0]!.id!;
    const question = { type: 'message', role: 'user', content: 'My name is Ada Lovelace, of London.' };
    const answer = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: first.output_text }] };
    const next = { type: 'message', role: 'user', content: 'What is my name?' };

    const whole = await counted(ALICE, stateful, { input: [question, answer, next] });
    expect(await counted(ALICE, stateful, { input: [next] })).toBeLessThan(whole);
    expect(
      await counted(ALICE, stateful, { input: [reference(questionId), reference(first.output[0]!.id!), next] }),
    ).toBe(whole);
    expect(await counted(ALICE, stateful, { previous_response_id: first.id, input: [next] })).toBe(whole);
  });

  it("answers 404 for another key's item or response, and 400 without a store", async () => {
    const first = await client(ALICE, stateful).responses.create({ model: 'up-echo', input: 'Secret of Alice.' });
    const next = { type: 'message', role: 'user', content: 'Repeat that.' };
    for (const body of [
      { input: [reference(first.output[0]!.id!), next] },
      { previous_response_id: first.id, input: [next] },
    ]) {
      await expect(counted(BOB, stateful, body)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await expect(counted(ALICE, stateless, body)).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    }
  });
});
