/**
 * Embeddings through the official clients: the openai SDK's `embeddings.create` (its default base64 and explicit
 * float, one input and a batch) and @google/genai's `models.embedContent` (one content and a batch), offline on the
 * local model and through loopback mock upstreams of both kinds (OpenAI-compatible `/v1/embeddings`, Gemini
 * `batchEmbedContents`); and the Vercel AI SDK's `embed` / `embedMany` with the OpenAI and Google providers.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import { embed, embedMany } from 'ai';
import OpenAI from 'openai';
import {
  GeminiProvider,
  LocalProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type ModelConfig,
} from '../../lib';
import { localEmbedding } from '../../lib/providers/local/embed';
import { type Json, readJson, serveGateway, type RunningGateway } from '../helpers/app';
import {
  MOCK_TOKENS_PER_INPUT,
  type MockEmbeddings,
  mockVector,
  startMockGeminiEmbeddings,
  startMockOpenAIEmbeddings,
} from '../helpers/mock-embeddings';

const KEY = 'sk-embeddings-sdk-caller-01';
const OPENAI_KEY = 'sk-upstream-embeddings-openai';
const GEMINI_KEY = 'AIzaSyEmbeddingsSecret0123456789abcd';

const models: ModelConfig[] = [
  { id: 'rosetta-embed', provider: 'local', type: 'embedding' },
  { id: 'oa-embed', provider: 'openai', type: 'embedding', upstreamModel: 'text-embedding-3-small' },
  { id: 'gm-embed', provider: 'gemini', type: 'embedding', upstreamModel: 'gemini-embedding-001' },
];

let openaiMock: MockEmbeddings;
let geminiMock: MockEmbeddings;
let server: RunningGateway;
const quota = new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } });

beforeAll(async () => {
  [openaiMock, geminiMock] = await Promise.all([
    startMockOpenAIEmbeddings({ limit: 100, apiKey: OPENAI_KEY }),
    startMockGeminiEmbeddings({ limit: 100, apiKey: GEMINI_KEY }),
  ]);
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: OPENAI_KEY, maxEmbedInputs: 100, retries: { max: 0 } }),
      new GeminiProvider({ baseUrl: geminiMock.url, apiKey: GEMINI_KEY, retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([openaiMock.close(), geminiMock.close()]);
});
beforeEach(() => {
  openaiMock.bodies.length = 0;
  geminiMock.bodies.length = 0;
});

/** The vector each model answers for a text: the local model's at 256 dimensions, the mocks' at `dimensions`. */
function expected(model: string, text: string, dimensions?: number): number[] {
  if (model === 'rosetta-embed') return Array.from(localEmbedding(text, dimensions ?? 256));
  return mockVector(text, dimensions);
}

/** As float32 (what a base64 answer carries). */
const f32 = (values: number[]) => Array.from(Float32Array.from(values));

const MODELS = ['rosetta-embed', 'oa-embed', 'gm-embed'] as const;

describe('openai SDK embeddings.create', () => {
  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });

  it.each(MODELS)('%s: one input, the SDK default (base64, decoded by the SDK)', async (model) => {
    const result = await client().embeddings.create({ model, input: 'the lighthouse keeper' });
    expect(result.object).toBe('list');
    expect(result.data).toHaveLength(1);
    expect(result.data[0]!.embedding).toEqual(f32(expected(model, 'the lighthouse keeper')));
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    if (model === 'oa-embed') {
      expect(result.model).toBe('text-embedding-3-small-v1');
      // The caller's base64 is asked of an OpenAI-compatible upstream too: bytes to copy, not numbers to parse.
      expect(openaiMock.bodies[0]).toEqual({
        model: 'text-embedding-3-small',
        input: ['the lighthouse keeper'],
        encoding_format: 'base64',
      });
    }
  });

  it.each(MODELS)('%s: a batch in explicit float, in input order, dimensions honoured', async (model) => {
    const input = ['first text', 'second text', 'third text'];
    const result = await client().embeddings.create({ model, input, encoding_format: 'float', dimensions: 16 });
    expect(result.data.map((item) => item.index)).toEqual([0, 1, 2]);
    result.data.forEach((item, index) => {
      const want = expected(model, input[index]!, 16);
      // A Gemini or OpenAI upstream's numbers pass through as they came; the local model's are float32.
      expect(item.embedding).toEqual(model === 'rosetta-embed' ? f32(want) : want);
    });
    if (model === 'oa-embed') {
      expect(openaiMock.bodies[0]).toEqual({ model: 'text-embedding-3-small', input, dimensions: 16 });
      expect(result.usage.prompt_tokens).toBe(3 * MOCK_TOKENS_PER_INPUT);
    }
    if (model === 'gm-embed')
      expect(geminiMock.bodies[0]!.requests[0]).toEqual({
        model: 'models/gemini-embedding-001',
        content: { parts: [{ text: 'first text' }] },
        outputDimensionality: 16,
      });
  });

  it('a 300-input batch to upstreams taking 100 per call: three upstream calls each, 300 vectors in order', async () => {
    const input = Array.from({ length: 300 }, (_, index) => `passage ${index}`);
    for (const model of ['oa-embed', 'gm-embed'] as const) {
      const result = await client().embeddings.create({ model, input });
      expect(result.data).toHaveLength(300);
      result.data.forEach((item, index) => {
        expect(item.embedding).toEqual(f32(mockVector(input[index]!)));
      });
    }
    expect(openaiMock.bodies.map((body) => body.input.length)).toEqual([100, 100, 100]);
    expect(geminiMock.bodies.map((body) => body.requests.length)).toEqual([100, 100, 100]);
    expect(geminiMock.bodies[2]!.requests[0].content.parts[0].text).toBe('passage 200');
  });

  it('token ids reach an OpenAI upstream as ids, and are a 400 that says why for a Gemini upstream', async () => {
    const ok = await client().embeddings.create({ model: 'oa-embed', input: [[1, 2, 3]], encoding_format: 'float' });
    expect(ok.data[0]!.embedding).toEqual(mockVector([1, 2, 3]));
    expect(openaiMock.bodies[0]!.input).toEqual([[1, 2, 3]]);
    const refused = await client()
      .embeddings.create({ model: 'gm-embed', input: [[1, 2, 3]] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      'Gemini embedding models take text only',
    );
    expect(geminiMock.bodies).toHaveLength(0);
  });

  it('one failing batch fails the call with the upstream error (no partial answer)', async () => {
    const input = Array.from({ length: 150 }, (_, index) => (index === 120 ? 'fail' : `text ${index}`));
    const failed = await client()
      .embeddings.create({ model: 'oa-embed', input })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
  });
});

/**
 * @google/genai against the gateway. `fetch` is passed through only because Jest's sandbox hides the undici global
 * dispatcher the SDK's default transport looks for (as in sdk.test.ts).
 */
const genai = (apiVersion?: string) =>
  new GoogleGenAI({
    apiKey: KEY,
    ...(apiVersion ? { apiVersion } : {}),
    httpOptions: { baseUrl: server.url, fetch: (...args: Parameters<typeof fetch>) => fetch(...args) },
  });

describe('@google/genai models.embedContent', () => {
  const client = () => genai();

  const singles: Array<[(typeof MODELS)[number], string]> = [
    ...MODELS.map((model) => [model, 'v1beta'] as [(typeof MODELS)[number], string]),
    ['gm-embed', 'v1'],
  ];
  it.each(singles)('%s: one content (%s)', async (model, version) => {
    const result = await genai(version).models.embedContent({ model, contents: 'the lighthouse keeper' });
    expect(result.embeddings).toHaveLength(1);
    expect(result.embeddings![0]!.values).toEqual(
      model === 'rosetta-embed'
        ? f32(expected(model, 'the lighthouse keeper'))
        : expected(model, 'the lighthouse keeper'),
    );
  });

  it.each(MODELS)('%s: a batch with outputDimensionality, in order', async (model) => {
    const contents = ['alpha', 'beta', 'gamma', 'delta'];
    const result = await client().models.embedContent({ model, contents, config: { outputDimensionality: 12 } });
    expect(result.embeddings).toHaveLength(4);
    result.embeddings!.forEach((embedding, index) => {
      const want = expected(model, contents[index]!, 12);
      expect(embedding.values).toEqual(model === 'rosetta-embed' ? f32(want) : want);
    });
  });

  it('carries taskType and title to a Gemini upstream, and drops them for an OpenAI one with a warning', async () => {
    const config = { taskType: 'RETRIEVAL_DOCUMENT', title: 'Lighthouses' };
    await client().models.embedContent({ model: 'gm-embed', contents: ['a'], config });
    expect(geminiMock.bodies[0]!.requests[0]).toMatchObject(config);
    const response = await fetch(`${server.url}/v1beta/models/oa-embed:batchEmbedContents`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        requests: [{ model: 'models/oa-embed', content: { parts: [{ text: 'a' }] }, ...config }],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rosetta-warnings')).toBe('unsupported-setting=taskType; unsupported-setting=title');
    expect(openaiMock.bodies[0]).toEqual({ model: 'text-embedding-3-small', input: ['a'] });
  });

  it('a 300-request batch to a Gemini upstream taking 100 per call makes three calls', async () => {
    const contents = Array.from({ length: 300 }, (_, index) => `doc ${index}`);
    const result = await client().models.embedContent({ model: 'gm-embed', contents });
    expect(result.embeddings).toHaveLength(300);
    expect(result.embeddings![299]!.values).toEqual(mockVector('doc 299'));
    expect(geminiMock.bodies.map((body) => body.requests.length)).toEqual([100, 100, 100]);
  });
});

describe('Vercel AI SDK embed / embedMany', () => {
  const openai = () => createOpenAI({ baseURL: `${server.url}/v1`, apiKey: KEY });
  const google = () => createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: KEY });

  it.each(MODELS)('OpenAI provider, %s: embed and embedMany', async (model) => {
    const one = await embed({ model: openai().embedding(model), value: 'sunny day at the beach', maxRetries: 0 });
    expect(one.embedding).toEqual(expect.arrayContaining([expect.any(Number)]));
    const many = await embedMany({ model: openai().embedding(model), values: ['one', 'two', 'three'], maxRetries: 0 });
    expect(many.embeddings).toHaveLength(3);
    many.embeddings.forEach((vector, index) => {
      const want = expected(model, ['one', 'two', 'three'][index]!);
      expect(vector).toEqual(model === 'rosetta-embed' ? f32(want) : want);
    });
    expect(many.usage.tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('Google provider, %s: embed and embedMany', async (model) => {
    const one = await embed({ model: google().embedding(model), value: 'sunny day', maxRetries: 0 });
    expect(one.embedding.length).toBeGreaterThan(0);
    const many = await embedMany({ model: google().embedding(model), values: ['one', 'two'], maxRetries: 0 });
    many.embeddings.forEach((vector, index) => {
      const want = expected(model, ['one', 'two'][index]!);
      expect(vector).toEqual(model === 'rosetta-embed' ? f32(want) : want);
    });
  });
});

describe('errors reach the SDKs in their own envelopes', () => {
  it('a bad input is an OpenAI 400 and a Gemini INVALID_ARGUMENT', async () => {
    const openai = await fetch(`${server.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'oa-embed', input: [] }),
    });
    expect(openai.status).toBe(400);
    expect(((await readJson(openai)) as Json).error.type).toBe('invalid_request_error');
    const gemini = await genai()
      .models.embedContent({ model: 'gm-embed', contents: [''] })
      .catch((error: unknown) => error);
    expect(String(gemini)).toContain('INVALID_ARGUMENT');
    expect(openaiMock.bodies).toHaveLength(0);
    expect(geminiMock.bodies).toHaveLength(0);
  });
});
