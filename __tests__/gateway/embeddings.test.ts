/**
 * Embeddings through the gateway: OpenAI `POST /v1/embeddings` in float and base64, bad inputs refused with a 400 in
 * the caller's envelope before anything goes upstream, a key without balance refused with a 403 before any upstream
 * call, large batches split to the upstream's limit and joined in order, one failing batch failing the call, and the
 * call charged per input token, held on the gateway's count and settled on the upstream's, with its usage record.
 */
import { EXACT_COUNT_MAX_CHARS, tokenizedChars } from '../../lib/tokenizer';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  GatewayError,
  LocalProvider,
  MemoryKeyStore,
  type EmbedRequest,
  type ModelConfig,
  type Provider,
  type UsageRecord,
} from '../../lib';
import { countTextTokens } from '../../lib/extend';
import { MAX_EMBED_INPUT_TOKENS } from '../../lib/pipeline/embed-input';
import express from 'express';
import { type Json, listen, readJson, serveGateway, type RunningGateway } from '../helpers/app';
import { sampleValue } from '../helpers/prometheus';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-embeddings-caller-0001';
const EMPTY = 'sk-embeddings-empty-00001';
const BALANCE = 10_000_000;
const local = new LocalProvider();

/**
 * The local model behind a provider that takes at most 100 inputs per call, records every call it gets, reports the
 * usage it is told to, and fails the batch that holds an input `fail`.
 */
class BatchedProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'batched';
  readonly calls: EmbedRequest[] = [];
  reportedPerInput: number | undefined = 7;

  maxEmbedInputs(): number {
    return 100;
  }

  embed(request: EmbedRequest, context: Parameters<NonNullable<Provider['embed']>>[1]) {
    this.calls.push(request);
    if (request.inputs.includes('fail'))
      throw new GatewayError('upstream', 'The upstream failed this batch.', { code: 'upstream_error' });
    const answer = local.embed(request, context);
    return this.reportedPerInput === undefined
      ? answer
      : {
          ...answer,
          model: 'upstream-embedder',
          usage: { inputTokens: this.reportedPerInput * request.inputs.length },
        };
  }
}

const models: ModelConfig[] = [
  { id: 'rosetta-embed', provider: 'local', type: 'embedding', pricing: { input: 2 } },
  { id: 'rosetta-echo', provider: 'local' },
  { id: 'batched-embed', provider: 'batched', type: 'embedding', pricing: { input: 3 } },
];

let gateway: RunningGateway;
let quotaStore: RecordingQuotaStore;
let batched: BatchedProvider;
const records: UsageRecord[] = [];

beforeAll(async () => {
  batched = new BatchedProvider();
  quotaStore = new RecordingQuotaStore({ balances: { caller: BALANCE, empty: 0 } });
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([
      { key: KEY, id: 'caller' },
      { key: EMPTY, id: 'empty' },
    ]),
    quotaStore,
    providers: [local, batched],
    models,
    usageSink: (record) => {
      records.push(record);
    },
  });
});
afterAll(() => gateway.close());
beforeEach(() => {
  batched.calls.length = 0;
  batched.reportedPerInput = 7;
});

function post(body: unknown, key = KEY, path = '/v1/embeddings') {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The float32 values of an OpenAI base64 embedding (little-endian). */
function fromBase64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
}

/** The record of the call answered with `response`, once delivered. */
async function recordOf(response: Response): Promise<UsageRecord> {
  const requestId = response.headers.get('x-request-id');
  for (let waited = 0; waited < 5_000; waited += 5) {
    const record = records.find((candidate) => candidate.requestId === requestId);
    if (record) return record;
    await sleep(5);
  }
  throw new Error(`no usage record for ${requestId}`);
}

describe('POST /v1/embeddings (local model)', () => {
  const texts = ['the quick brown fox', 'jumps over the lazy dog', 'and runs away'];

  it('answers one vector per input in order, as floats by default, usage the gateway count', async () => {
    const response = await post({ model: 'rosetta-embed', input: texts });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    const tokens = texts.reduce((sum, text) => sum + countTextTokens(text), 0);
    expect(body).toEqual({
      object: 'list',
      data: texts.map((_, index) => ({ object: 'embedding', index, embedding: expect.any(Array) })),
      model: 'rosetta-embed',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
    body.data.forEach((item: Json, index: number) => {
      expect(item.embedding).toHaveLength(256);
      expect(item.embedding).toEqual(
        Array.from(local.embed({ model: 'x', inputs: [texts[index]!] }, ctx()).vectors[0]!),
      );
    });
  });

  it('answers base64 of the same little-endian float32 values when asked, and honours dimensions', async () => {
    const floats = await readJson(await post({ model: 'rosetta-embed', input: texts, dimensions: 32 }));
    const response = await post({ model: 'rosetta-embed', input: texts, dimensions: 32, encoding_format: 'base64' });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    body.data.forEach((item: Json, index: number) => {
      expect(typeof item.embedding).toBe('string');
      expect(fromBase64(item.embedding)).toEqual(floats.data[index].embedding);
      expect(fromBase64(item.embedding)).toHaveLength(32);
    });
  });

  it('takes token ids: one array of ids, or an array of id arrays', async () => {
    const one = await readJson(await post({ model: 'rosetta-embed', input: [1, 2, 3] }));
    expect(one.data).toHaveLength(1);
    expect(one.usage.prompt_tokens).toBe(3);
    const two = await readJson(await post({ model: 'rosetta-embed', input: [[1, 2, 3], [4]] }));
    expect(two.data).toHaveLength(2);
    expect(two.data[0].embedding).toEqual(one.data[0].embedding);
    expect(two.usage.prompt_tokens).toBe(4);
  });

  it('refuses a text model on /v1/embeddings and the embedding model on chat completions with a 404', async () => {
    const wrong = await post({ model: 'rosetta-echo', input: 'x' });
    expect(wrong.status).toBe(404);
    expect((await readJson(wrong)).error).toMatchObject({ code: 'model_not_found', param: 'model' });
    const chat = await post(
      { model: 'rosetta-embed', messages: [{ role: 'user', content: 'x' }] },
      KEY,
      '/v1/chat/completions',
    );
    expect(chat.status).toBe(404);
  });

  it('lists the embedding model in the OpenAI model list', async () => {
    const list = await readJson(
      await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } }),
    );
    expect(list.data.map((model: Json) => model.id)).toEqual(
      expect.arrayContaining(['rosetta-embed', 'batched-embed']),
    );
  });
});

describe('bad inputs: a 400 in the OpenAI envelope before anything goes upstream', () => {
  const cases: Array<[string, Json, string]> = [
    ['an empty array', { input: [] }, 'input'],
    ['an empty string', { input: '' }, 'input'],
    ['an empty string in an array', { input: ['a', ''] }, 'input[1]'],
    ['a number', { input: 5 }, 'input'],
    ['an object', { input: { text: 'x' } }, 'input'],
    ['a mixed array', { input: ['a', 1] }, 'input[1]'],
    ['an empty token-id array', { input: [[1], []] }, 'input[1]'],
    ['a negative token id', { input: [1, -2] }, 'input[1]'],
    ['10,000 inputs', { input: Array.from({ length: 10_000 }, () => 'a') }, 'input'],
    ['dimensions: 0', { input: 'x', dimensions: 0 }, 'dimensions'],
    ['dimensions: 1.5', { input: 'x', dimensions: 1.5 }, 'dimensions'],
    ['an unknown encoding_format', { input: 'x', encoding_format: 'int8' }, 'encoding_format'],
    ['no input', {}, 'input'],
  ];

  it.each(cases)('%s', async (_name, fields, param) => {
    const before = quotaStore.reserves.length;
    const response = await post({ model: 'batched-embed', ...fields });
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param, message: expect.any(String) });
    expect(batched.calls).toHaveLength(0);
    expect(quotaStore.reserves).toHaveLength(before);
  });

  it('a 20 MB input (under the 32 MiB body limit) is a 400 naming the per-input token limit', async () => {
    const huge = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((20 * 1024 * 1024) / 27));
    const response = await post({ model: 'batched-embed', input: ['short', huge] });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      message: expect.stringContaining(`${MAX_EMBED_INPUT_TOKENS} tokens`),
    });
    expect(batched.calls).toHaveLength(0);
  });

  it('inputs over 300,000 tokens together are a 400', async () => {
    // 40 inputs of 8,000 tokens in 16,000 characters each: over the limit within the tokenizer's 1 MiB.
    const input = Array.from({ length: 40 }, () => 'a b '.repeat(4000));
    const response = await post({ model: 'batched-embed', input });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain('300000 tokens together');
    expect(batched.calls).toHaveLength(0);
  });
});

describe('the tokenizer, bounded', () => {
  /** `count` inputs of `words` random six-letter words each (text a BPE tokenizer is slowest on). */
  const randomInputs = (count: number, words: number) =>
    Array.from({ length: count }, () =>
      Array.from({ length: words }, () => Math.random().toString(36).slice(2, 8)).join(' '),
    );

  it('a key that cannot pay is refused before any input is counted (a large body, and a small one)', async () => {
    const before = tokenizedChars();
    const large = await post({ model: 'batched-embed', input: randomInputs(2048, 1170) }, EMPTY);
    expect(large.status).toBe(403);
    expect((await readJson(large)).error).toMatchObject({ type: 'insufficient_quota' });
    // Inputs over 8,192 bytes each, in a body under 1 MiB: counting them is needed, and never starts.
    const small = await post({ model: 'batched-embed', input: randomInputs(10, 1300) }, EMPTY);
    expect(small.status).toBe(403);
    expect(tokenizedChars()).toBe(before);
    expect(batched.calls).toHaveLength(0);
  });

  it('counts at most 1 MiB of a call exactly; what it could not count goes upstream on its bound', async () => {
    const before = tokenizedChars();
    // 40 inputs of 48,000 characters (about 8,000 tokens each): 1.9 MB of text, 320,000 tokens in all.
    const input = Array.from({ length: 40 }, () => 'lorem ipsum '.repeat(4000));
    const response = await post({ model: 'batched-embed', input });
    expect(response.status).toBe(200);
    expect(tokenizedChars() - before).toBeLessThanOrEqual(EXACT_COUNT_MAX_CHARS + 16 * 1024);
    expect(batched.calls.flatMap((call) => call.inputs)).toHaveLength(40);
  });
});

describe('quota, batching and records', () => {
  it('refuses a key with a zero balance with a 403 before any upstream call', async () => {
    const response = await post({ model: 'batched-embed', input: ['a', 'b'] }, EMPTY);
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({ type: 'insufficient_quota' });
    expect(batched.calls).toHaveLength(0);
    const record = await recordOf(response);
    expect(record).toMatchObject({ operation: 'embed', outcome: 'error', attempts: [], credits: { charged: 0 } });
  });

  it('splits 300 inputs into three upstream calls of 100 and answers 300 vectors in input order', async () => {
    const input = Array.from({ length: 300 }, (_, index) => `input number ${index}`);
    const response = await post({ model: 'batched-embed', input, dimensions: 16 });
    expect(response.status).toBe(200);
    expect(batched.calls.map((call) => call.inputs.length)).toEqual([100, 100, 100]);
    expect(batched.calls.map((call) => call.inputs[0])).toEqual([
      'input number 0',
      'input number 100',
      'input number 200',
    ]);
    const body = await readJson(response);
    expect(body.data).toHaveLength(300);
    expect(body.model).toBe('upstream-embedder');
    const expected = local.embed({ model: 'x', inputs: input, dimensions: 16 }, ctx()).vectors;
    body.data.forEach((item: Json, index: number) => {
      expect(item.index).toBe(index);
      expect(item.embedding).toEqual(Array.from(expected[index]!));
    });
    // Settled on the upstream's reported usage (7 per input), at the model's input price (3).
    expect(body.usage.prompt_tokens).toBe(2100);
    const record = await recordOf(response);
    expect(record).toMatchObject({
      operation: 'embed',
      protocol: 'openai-embeddings',
      outcome: 'ok',
      model: 'batched-embed',
      provider: 'batched',
      usage: { inputTokens: 2100, outputTokens: 0 },
      usageSource: 'upstream',
      credits: { charged: 6300, split: { input: 6300, output: 0, total: 6300 }, settlement: 'completed' },
    });
  });

  it('is counted by the metrics with operation "embed" and its input tokens', async () => {
    const response = await post({ model: 'batched-embed', input: ['one', 'two'] });
    expect(response.status).toBe(200);
    await recordOf(response);
    const app = express();
    app.get('/metrics', gateway.gateway.metrics);
    const scraper = await listen(app);
    try {
      const text = await (await fetch(`${scraper.url}/metrics`)).text();
      const labels = { protocol: 'openai-embeddings', operation: 'embed', model: 'batched-embed', provider: 'batched' };
      expect(
        sampleValue(text, 'rosetta_calls_total', { ...labels, outcome: 'ok', status_class: '2xx' }),
      ).toBeGreaterThan(0);
      expect(
        sampleValue(text, 'rosetta_tokens_total', { model: 'batched-embed', provider: 'batched', kind: 'input' }),
      ).toBeGreaterThanOrEqual(14);
    } finally {
      await scraper.close();
    }
  });

  it('holds the inputs bound (one token per UTF-8 byte) at the input price, and charges the gateway count when the upstream reports none', async () => {
    batched.reportedPerInput = undefined;
    const input = ['alpha beta gamma', 'delta'];
    const tokens = countTextTokens(input[0]!) + countTextTokens(input[1]!);
    const reserves = quotaStore.reserves.length;
    const response = await post({ model: 'batched-embed', input });
    expect(response.status).toBe(200);
    expect(quotaStore.reserves.slice(reserves)).toEqual([(input[0]!.length + input[1]!.length) * 3]);
    expect(tokens).toBeLessThan(input[0]!.length + input[1]!.length);
    expect((await readJson(response)).usage.prompt_tokens).toBe(tokens);
    const record = await recordOf(response);
    expect(record).toMatchObject({
      usage: { inputTokens: tokens },
      usageSource: 'gateway',
      credits: { charged: tokens * 3 },
    });
  });

  it('fails the whole call with the upstream error when one batch fails, and charges nothing', async () => {
    const input = Array.from({ length: 250 }, (_, index) => (index === 150 ? 'fail' : `text ${index}`));
    const before = quotaStore.getAccount('caller').balance;
    const response = await post({ model: 'batched-embed', input });
    expect(response.status).toBe(502);
    const body = await readJson(response);
    expect(body.error).toMatchObject({ message: 'The upstream failed this batch.', type: 'server_error' });
    expect(body.data).toBeUndefined();
    expect(quotaStore.getAccount('caller')).toMatchObject({ balance: before, reserved: 0 });
    const record = await recordOf(response);
    expect(record).toMatchObject({ operation: 'embed', outcome: 'error', credits: { charged: 0 } });
  });
});

function ctx() {
  return { upstreamModel: 'rosetta-embed', requestId: 'req_x', signal: new AbortController().signal };
}

describe('Gemini :embedContent and :batchEmbedContents', () => {
  function gemini(model: string, action: string, body: unknown, key = KEY, root = '/v1beta') {
    return fetch(`${gateway.url}${root}/models/${model}:${action}?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
  const vectorOf = (text: string, dimensions?: number) =>
    Array.from(local.embed({ model: 'x', inputs: [text], ...(dimensions ? { dimensions } : {}) }, ctx()).vectors[0]!);

  it.each(['/v1beta', '/v1'])('%s …:embedContent answers {embedding: {values}}', async (root) => {
    const response = await gemini(
      'rosetta-embed',
      'embedContent',
      { content: { parts: [{ text: 'hello' }, { text: 'world' }] }, outputDimensionality: 48 },
      KEY,
      root,
    );
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ embedding: { values: vectorOf('hello\nworld', 48) } });
  });

  it('…:batchEmbedContents answers {embeddings: [{values}]} in request order, through the batching provider', async () => {
    const texts = Array.from({ length: 150 }, (_, index) => `document ${index}`);
    const response = await gemini('batched-embed', 'batchEmbedContents', {
      requests: texts.map((text) => ({ model: 'models/batched-embed', content: { parts: [{ text }] } })),
    });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.embeddings).toHaveLength(150);
    expect(body.embeddings[120]).toEqual({ values: vectorOf('document 120') });
    expect(batched.calls.map((call) => call.inputs.length)).toEqual([100, 50]);
  });

  it('carries taskType, title and outputDimensionality (either spelling) into the canonical request', async () => {
    const response = await gemini('batched-embed', 'batchEmbedContents', {
      requests: [
        { content: { parts: [{ text: 'a' }] }, task_type: 'RETRIEVAL_DOCUMENT', title: 'T', output_dimensionality: 8 },
        { content: { parts: [{ text: 'b' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'T', outputDimensionality: 8 },
      ],
    });
    expect(response.status).toBe(200);
    expect(batched.calls[0]).toMatchObject({ taskType: 'RETRIEVAL_DOCUMENT', title: 'T', dimensions: 8 });
  });

  it('names what a lexical local model dropped in x-rosetta-warnings', async () => {
    const response = await gemini('rosetta-embed', 'embedContent', {
      content: { parts: [{ text: 'hello' }] },
      taskType: 'RETRIEVAL_QUERY',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rosetta-warnings')).toBe('unsupported-setting=taskType');
  });

  const bad: Array<[string, string, Json]> = [
    ['no content', 'embedContent', {}],
    ['an empty text', 'embedContent', { content: { parts: [{ text: '' }] } }],
    ['no parts', 'embedContent', { content: { parts: [] } }],
    ['a number as text', 'embedContent', { content: { parts: [{ text: 5 }] } }],
    [
      'an image part',
      'embedContent',
      { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } },
    ],
    ['outputDimensionality: 0', 'embedContent', { content: { parts: [{ text: 'x' }] }, outputDimensionality: 0 }],
    ['an empty batch', 'batchEmbedContents', { requests: [] }],
    [
      'another model in a batch',
      'batchEmbedContents',
      { requests: [{ model: 'models/other', content: { parts: [{ text: 'x' }] } }] },
    ],
    [
      '10,000 requests',
      'batchEmbedContents',
      { requests: Array.from({ length: 10_000 }, () => ({ content: { parts: [{ text: 'x' }] } })) },
    ],
    [
      'mixed task types in a batch',
      'batchEmbedContents',
      {
        requests: [
          { content: { parts: [{ text: 'x' }] }, taskType: 'RETRIEVAL_QUERY' },
          { content: { parts: [{ text: 'y' }] }, taskType: 'CLUSTERING' },
        ],
      },
    ],
  ];

  it.each(bad)('%s is a 400 in the Google error envelope, nothing sent upstream', async (_name, action, body) => {
    const response = await gemini('batched-embed', action, body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: expect.any(String),
    });
    expect(batched.calls).toHaveLength(0);
  });

  it('refuses a key with a zero balance with a 403 PERMISSION_DENIED before any upstream call', async () => {
    const response = await gemini('batched-embed', 'embedContent', { content: { parts: [{ text: 'x' }] } }, EMPTY);
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    expect(batched.calls).toHaveLength(0);
  });

  it('lists the embedding model with embedContent and batchEmbedContents', async () => {
    const model = await readJson(await fetch(`${gateway.url}/v1beta/models/rosetta-embed?key=${KEY}`));
    expect(model.supportedGenerationMethods).toEqual(['embedContent', 'batchEmbedContents']);
  });
});
