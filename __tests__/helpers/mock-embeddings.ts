/**
 * Mock embedding upstreams on loopback speaking the real wire formats: an OpenAI-compatible `POST /v1/embeddings` and
 * Gemini's `POST /v1beta/models/{model}:batchEmbedContents`. Each answers the vector {@link mockVector} of every input,
 * refuses a call over its per-call `limit` with a 400 (so a gateway that did not split would fail), records what it
 * was sent, and fails a call holding the text `fail`.
 */
import { localEmbedding } from '../../lib/providers/local/embed';
import { startMockServer, type MockServer } from './mock-server';

/** The vector a mock answers for an input: the local model's, at `dimensions` (default 8). */
export function mockVector(input: string | number[], dimensions = 8): number[] {
  return Array.from(localEmbedding(input, dimensions));
}

/** Tokens the OpenAI mock reports per input (not the gateway's count, so a test can tell which was charged). */
export const MOCK_TOKENS_PER_INPUT = 5;

export interface MockEmbeddings extends MockServer {
  /** Base URL for the provider (`…/v1` for OpenAI, the origin for Gemini). */
  url: string;
  /** Every body received, in order. */
  readonly bodies: Array<Record<string, any>>;
  /** Every path requested, in order. */
  readonly paths: string[];
  /** While true, every call is a 503 (the OpenAI mock): an upstream account that is failing. */
  failing: boolean;
}

function json(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** An OpenAI-compatible `/v1/embeddings`: floats, or base64 when asked; `usage.prompt_tokens` 5 per input. */
export async function startMockOpenAIEmbeddings(
  options: { limit?: number; apiKey?: string } = {},
): Promise<MockEmbeddings> {
  const bodies: Array<Record<string, any>> = [];
  const paths: string[] = [];
  const limit = options.limit ?? 2048;
  const server = await startMockServer((body, request, response) => {
    bodies.push(body);
    paths.push(request.url ?? '');
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`)
      return json(response, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } });
    if (request.url !== '/v1/embeddings') return json(response, 404, { error: { message: 'not found' } });
    const raw = body.input;
    const inputs: Array<string | number[]> =
      typeof raw === 'string'
        ? [raw]
        : Array.isArray(raw) && typeof raw[0] === 'number'
          ? [raw as number[]]
          : (raw as Array<string | number[]>);
    if (inputs.length > limit)
      return json(response, 400, {
        error: { message: `'$.input' must have at most ${limit} items.`, type: 'invalid_request_error' },
      });
    if (mock.failing || inputs.includes('fail'))
      return json(response, 503, { error: { message: 'The mock is overloaded.', type: 'server_error' } });
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : undefined;
    const data = inputs.map((input, index) => {
      const vector = mockVector(input, dimensions);
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    // Answered out of order, as the index says where each belongs.
    data.reverse();
    const tokens = MOCK_TOKENS_PER_INPUT * inputs.length;
    json(response, 200, {
      object: 'list',
      data,
      model: `${String(body.model)}-v1`,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
  const mock: MockEmbeddings = Object.assign(server, { url: `${server.origin}/v1`, bodies, paths, failing: false });
  return mock;
}

/** Gemini `batchEmbedContents` (and nothing else): `{embeddings: [{values}]}`, no usage, as Google answers. */
export async function startMockGeminiEmbeddings(
  options: { limit?: number; apiKey?: string } = {},
): Promise<MockEmbeddings> {
  const bodies: Array<Record<string, any>> = [];
  const paths: string[] = [];
  const limit = options.limit ?? 100;
  const server = await startMockServer((body, request, response) => {
    bodies.push(body);
    paths.push(request.url ?? '');
    if (options.apiKey && request.headers['x-goog-api-key'] !== options.apiKey)
      return json(response, 400, {
        error: {
          code: 400,
          message: 'API key not valid.',
          status: 'INVALID_ARGUMENT',
          details: [{ reason: 'API_KEY_INVALID' }],
        },
      });
    const match = /^\/v1beta\/models\/([^/:]+):batchEmbedContents$/.exec(request.url ?? '');
    if (!match) return json(response, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
    const requests = body.requests as Array<Record<string, any>>;
    if (requests.length > limit)
      return json(response, 400, {
        error: { code: 400, message: `at most ${limit} requests can be in one batch`, status: 'INVALID_ARGUMENT' },
      });
    const embeddings = [];
    for (const item of requests) {
      if (item.model !== `models/${match[1]}`)
        return json(response, 400, { error: { code: 400, message: 'model mismatch', status: 'INVALID_ARGUMENT' } });
      const text = (item.content.parts as Array<{ text: string }>).map((part) => part.text).join('\n');
      if (text === 'fail')
        return json(response, 503, {
          error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
        });
      embeddings.push({ values: mockVector(text, item.outputDimensionality) });
    }
    json(response, 200, { embeddings });
  });
  return Object.assign(server, { url: server.origin, bodies, paths, failing: false });
}
