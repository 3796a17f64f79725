/**
 * Embeddings whose vectors the gateway hands through as the upstream wrote them (docs/performance.md, "Embeddings"):
 * when the caller's encoding is the upstream's, every number's text (or the base64) arrives unchanged; when they
 * differ, the values are converted between base64 float32 and JSON numbers. Both callers (OpenAI, Gemini), both
 * upstreams, batches split to the upstream's limit joined in input order, and the usage and charge exact.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  GeminiProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  type ModelConfig,
  OpenAIProvider,
  type UsageRecord,
} from '../../lib';
import { cutVectors, isNumberArray, vectorBase64, vectorJson, WireVector } from '../../lib/canonical/vectors';
import { parseEmbeddingsText } from '../../lib/providers/openai/embed';
import { serveGateway, type RunningGateway } from '../helpers/app';

const KEY = 'sk-embeddings-splice-0001';

/** Number texts an upstream may write that printing a parsed double would change (digits, exponents, zeros, blanks). */
function vectorText(input: number): string {
  const numbers = ['0.10000000000000000555', '-1.5E-7', '0', '123456789.000', `-0.${input + 1}00`];
  return `[ ${numbers.join(' ,\n')} ]`;
}

/** The float32 values of a vector text, as an upstream's base64 carries them. */
function float32Of(text: string): Float32Array {
  return Float32Array.from(JSON.parse(text) as number[]);
}

function base64Of(text: string): string {
  const floats = float32Of(text);
  return Buffer.from(floats.buffer).toString('base64');
}

interface Upstream {
  url: string;
  bodies: Array<Record<string, any>>;
  close(): Promise<void>;
}

/** An OpenAI-compatible and Gemini upstream in one: answers written as text, vectors identified by the input's number. */
async function startUpstream(): Promise<Upstream> {
  const bodies: Array<Record<string, any>> = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(raw);
      bodies.push(body);
      let text: string;
      if (request.url === '/v1/embeddings') {
        const inputs = body.input as string[];
        // Items in reverse order: the gateway places them by their index.
        const items = inputs.map((input, index) => {
          const vector = vectorText(Number(input.split(' ')[1]));
          const embedding = body.encoding_format === 'base64' ? `"${base64Of(vector)}"` : vector;
          return `{"object":"embedding","index":${index},"embedding" : ${embedding}}`;
        });
        text = `{"object":"list","data":[${items.reverse().join(',')}],"model":"up-model","usage":{"prompt_tokens":${
          inputs.length * 3
        },"total_tokens":${inputs.length * 3}}}`;
      } else {
        const requests = body.requests as Array<{ content: { parts: Array<{ text: string }> } }>;
        const items = requests.map(
          (item) => `{"values":${vectorText(Number(item.content.parts[0]!.text.split(' ')[1]))}}`,
        );
        text = `{"embeddings": [${items.join(', ')}]}`;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const models: ModelConfig[] = [
  { id: 'oa-embed', provider: 'openai', type: 'embedding', pricing: { input: 2 } },
  { id: 'oa-float-embed', provider: 'openai-floats', type: 'embedding', pricing: { input: 2 } },
  { id: 'gm-embed', provider: 'gemini', type: 'embedding', pricing: { input: 5 } },
];

let upstream: Upstream;
let gateway: RunningGateway;
const records: UsageRecord[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 1_000_000 } }),
    providers: [
      new OpenAIProvider({ baseUrl: `${upstream.url}/v1`, apiKey: 'sk-up', maxEmbedInputs: 3, retries: { max: 0 } }),
      new OpenAIProvider({
        name: 'openai-floats',
        baseUrl: `${upstream.url}/v1`,
        apiKey: 'sk-up',
        maxEmbedInputs: 3,
        embeddingsBase64: false,
        retries: { max: 0 },
      }),
      new GeminiProvider({ baseUrl: upstream.url, apiKey: 'AIzaSyGeminiSplice0123456789abcdefghi', maxEmbedInputs: 2 }),
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

const inputs = (count: number) => Array.from({ length: count }, (_, index) => `passage ${index}`);

async function openAI(model: string, count: number, format?: 'float' | 'base64') {
  const response = await fetch(`${gateway.url}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, input: inputs(count), ...(format ? { encoding_format: format } : {}) }),
  });
  expect(response.status).toBe(200);
  return { text: await response.text(), requestId: response.headers.get('x-request-id') };
}

async function gemini(model: string, count: number) {
  const requests = inputs(count).map((text) => ({ model: `models/${model}`, content: { parts: [{ text }] } }));
  const response = await fetch(`${gateway.url}/v1beta/models/${model}:batchEmbedContents`, {
    method: 'POST',
    headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ requests }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The text of each `"embedding"` / `"values"` value in an answer, in order. */
function vectorTexts(answer: string, key: string): string[] {
  const { cut } = cutVectors(answer, key);
  return cut;
}

async function recordOf(requestId: string | null): Promise<UsageRecord> {
  for (let waited = 0; waited < 5_000; waited += 5) {
    const record = records.find((candidate) => candidate.requestId === requestId);
    if (record) return record;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no record for ${requestId}`);
}

describe('OpenAI caller', () => {
  it('floats from a float upstream: every number text unchanged, 7 inputs over batches of 3 in input order', async () => {
    const { text, requestId } = await openAI('oa-float-embed', 7, 'float');
    const answer = JSON.parse(text);
    expect(answer.data.map((item: { index: number }) => item.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(vectorTexts(text, 'embedding')).toEqual(inputs(7).map((_, index) => vectorText(index)));
    expect(answer.usage).toEqual({ prompt_tokens: 21, total_tokens: 21 });
    expect(upstream.bodies.slice(-3).map((body) => body.input.length)).toEqual([3, 3, 1]);
    const record = await recordOf(requestId);
    expect(record.usage?.inputTokens).toBe(21);
    expect(record.credits.charged).toBe(42);
  });

  it('base64 from a base64 upstream: the upstream base64 unchanged', async () => {
    const { text } = await openAI('oa-embed', 4, 'base64');
    const answer = JSON.parse(text);
    expect(upstream.bodies.at(-1)!.encoding_format).toBe('base64');
    expect(answer.data.map((item: { embedding: string }) => item.embedding)).toEqual(
      inputs(4).map((_, index) => base64Of(vectorText(index))),
    );
  });

  it('base64 from a float upstream, and floats (the default) converted back: the float32 values', async () => {
    const { text } = await openAI('oa-float-embed', 4, 'base64');
    expect(upstream.bodies.at(-1)!.encoding_format).toBeUndefined();
    const answer = JSON.parse(text);
    expect(answer.data.map((item: { embedding: string }) => item.embedding)).toEqual(
      inputs(4).map((_, index) => base64Of(vectorText(index))),
    );
    const floats = JSON.parse((await openAI('oa-float-embed', 2)).text);
    expect(floats.data[1].embedding).toEqual(JSON.parse(vectorText(1)));
  });

  it('base64 from a Gemini upstream (JSON numbers converted to float32), in input order over batches of 2', async () => {
    const { text } = await openAI('gm-embed', 5, 'base64');
    const answer = JSON.parse(text);
    expect(answer.data.map((item: { embedding: string }) => item.embedding)).toEqual(
      inputs(5).map((_, index) => base64Of(vectorText(index))),
    );
  });
});

describe('Gemini caller', () => {
  it('values from a Gemini upstream: every number text unchanged, in request order', async () => {
    const text = await gemini('gm-embed', 5);
    expect(vectorTexts(text, 'values')).toEqual(inputs(5).map((_, index) => vectorText(index)));
    expect(JSON.parse(text).embeddings).toHaveLength(5);
  });

  it('values from an OpenAI upstream unchanged (a Gemini caller never asks it for base64)', async () => {
    for (const model of ['oa-float-embed', 'oa-embed']) {
      const text = await gemini(model, 4);
      expect(upstream.bodies.at(-1)!.encoding_format).toBeUndefined();
      expect(vectorTexts(text, 'values')).toEqual(inputs(4).map((_, index) => vectorText(index)));
    }
  });
});

describe('the vector helpers', () => {
  it('cut only arrays of numbers and base64 strings; anything else stays in the text to be parsed', () => {
    const text = '{"data":[{"embedding":[1,,2]},{"embedding":"AAAA"},{"embedding":[1e5, -0.0]},{"embedding":{"x":1}}]}';
    const { skeleton, cut } = cutVectors(text, 'embedding');
    expect(cut).toEqual(['"AAAA"', '[1e5, -0.0]']);
    expect(skeleton).toContain('[1,,2]');
    expect(isNumberArray('[1, 2.5e-3 ,-0]')).toBe(true);
    expect(isNumberArray('[01]')).toBe(false);
    expect(isNumberArray('[1] ')).toBe(false);
  });

  it('refuses an upstream vector that is not numbers with upstream_malformed, and reads one without the fast path', () => {
    const bad = '{"data":[{"index":0,"embedding":[1,true]}]}';
    expect(() => parseEmbeddingsText(bad, 1, 'up', 'm')).toThrow(/not numbers/);
    const escaped = '{"data":[{"index":0,"embedding":"AACAPw\\u003d\\u003d"}]}';
    const vector = parseEmbeddingsText(escaped, 1, 'up', 'm').vectors[0]!;
    expect(Array.from(vector as Float32Array)).toEqual([1]);
  });

  it('converts base64 and JSON text both ways, non-finite values as null', () => {
    const json = new WireVector('[0.5, -2, 3e2]', 'json');
    const base64 = vectorBase64(json);
    expect(vectorJson(new WireVector(base64, 'base64'))).toBe('[0.5,-2,300]');
    expect(vectorJson(json)).toBe('[0.5, -2, 3e2]');
    expect(vectorJson(Float32Array.of(1, Number.NaN))).toBe('[1,null]');
    expect(vectorJson(new WireVector('[ ]', 'json'))).toBe('[ ]');
    expect(vectorBase64(new WireVector('[ ]', 'json'))).toBe('');
  });
});
