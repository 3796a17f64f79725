import request from 'supertest';
import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { buildApp, EMPTY_KEY, listen, TEST_KEY, testOptions, type Json } from '../../helpers/app';
import { GatewayError, LocalProvider } from '../../../lib';
import { countTextTokens, LOCAL_MODELS } from '../../../lib/extend';
import type { GenerateRequest, Provider, StreamPart } from '../../../lib';
import { geminiCodec } from '../../../lib/protocols/gemini';
import { GENERATE_CONTENT, STREAM_GENERATE_CONTENT } from '../../../lib/protocols/gemini/routes';

const codec = geminiCodec();

/** A provider that streams a start and one text delta, then fails upstream. */
const breaking: Provider = {
  specificationVersion: 'v1',
  name: 'breaking',
  async *stream(request: GenerateRequest): AsyncGenerator<StreamPart> {
    yield { type: 'response-start', id: 'resp-broken', model: request.model, created: 1, usage: { inputTokens: 3 } };
    yield { type: 'text-start', id: '0' };
    yield { type: 'text-delta', id: '0', delta: 'partial answer' };
    throw new GatewayError('upstream', 'The upstream connection broke.');
  },
};

/** A provider whose every stream waits after its first delta until the test calls `release()`. */
function gatedProvider(): { provider: Provider; release: () => void } {
  let release: () => void = () => undefined;
  const provider: Provider = {
    specificationVersion: 'v1',
    name: 'gated',
    async *stream(request: GenerateRequest): AsyncGenerator<StreamPart> {
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      yield { type: 'response-start', id: 'resp-gated', model: request.model, created: 1, usage: { inputTokens: 2 } };
      yield { type: 'text-start', id: '0' };
      yield { type: 'text-delta', id: '0', delta: 'before' };
      await gate;
      yield { type: 'text-delta', id: '0', delta: ' after' };
      yield { type: 'text-end', id: '0' };
      yield { type: 'finish', usage: { inputTokens: 2, outputTokens: 2 }, finishReason: { unified: 'stop' } };
    },
  };
  return { provider, release: () => release() };
}

const gated = gatedProvider();
const { app } = buildApp(
  testOptions({
    providers: [new LocalProvider(), breaking, gated.provider],
    models: [...LOCAL_MODELS, { id: 'broken', provider: 'breaking' }, { id: 'gated', provider: 'gated' }],
  }),
);

const SSE_V1BETA = '/v1beta/models/rosetta-echo:streamGenerateContent?alt=sse';
const SSE_V1 = '/v1/models/rosetta-echo:streamGenerateContent?alt=sse';
const ARRAY_V1BETA = '/v1beta/models/rosetta-echo:streamGenerateContent';
const REPLY = 'Hello there, streaming world of tokens';
const body = { contents: [{ role: 'user', parts: [{ text: REPLY }] }] };

/** Reads the body as raw text, whatever the content type. */
function rawText(res: request.Response, done: (error: Error | null, text: string) => void): void {
  // In Node, superagent hands a custom parser the IncomingMessage itself.
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
  });
  stream.on('end', () => done(null, text));
}

/** Posts and reads the raw body; `key: null` sends no x-goog-api-key header. */
function postRaw(path: string, payload: unknown, key: string | null = TEST_KEY) {
  const call = request(app).post(path);
  if (key !== null) call.set('x-goog-api-key', key);
  return call
    .send(payload as object)
    .buffer(true)
    .parse(rawText);
}

/** The events of an SSE body, checked frame by frame: each exactly `data: <one-line JSON>` and a blank line. */
function sseEvents(text: string): Json[] {
  expect(text.endsWith('\n\n')).toBe(true);
  expect(text).not.toMatch(/^event:/m);
  expect(text).not.toContain('[DONE]');
  const frames = text.slice(0, -2).split('\n\n');
  return frames.map((frame) => {
    expect(frame).toMatch(/^data: \{[^\n]*\}$/);
    return JSON.parse(frame.slice('data: '.length)) as Json;
  });
}

function textOf(chunks: Json[]): string {
  return chunks
    .map((chunk) => (chunk.candidates[0].content.parts as Json[]).map((part) => part.text ?? '').join(''))
    .join('');
}

function expectStreamedReply(chunks: Json[], reply: string, finishReason: string) {
  expect(chunks.length).toBeGreaterThan(2);
  const last = chunks[chunks.length - 1]!;
  const responseId = chunks[0]!.responseId;
  expect(typeof responseId).toBe('string');
  for (const chunk of chunks) {
    expect(chunk.modelVersion).toBe('rosetta-echo');
    expect(chunk.responseId).toBe(responseId);
    expect(chunk.candidates).toHaveLength(1);
    expect(chunk.candidates[0]).toMatchObject({ content: { role: 'model' }, index: 0 });
    if (chunk !== last) expect(chunk.candidates[0].finishReason).toBeUndefined();
  }
  expect(textOf(chunks)).toBe(reply);
  expect(last.candidates[0].finishReason).toBe(finishReason);
  const completion = countTextTokens(reply);
  const prompt = chunks[0]!.usageMetadata.promptTokenCount;
  expect(Number.isInteger(prompt) && prompt > 0).toBe(true);
  expect(last.usageMetadata).toEqual({
    promptTokenCount: prompt,
    candidatesTokenCount: completion,
    totalTokenCount: prompt + completion,
  });
}

describe('match', () => {
  it.each(['/v1beta', '/v1'])('claims %s/models/{model}:streamGenerateContent', (root) => {
    expect(codec.match(`${root}/models/rosetta-echo:streamGenerateContent`)).toEqual({
      route: STREAM_GENERATE_CONTENT,
      params: { model: 'rosetta-echo', action: 'streamGenerateContent' },
    });
    expect(codec.match(`${root}/models/vendor/x:streamGenerateContent`)?.params.model).toBe('vendor/x');
  });

  it('decodes stream: true for streamGenerateContent only', () => {
    const view = (query: string) => ({
      method: 'POST',
      path: '/',
      headers: {},
      query: new URLSearchParams(query),
      body,
    });
    const streamed = STREAM_GENERATE_CONTENT.decode(view('alt=sse'), { model: 'm', action: 'streamGenerateContent' });
    const single = GENERATE_CONTENT.decode(view(''), { model: 'm', action: 'generateContent' });
    expect(streamed.stream).toBe(true);
    expect(single.stream).toBe(false);
  });
});

describe('POST :streamGenerateContent?alt=sse', () => {
  it.each([SSE_V1BETA, SSE_V1])('%s streams the reply as data-only events', async (path) => {
    const res = await postRaw(path, body);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expectStreamedReply(sseEvents(res.body as string), REPLY, 'STOP');
  });

  it('the prompt count matches the non-streamed response', async () => {
    const single = await request(app)
      .post('/v1beta/models/rosetta-echo:generateContent')
      .set('x-goog-api-key', TEST_KEY)
      .send(body);
    const chunks = sseEvents((await postRaw(SSE_V1BETA, body)).body as string);
    expect(chunks[0]!.usageMetadata).toEqual({ promptTokenCount: single.body.usageMetadata.promptTokenCount });
    expect(chunks[chunks.length - 1]!.usageMetadata).toEqual(single.body.usageMetadata);
  });

  it('only the first and the last chunk carry usageMetadata; text chunks carry one text part each', async () => {
    const chunks = sseEvents((await postRaw(SSE_V1BETA, body)).body as string);
    chunks.slice(1, -1).forEach((chunk) => {
      expect(chunk.usageMetadata).toBeUndefined();
      expect(chunk.candidates[0].content.parts).toEqual([{ text: expect.any(String) }]);
    });
  });

  it('a reply cut at maxOutputTokens ends with MAX_TOKENS and the capped count', async () => {
    const res = await postRaw(SSE_V1BETA, { ...body, generationConfig: { maxOutputTokens: 3 } });
    const chunks = sseEvents(res.body as string);
    const text = textOf(chunks);
    expect(countTextTokens(text)).toBe(3);
    expect(REPLY.startsWith(text)).toBe(true);
    expectStreamedReply(chunks, text, 'MAX_TOKENS');
  });

  it('a reply cut at a stop sequence ends with STOP', async () => {
    const chunks = sseEvents(
      (await postRaw(SSE_V1BETA, { ...body, generationConfig: { stopSequences: [', streaming'] } })).body as string,
    );
    expect(textOf(chunks)).toBe('Hello there');
    expect(chunks[chunks.length - 1]!.candidates[0].finishReason).toBe('STOP');
  });

  it('accepts the key as ?key=', async () => {
    const res = await postRaw(`${SSE_V1BETA}&key=${TEST_KEY}`, body, null);
    expect(res.status).toBe(200);
    expectStreamedReply(sseEvents(res.body as string), REPLY, 'STOP');
  });
});

describe('POST :streamGenerateContent without alt=sse (JSON array)', () => {
  it.each([ARRAY_V1BETA, `${ARRAY_V1BETA}?alt=json`, '/v1/models/rosetta-echo:streamGenerateContent'])(
    '%s answers one JSON array of responses',
    async (path) => {
      const res = await postRaw(path, body);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const text = res.body as string;
      expect(text.startsWith('[{')).toBe(true);
      expect(text.endsWith('}]')).toBe(true);
      expect(text).toContain('},\r\n{');
      expect(text).not.toContain('data:');
      const chunks = JSON.parse(text) as Json[];
      expect(Array.isArray(chunks)).toBe(true);
      expectStreamedReply(chunks, REPLY, 'STOP');
    },
  );
});

describe('errors before the stream starts are ordinary JSON errors', () => {
  function expectGeminiError(res: request.Response, code: number, status: string) {
    expect(res.status).toBe(code);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const parsed = JSON.parse(res.body as string) as Json;
    expect(parsed.error).toMatchObject({ code, status, message: expect.any(String) });
    return parsed;
  }

  it('401 without a key and with a wrong key', async () => {
    expectGeminiError(await postRaw(SSE_V1BETA, body, null), 401, 'UNAUTHENTICATED');
    expectGeminiError(await postRaw(SSE_V1BETA, body, 'wrong-key'), 401, 'UNAUTHENTICATED');
  });

  it('403 for a key with no balance', async () => {
    expectGeminiError(await postRaw(SSE_V1BETA, body, EMPTY_KEY), 403, 'PERMISSION_DENIED');
  });

  it('404 for an unknown model', async () => {
    expectGeminiError(
      await postRaw('/v1beta/models/no-such-model:streamGenerateContent?alt=sse', body),
      404,
      'NOT_FOUND',
    );
  });

  it('400 for a bad body, naming the field', async () => {
    const parsed = expectGeminiError(await postRaw(SSE_V1BETA, { contents: [] }), 400, 'INVALID_ARGUMENT');
    expect(parsed.error.message).toContain('contents');
  });

  it('400 naming alt for a framing this gateway does not write', async () => {
    const parsed = expectGeminiError(await postRaw(`${ARRAY_V1BETA}?alt=proto`, body), 400, 'INVALID_ARGUMENT');
    expect(parsed.error.message).toContain('alt');
  });

  it('400 for candidateCount above 1', async () => {
    expectGeminiError(
      await postRaw(SSE_V1BETA, { ...body, generationConfig: { candidateCount: 2 } }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('a failure after the stream started', () => {
  const brokenError = { error: { code: 502, message: 'The upstream connection broke.', status: 'UNAVAILABLE' } };

  it('SSE: the text so far, then one error event, then the end', async () => {
    const res = await postRaw('/v1beta/models/broken:streamGenerateContent?alt=sse', body);
    expect(res.status).toBe(200);
    const text = res.body as string;
    expect(text.endsWith(`data: ${JSON.stringify(brokenError)}\n\n`)).toBe(true);
    const events = sseEvents(text);
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'partial answer' }] }, index: 0 }],
      usageMetadata: { promptTokenCount: 3 },
      modelVersion: 'broken',
      responseId: 'resp-broken',
    });
    expect(events[1]).toEqual(brokenError);
  });

  it('JSON array: the error is the last element and the array is closed', async () => {
    const res = await postRaw('/v1beta/models/broken:streamGenerateContent', body);
    expect(res.status).toBe(200);
    const elements = JSON.parse(res.body as string) as Json[];
    expect(elements).toHaveLength(2);
    expect(elements[0]!.candidates[0].content.parts).toEqual([{ text: 'partial answer' }]);
    expect(elements[1]).toEqual(brokenError);
  });
});

describe('chunks are written as they are produced', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());

  async function readUntil(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    decoder: { decode(input: Uint8Array, options: { stream: boolean }): string },
    seen: (text: string) => boolean,
  ): Promise<string> {
    let text = '';
    while (!seen(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return text;
  }

  it.each([
    ['alt=sse', '?alt=sse', 'data: ', '\n\n'],
    ['the JSON array', '', '[', ']'],
  ])('%s: the first chunk arrives before the provider goes on', async (_name, query, opening, ending) => {
    const response = await fetch(`${server.url}/v1beta/models/gated:streamGenerateContent${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_KEY },
      body: JSON.stringify(body),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const head = await readUntil(reader, decoder, (text) => text.includes('before'));
    expect(head.startsWith(opening)).toBe(true);
    expect(head).toContain('"text":"before"');
    expect(head).not.toContain('after');
    gated.release();
    const rest = await readUntil(reader, decoder, () => false);
    expect(rest).toContain('"text":" after"');
    expect(rest).toContain('"finishReason":"STOP"');
    expect(rest.endsWith(ending)).toBe(true);
  });
});

describe('encodeStream', () => {
  async function encoded(parts: StreamPart[], query = 'alt=sse') {
    const view = { method: 'POST', path: '/', headers: {}, query: new URLSearchParams(query), body };
    const request = STREAM_GENERATE_CONTENT.decode(view, { model: 'gemini-x', action: 'streamGenerateContent' });
    const encoder = STREAM_GENERATE_CONTENT.encodeStream!(request, { requestId: 'req_1', http: view });
    let text = '';
    for (const part of parts) text += encoder.encode(part);
    return { headers: encoder.headers, text };
  }

  const start: StreamPart = {
    type: 'response-start',
    id: 'r1',
    model: 'gemini-x',
    created: 1,
    usage: { inputTokens: 7 },
  };
  const finish = (
    unified: 'stop' | 'tool-calls' | 'length',
    outputTokens = 5,
    reasoningTokens?: number,
  ): StreamPart => ({
    type: 'finish',
    usage: { inputTokens: 7, outputTokens, ...(reasoningTokens !== undefined ? { reasoningTokens } : {}) },
    finishReason: { unified },
  });

  it('reasoning deltas become thought parts and a Gemini reasoning signature rides on an empty thought part', async () => {
    const { text } = await encoded([
      start,
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Let me think' },
      {
        type: 'reasoning-end',
        id: 'r',
        signature: 'anthropic-sig',
        providerMetadata: { gemini: { thoughtSignature: 'sig-r' } },
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Answer' },
      { type: 'text-end', id: 't', providerMetadata: { gemini: { thoughtSignature: 'sig-t' } } },
      finish('stop', 9, 4),
    ]);
    const parts = sseEvents(text).map((chunk) => chunk.candidates[0].content.parts[0]);
    expect(parts).toEqual([
      { text: 'Let me think', thought: true },
      { text: '', thought: true, thoughtSignature: 'sig-r' },
      { text: 'Answer' },
      { text: '', thoughtSignature: 'sig-t' },
      { text: '' },
    ]);
    expect(text).not.toContain('anthropic-sig');
    expect(sseEvents(text).at(-1)!.usageMetadata).toEqual({
      promptTokenCount: 7,
      candidatesTokenCount: 5,
      totalTokenCount: 16,
      thoughtsTokenCount: 4,
    });
  });

  it('a tool call is one complete functionCall part at its end, with parsed args, id and signature; tool-calls finish as STOP', async () => {
    const { text } = await encoded([
      start,
      { type: 'tool-call-start', id: 'call_1', name: 'get_weather' },
      { type: 'tool-call-delta', id: 'call_1', delta: '{"city":' },
      { type: 'tool-call-delta', id: 'call_1', delta: '"Oslo"}' },
      { type: 'tool-call-end', id: 'call_1', providerMetadata: { gemini: { thoughtSignature: 'sig-c' } } },
      { type: 'tool-call-start', id: 'call_2', name: 'broken_args' },
      { type: 'tool-call-delta', id: 'call_2', delta: '{"not json' },
      { type: 'tool-call-end', id: 'call_2' },
      finish('tool-calls'),
    ]);
    const chunks = sseEvents(text);
    expect(chunks).toHaveLength(3);
    expect(chunks[0]!.candidates[0].content.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1' }, thoughtSignature: 'sig-c' },
    ]);
    expect(chunks[0]!.usageMetadata).toEqual({ promptTokenCount: 7 });
    expect(chunks[1]!.candidates[0].content.parts).toEqual([
      { functionCall: { name: 'broken_args', args: {}, id: 'call_2' } },
    ]);
    expect(chunks[1]!.usageMetadata).toBeUndefined();
    expect(chunks[2]!.candidates[0].finishReason).toBe('STOP');
  });

  it('the last chunk carries the finish reason and full usage; length → MAX_TOKENS', async () => {
    const { text } = await encoded([start, { type: 'text-delta', id: 't', delta: 'cut' }, finish('length', 1)]);
    const last = sseEvents(text).at(-1)!;
    expect(last).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1, totalTokenCount: 8 },
      modelVersion: 'gemini-x',
      responseId: 'r1',
    });
  });

  it('without response-start, names the response by the request id and the requested model', async () => {
    const { text } = await encoded([{ type: 'text-delta', id: 't', delta: 'x' }, finish('stop', 1)]);
    const first = sseEvents(text)[0]!;
    expect(first).toMatchObject({ modelVersion: 'gemini-x', responseId: 'req_1' });
    expect(first.usageMetadata).toBeUndefined();
  });

  it('an error part becomes the Gemini error event', async () => {
    const error = new GatewayError('rate_limit', 'Slow down.');
    const { text } = await encoded([start, { type: 'text-delta', id: 't', delta: 'a' }, { type: 'error', error }]);
    expect(text.endsWith('data: {"error":{"code":429,"message":"Slow down.","status":"RESOURCE_EXHAUSTED"}}\n\n')).toBe(
      true,
    );
  });

  it('a non-gateway error is an INTERNAL error without its details', async () => {
    const { text } = await encoded([start, { type: 'error', error: new TypeError('secret detail') }]);
    const events = sseEvents(text);
    expect(events).toEqual([{ error: { code: 500, message: expect.any(String), status: 'INTERNAL' } }]);
    expect(text).not.toContain('secret detail');
  });

  it('the JSON-array form: application/json, elements joined by ",\\r\\n", the error last', async () => {
    const { headers, text } = await encoded(
      [
        start,
        { type: 'text-delta', id: 't', delta: 'a' },
        { type: 'error', error: new GatewayError('upstream', 'Broke.') },
      ],
      '',
    );
    expect(headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    expect(text).toBe(
      `[${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'a' }] }, index: 0 }], usageMetadata: { promptTokenCount: 7 }, modelVersion: 'gemini-x', responseId: 'r1' })}` +
        `,\r\n${JSON.stringify({ error: { code: 502, message: 'Broke.', status: 'UNAVAILABLE' } })}]`,
    );
  });
});

describe('@google/genai generateContentStream against the gateway', () => {
  // Jest's VM context hides undici's global dispatcher from the SDK's Node transport; pass the global fetch.
  const httpOptions = (baseUrl: string) => ({ baseUrl, fetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());

  it.each([undefined, 'v1'])('streams the reply (apiVersion %s)', async (apiVersion) => {
    const ai = new GoogleGenAI({
      apiKey: TEST_KEY,
      ...(apiVersion ? { apiVersion } : {}),
      httpOptions: httpOptions(server.url),
    });
    const stream = await ai.models.generateContentStream({ model: 'rosetta-echo', contents: REPLY });
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe(REPLY);
    const last = chunks[chunks.length - 1]!;
    expect(last.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata?.candidatesTokenCount).toBe(countTextTokens(REPLY));
    expect(last.modelVersion).toBe('rosetta-echo');
  });

  it('a failure before the stream is an ApiError with the HTTP status', async () => {
    const ai = new GoogleGenAI({ apiKey: 'wrong-key', httpOptions: httpOptions(server.url) });
    await expect(ai.models.generateContentStream({ model: 'rosetta-echo', contents: 'x' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
    });
  });

  it('a mid-stream failure surfaces from the iterator as an ApiError, after the text so far', async () => {
    const ai = new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: httpOptions(server.url) });
    const stream = await ai.models.generateContentStream({ model: 'broken', contents: 'x' });
    const texts: string[] = [];
    let thrown: unknown;
    try {
      for await (const chunk of stream) texts.push(chunk.text ?? '');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'ApiError', status: 502 });
    expect((thrown as Error).message).toContain('The upstream connection broke.');
    expect(texts).toEqual(['partial answer']);
  });
});
