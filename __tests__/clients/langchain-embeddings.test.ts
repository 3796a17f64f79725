/**
 * LangChain's `OpenAIEmbeddings` (@langchain/openai, which drives the openai SDK) against the gateway: `embedQuery`
 * and `embedDocuments` on the offline local model and through a loopback OpenAI-compatible upstream, with its own
 * batching (`batchSize`) over the gateway's, and `dimensions`.
 */
import { OpenAIEmbeddings } from '@langchain/openai';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { localEmbedding } from '../../lib/providers/local/embed';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { type MockEmbeddings, mockVector, startMockOpenAIEmbeddings } from '../helpers/mock-embeddings';

const KEY = 'sk-embeddings-langchain-caller';
const OPENAI_KEY = 'sk-upstream-embeddings-langchain';

const models: ModelConfig[] = [
  { id: 'rosetta-embed', provider: 'local', type: 'embedding' },
  { id: 'oa-embed', provider: 'openai', type: 'embedding', upstreamModel: 'text-embedding-3-small' },
];

let upstream: MockEmbeddings;
let server: RunningGateway;

beforeAll(async () => {
  upstream = await startMockOpenAIEmbeddings({ limit: 100, apiKey: OPENAI_KEY });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } }),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: upstream.url, apiKey: OPENAI_KEY, maxEmbedInputs: 100, retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.bodies.length = 0;
});

const embeddings = (model: string, options: { batchSize?: number; dimensions?: number } = {}) =>
  new OpenAIEmbeddings({
    model,
    apiKey: KEY,
    configuration: { baseURL: `${server.url}/v1` },
    maxRetries: 0,
    ...options,
  });

/** As float32, what the openai SDK under LangChain decodes from the base64 it asks for. */
const f32 = (values: ArrayLike<number>) => Array.from(Float32Array.from(values));

describe('LangChain OpenAIEmbeddings', () => {
  it('embedQuery on the local model: the model’s vector for the text', async () => {
    const vector = await embeddings('rosetta-embed').embedQuery('the lighthouse keeper');
    expect(vector).toEqual(f32(localEmbedding('the lighthouse keeper', 256)));
  });

  it('embedDocuments on the local model with dimensions: one vector per document, in order', async () => {
    const documents = ['alpha beacon', 'beta harbour', 'gamma tide'];
    const vectors = await embeddings('rosetta-embed', { dimensions: 32 }).embedDocuments(documents);
    expect(vectors).toEqual(documents.map((text) => f32(localEmbedding(text, 32))));
  });

  it('embedDocuments through an upstream taking 100 per call: LangChain’s batches of 150, the gateway’s of 100', async () => {
    const documents = Array.from({ length: 250 }, (_, index) => `passage ${index}`);
    const vectors = await embeddings('oa-embed', { batchSize: 150 }).embedDocuments(documents);
    expect(vectors).toHaveLength(250);
    expect(vectors).toEqual(documents.map((text) => f32(mockVector(text))));
    // LangChain's two calls (150 and 100 documents, sent at once) became three upstream calls of at most 100.
    const sizes = upstream.bodies.map((body) => body.input.length as number);
    expect(sizes.sort((a, b) => a - b)).toEqual([50, 100, 100]);
  });
});
