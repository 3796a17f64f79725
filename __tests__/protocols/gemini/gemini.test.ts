import request from 'supertest';
import { GoogleGenAI } from '@google/genai';
import { buildApp, EMPTY_KEY, listen, POOR_KEY, TEST_KEY, testOptions } from '../../helpers/app';
import { GatewayError } from '../../../lib';
import { countTextTokens, LOCAL_MODELS } from '../../../lib/extend';
import type { GenerateRequest, GenerateResponse } from '../../../lib';
import { geminiCodec } from '../../../lib/protocols/gemini';
import { GENERATE_CONTENT } from '../../../lib/protocols/gemini/routes';
import type { HttpRequestView } from '../../../lib/protocols/types';

const codec = geminiCodec();
const models = [...LOCAL_MODELS, { id: 'vendor/echo', provider: 'local' }];
const { app } = buildApp(testOptions({ models }));

const V1BETA = '/v1beta/models/rosetta-echo:generateContent';
const V1 = '/v1/models/rosetta-echo:generateContent';
const hello = { contents: [{ parts: [{ text: 'Hello there' }] }] };

/** The contract request of interface-spec 4.3. */
const contractBody = {
  contents: [{ parts: [{ text: 'Hello there' }] }],
  generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
};

function post(path: string, body: unknown, key: string = TEST_KEY) {
  return request(app)
    .post(path)
    .set('x-goog-api-key', key)
    .send(body as object);
}

function expectGeminiError(res: request.Response, code: number, status: string) {
  expect(res.status).toBe(code);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body.error).toMatchObject({ code, status });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
}

function view(body: unknown): HttpRequestView {
  return { method: 'POST', path: V1BETA, headers: {}, query: new URLSearchParams(), body };
}

function decode(body: unknown, model = 'rosetta-echo'): GenerateRequest {
  return GENERATE_CONTENT.decode(view(body), { model, action: 'generateContent' });
}

function expectBadField(body: unknown, param: string) {
  let thrown: unknown;
  try {
    decode(body);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GatewayError);
  expect((thrown as GatewayError).status).toBe(400);
  expect((thrown as GatewayError).param).toBe(param);
  expect((thrown as GatewayError).message).toContain(param);
}

function encode(response: Partial<GenerateResponse>) {
  const full: GenerateResponse = {
    id: 'resp-1',
    model: 'm',
    created: 1,
    choices: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    ...response,
  };
  return GENERATE_CONTENT.encode(full, decode({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }), {
    requestId: 'req_1',
    http: view({}),
  }).body as Record<string, any>;
}

describe('POST /{version}/models/{model}:generateContent', () => {
  const routes = [
    [
      '/v1beta, ?key=',
      (body: unknown) =>
        request(app)
          .post(`${V1BETA}?key=${encodeURIComponent(TEST_KEY)}`)
          .send(body as object),
    ],
    ['/v1beta, x-goog-api-key', (body: unknown) => post(V1BETA, body)],
    [
      '/v1, ?key=',
      (body: unknown) =>
        request(app)
          .post(`${V1}?key=${encodeURIComponent(TEST_KEY)}`)
          .send(body as object),
    ],
    ['/v1, x-goog-api-key', (body: unknown) => post(V1, body)],
  ] as const;

  it.each(routes)('answers the contract request with every contract field (%s)', async (_name, send) => {
    const res = await send(contractBody);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.body;
    expect(body.candidates).toHaveLength(1);
    const [candidate] = body.candidates;
    expect(candidate.content.role).toBe('model');
    expect(candidate.content.parts).toEqual([{ text: 'Hello there' }]);
    expect(candidate.finishReason).toBe('STOP');
    expect(candidate.index).toBe(0);
    const completion = countTextTokens('Hello there');
    expect(body.usageMetadata.candidatesTokenCount).toBe(completion);
    expect(Number.isInteger(body.usageMetadata.promptTokenCount)).toBe(true);
    expect(body.usageMetadata.promptTokenCount).toBeGreaterThan(completion);
    expect(body.usageMetadata.totalTokenCount).toBe(body.usageMetadata.promptTokenCount + completion);
    expect(body.usageMetadata).not.toHaveProperty('thoughtsTokenCount');
    expect(body.usageMetadata).not.toHaveProperty('cachedContentTokenCount');
    expect(body.modelVersion).toBe('rosetta-echo');
    expect(typeof body.responseId).toBe('string');
    expect(body.responseId.length).toBeGreaterThan(0);
  });

  it.each([
    ['unencoded', '/v1beta/models/vendor/echo:generateContent'],
    ['percent-encoded', '/v1beta/models/vendor%2Fecho:generateContent'],
    ['with a models/ prefix on /v1', '/v1/models/models/vendor/echo:generateContent'],
  ])('serves a model id with a slash (%s)', async (_name, path) => {
    const res = await request(app).post(`${path}?key=${TEST_KEY}`).send(contractBody);
    expect(res.status).toBe(200);
    expect(res.body.modelVersion).toBe('vendor/echo');
    expect(res.body.candidates[0].content.parts[0].text).toBe('Hello there');
  });

  it('prefers the x-goog-api-key header over the key query parameter', async () => {
    const headerWins = await request(app).post(`${V1BETA}?key=wrong-key`).set('x-goog-api-key', TEST_KEY).send(hello);
    expect(headerWins.status).toBe(200);
    const queryIgnored = await request(app)
      .post(`${V1BETA}?key=${TEST_KEY}`)
      .set('x-goog-api-key', 'wrong-key')
      .send(hello);
    expect(queryIgnored.status).toBe(401);
  });

  it('caps the reply at maxOutputTokens with MAX_TOKENS', async () => {
    const res = await post(V1BETA, {
      contents: [{ role: 'user', parts: [{ text: 'one two three four five six seven eight nine ten' }] }],
      generationConfig: { maxOutputTokens: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(res.body.candidates[0].content.parts).toEqual([{ text: 'one two three' }]);
    expect(res.body.usageMetadata.candidatesTokenCount).toBe(3);
  });

  it('accepts snake_case spellings (generation_config.max_output_tokens, system_instruction)', async () => {
    const res = await post(V1BETA, {
      system_instruction: { parts: [{ text: 'Be terse.' }] },
      contents: [{ role: 'user', parts: [{ text: 'one two three four five six' }] }],
      generation_config: { max_output_tokens: 2, thinking_config: { thinking_budget: 0 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(res.body.candidates[0].content.parts[0].text).toBe('one two');
  });

  it('cuts the reply at the first stop sequence with STOP', async () => {
    const res = await post(V1BETA, {
      contents: [{ parts: [{ text: 'alpha beta END gamma' }] }],
      generationConfig: { stopSequences: ['END', 'gamma'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].content.parts[0].text).toBe('alpha beta ');
    expect(res.body.candidates[0].finishReason).toBe('STOP');
  });

  it('answers candidateCount candidates', async () => {
    const res = await post(V1BETA, {
      contents: [{ parts: [{ text: 'twice' }] }],
      generationConfig: { candidateCount: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates.map((candidate: { index: number }) => candidate.index)).toEqual([0, 1]);
    expect(res.body.usageMetadata.candidatesTokenCount).toBe(2 * countTextTokens('twice'));
  });

  it('echoes the last user turn of a conversation with a system instruction and function results', async () => {
    const res = await post(V1BETA, {
      systemInstruction: { parts: [{ text: 'Be terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2ln' }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: { temp_c: 3 } } } }] },
        { role: 'user', parts: [{ text: 'Thanks' }] },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
          ],
        },
        { googleSearch: {} },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates[0].content.parts).toEqual([{ text: 'Thanks' }]);
  });

  it('401 in the Gemini envelope without a key and with a wrong key', async () => {
    const missing = await request(app).post(V1BETA).send(hello);
    expectGeminiError(missing, 401, 'UNAUTHENTICATED');
    expect(missing.body.error.message).toContain('x-goog-api-key');
    for (const res of [
      await request(app).post(`${V1BETA}?key=nope-key`).send(hello),
      await post(V1BETA, hello, 'nope-key'),
    ]) {
      expectGeminiError(res, 401, 'UNAUTHENTICATED');
      expect(JSON.stringify(res.body)).not.toContain('nope-key');
    }
  });

  it('401 for a key sent only as a Bearer token (Gemini reads keys from x-goog-api-key or ?key=)', async () => {
    const res = await request(app).post(V1BETA).set('authorization', `Bearer ${TEST_KEY}`).send(hello);
    expectGeminiError(res, 401, 'UNAUTHENTICATED');
  });

  it('403 PERMISSION_DENIED for a key with no balance', async () => {
    const res = await post(V1BETA, hello, EMPTY_KEY);
    expectGeminiError(res, 403, 'PERMISSION_DENIED');
  });

  it('serves a poor key while it can pay', async () => {
    const res = await post(
      V1BETA,
      { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 5 } },
      POOR_KEY,
    );
    expect(res.status).toBe(200);
  });

  it('404 NOT_FOUND for an unknown model and for an image model', async () => {
    for (const path of ['/v1beta/models/nope:generateContent', '/v1beta/models/rosetta-image:generateContent']) {
      const res = await post(path, hello);
      expectGeminiError(res, 404, 'NOT_FOUND');
    }
  });

  it.each([
    ['contents missing', {}, 'contents'],
    ['contents empty', { contents: [] }, 'contents'],
    ['an unknown role', { contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    ['parts missing', { contents: [{ role: 'user' }] }, 'contents[0].parts'],
    ['text not a string', { contents: [{ parts: [{ text: 5 }] }] }, 'contents[0].parts[0].text'],
    ['temperature out of range', { ...hello, generationConfig: { temperature: 5 } }, 'generationConfig.temperature'],
    [
      'snake_case max_output_tokens of 0',
      { ...hello, generation_config: { max_output_tokens: 0 } },
      'generation_config.max_output_tokens',
    ],
    [
      'thinkingBudget below -1',
      { ...hello, generationConfig: { thinkingConfig: { thinkingBudget: -2 } } },
      'generationConfig.thinkingConfig.thinkingBudget',
    ],
    [
      'an unknown function-calling mode',
      { ...hello, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
      'toolConfig.functionCallingConfig.mode',
    ],
    [
      'inlineData without mimeType',
      { contents: [{ parts: [{ inlineData: { data: 'AAAA' } }] }] },
      'contents[0].parts[0].inlineData.mimeType',
    ],
  ])('400 INVALID_ARGUMENT naming the field: %s', async (_name, body, param) => {
    const res = await post(V1BETA, body);
    expectGeminiError(res, 400, 'INVALID_ARGUMENT');
    expect(res.body.error.message).toContain(param);
    expect(res.body.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: param, description: res.body.error.message }],
    });
  });

  it('400 for malformed JSON', async () => {
    const res = await request(app)
      .post(V1BETA)
      .set('x-goog-api-key', TEST_KEY)
      .set('content-type', 'application/json')
      .send('{"contents": [');
    expectGeminiError(res, 400, 'INVALID_ARGUMENT');
  });

  it('415 for a non-JSON content type', async () => {
    const res = await request(app)
      .post(V1BETA)
      .set('x-goog-api-key', TEST_KEY)
      .set('content-type', 'text/plain')
      .send('hello');
    expectGeminiError(res, 415, 'INVALID_ARGUMENT');
  });

  it('413 for an oversized body', async () => {
    const small = buildApp(testOptions({ maxBodyBytes: 1000 })).app;
    const res = await request(small)
      .post(V1BETA)
      .set('x-goog-api-key', TEST_KEY)
      .send({ contents: [{ parts: [{ text: 'x'.repeat(5000) }] }] });
    expectGeminiError(res, 413, 'INVALID_ARGUMENT');
  });

  it('405 UNIMPLEMENTED for a method other than POST', async () => {
    const res = await request(app).get(V1BETA).set('x-goog-api-key', TEST_KEY);
    expectGeminiError(res, 405, 'UNIMPLEMENTED');
    expect(res.headers.allow).toBe('POST');
  });
});

describe('Gemini model list', () => {
  it('lists every model, in the Gemini shape, on /v1beta/models (an image model with no generation methods)', async () => {
    const res = await request(app).get(`/v1beta/models?key=${TEST_KEY}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('nextPageToken');
    const names = res.body.models.map((model: { name: string }) => model.name);
    expect(names).toEqual([
      'models/rosetta-echo',
      'models/rosetta-image',
      'models/rosetta-embed',
      'models/vendor/echo',
    ]);
    expect(res.body.models[1]).toMatchObject({ name: 'models/rosetta-image', supportedGenerationMethods: [] });
    expect(res.body.models[0]).toEqual({
      name: 'models/rosetta-echo',
      version: expect.any(String),
      displayName: 'Rosetta Echo (local)',
      description: expect.any(String),
      inputTokenLimit: 128_000,
      outputTokenLimit: 4096,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    });
  });

  it('answers GET /v1/models in the Gemini shape for x-goog-api-key, and the OpenAI shape for Bearer', async () => {
    const gemini = await request(app).get('/v1/models').set('x-goog-api-key', TEST_KEY);
    expect(gemini.status).toBe(200);
    expect(gemini.body.models.map((model: { name: string }) => model.name)).toContain('models/rosetta-echo');
    const byQuery = await request(app).get(`/v1/models?key=${TEST_KEY}`);
    expect(byQuery.body).toHaveProperty('models');
    const openai = await request(app).get('/v1/models').set('authorization', `Bearer ${TEST_KEY}`);
    expect(openai.status).toBe(200);
    expect(openai.body.object).toBe('list');
    expect(openai.body).not.toHaveProperty('models');
  });

  it('pages with pageSize and pageToken', async () => {
    const first = await request(app).get('/v1beta/models?pageSize=2').set('x-goog-api-key', TEST_KEY);
    expect(first.status).toBe(200);
    expect(first.body.models.map((model: { name: string }) => model.name)).toEqual([
      'models/rosetta-echo',
      'models/rosetta-image',
    ]);
    expect(typeof first.body.nextPageToken).toBe('string');
    const second = await request(app)
      .get(`/v1beta/models?pageSize=2&pageToken=${encodeURIComponent(first.body.nextPageToken)}`)
      .set('x-goog-api-key', TEST_KEY);
    expect(second.body.models.map((model: { name: string }) => model.name)).toEqual([
      'models/rosetta-embed',
      'models/vendor/echo',
    ]);
    expect(second.body).not.toHaveProperty('nextPageToken');
  });

  it('defaults pageSize to 50 and caps it at 1000', async () => {
    const many = Array.from({ length: 1100 }, (_, index) => ({ id: `m-${index}`, provider: 'local' }));
    const big = buildApp(testOptions({ models: many })).app;
    const byDefault = await request(big).get('/v1beta/models').set('x-goog-api-key', TEST_KEY);
    expect(byDefault.body.models).toHaveLength(50);
    const capped = await request(big).get('/v1beta/models?pageSize=5000').set('x-goog-api-key', TEST_KEY);
    expect(capped.body.models).toHaveLength(1000);
    const rest = await request(big)
      .get(`/v1beta/models?pageSize=5000&pageToken=${capped.body.nextPageToken}`)
      .set('x-goog-api-key', TEST_KEY);
    expect(rest.body.models).toHaveLength(100);
  });

  it('400 for a bad pageSize or pageToken', async () => {
    for (const [query, param] of [
      ['pageSize=-3', 'pageSize'],
      ['pageToken=garbage', 'pageToken'],
    ]) {
      const res = await request(app).get(`/v1beta/models?${query}`).set('x-goog-api-key', TEST_KEY);
      expectGeminiError(res, 400, 'INVALID_ARGUMENT');
      expect(res.body.error.message).toContain(param);
    }
  });

  it('GET /v1beta/models/{id} answers one model, including an id with a slash', async () => {
    const one = await request(app).get('/v1beta/models/rosetta-echo').set('x-goog-api-key', TEST_KEY);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: 'models/rosetta-echo',
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    });
    const slashed = await request(app).get('/v1beta/models/vendor/echo').set('x-goog-api-key', TEST_KEY);
    expect(slashed.body.name).toBe('models/vendor/echo');
  });

  it('404 NOT_FOUND for an unknown model; an image model is found, with no generation methods (as listed)', async () => {
    expectGeminiError(await request(app).get('/v1beta/models/nope').set('x-goog-api-key', TEST_KEY), 404, 'NOT_FOUND');
    const image = await request(app).get('/v1beta/models/rosetta-image').set('x-goog-api-key', TEST_KEY);
    expect(image.status).toBe(200);
    expect(image.body).toMatchObject({ name: 'models/rosetta-image', supportedGenerationMethods: [] });
  });

  it('401 in the Gemini envelope without a key', async () => {
    expectGeminiError(await request(app).get('/v1beta/models'), 401, 'UNAUTHENTICATED');
  });
});

describe('@google/genai against the gateway', () => {
  // Jest runs tests in a VM context without Node's undici global dispatcher, which the SDK's default
  // Node transport looks up; handing it the global fetch skips that lookup and changes nothing else.
  const httpOptions = (baseUrl: string) => ({ baseUrl, fetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());

  it.each(['v1beta', 'v1'])(
    'generateContent, models.get and models.list work unchanged (apiVersion %s)',
    async (apiVersion) => {
      const ai = new GoogleGenAI({ apiKey: TEST_KEY, apiVersion, httpOptions: httpOptions(server.url) });
      const reply = await ai.models.generateContent({
        model: 'rosetta-echo',
        contents: 'Hello from the SDK',
        config: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
      });
      expect(reply.text).toBe('Hello from the SDK');
      expect(reply.candidates?.[0]?.finishReason).toBe('STOP');
      expect(reply.usageMetadata?.candidatesTokenCount).toBe(countTextTokens('Hello from the SDK'));
      const slashed = await ai.models.generateContent({ model: 'vendor/echo', contents: 'slash' });
      expect(slashed.modelVersion).toBe('vendor/echo');
      const model = await ai.models.get({ model: 'rosetta-echo' });
      expect(model.name).toBe('models/rosetta-echo');
      const names: string[] = [];
      for await (const listed of await ai.models.list()) names.push(listed.name ?? '');
      expect(names).toEqual([
        'models/rosetta-echo',
        'models/rosetta-image',
        'models/rosetta-embed',
        'models/vendor/echo',
      ]);
    },
  );

  it('surfaces gateway errors as ApiError with the HTTP status', async () => {
    const ai = new GoogleGenAI({ apiKey: 'wrong-key', httpOptions: httpOptions(server.url) });
    await expect(ai.models.generateContent({ model: 'rosetta-echo', contents: 'x' })).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('match', () => {
  it.each([
    ['/v1beta/models/rosetta-echo:generateContent', 'rosetta-echo'],
    ['/v1/models/rosetta-echo:generateContent', 'rosetta-echo'],
    ['/v1beta/models/vendor/x:generateContent', 'vendor/x'],
    ['/v1beta/models/vendor%2Fx:generateContent', 'vendor/x'],
    ['/v1beta/models/models/gemini-2.5-flash:generateContent', 'gemini-2.5-flash'],
    ['/v1beta/models/ft:custom:model:generateContent', 'ft:custom:model'],
    ['/v1beta/models/odd%3Aname%3AgenerateContent', 'odd:name'],
  ])('%s → model %s', (path, model) => {
    expect(codec.match(path)).toEqual({ route: GENERATE_CONTENT, params: { model, action: 'generateContent' } });
  });

  it.each([
    '/v1beta/models/rosetta-echo',
    '/v1beta/models/rosetta-echo:unknownAction',
    '/v1beta/models/:generateContent',
    '/v2/models/rosetta-echo:generateContent',
    '/v1/chat/completions',
  ])('does not match %s', (path) => {
    expect(codec.match(path)).toBeUndefined();
  });

  it('reads the key from x-goog-api-key, else from ?key=', () => {
    const base = view(undefined);
    expect(codec.extractKey({ ...base, query: new URLSearchParams('key=from-query') })).toBe('from-query');
    expect(
      codec.extractKey({
        ...base,
        headers: { 'x-goog-api-key': 'from-header' },
        query: new URLSearchParams('key=from-query'),
      }),
    ).toBe('from-header');
    expect(codec.extractKey(base)).toBeUndefined();
  });
});

describe('decode', () => {
  it('works out the snake_case spelling of a field once, not again on every request', () => {
    // Each field a request does not send is looked up under both spellings; the snake one used to
    // be a regular-expression replace per field and request (most of a small request's decoding).
    const body = { contents: [{ parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 0.5 } };
    decode(body);
    const replace = jest.spyOn(String.prototype, 'replace');
    try {
      const decoded = decode(body);
      expect(decoded.temperature).toBe(0.5);
      const snakeSpellings = replace.mock.calls.filter(
        ([pattern]) => pattern instanceof RegExp && pattern.source === '[A-Z]',
      );
      expect(snakeSpellings).toEqual([]);
    } finally {
      replace.mockRestore();
    }
    expect(
      decode({ contents: [{ parts: [{ text: 'Hi' }] }], generation_config: { max_output_tokens: 3 } }).maxOutputTokens,
    ).toBe(3);
  });

  it('sets the model from the path, stream false; the thinkingConfig is marked literal in the extension', () => {
    const decoded = decode(contractBody, 'vendor/echo');
    expect(decoded.model).toBe('vendor/echo');
    expect(decoded.stream).toBe(false);
    expect(decoded).not.toHaveProperty('origin');
    expect(decoded.reasoning).toEqual({ enabled: false, includeThoughts: false });
    expect(decoded.extensions).toEqual({
      gemini: { children: { generationConfig: { children: { thinkingConfig: { literal: true } } } } },
    });
  });

  it('puts the system instruction first and maps roles (omitted role = user)', () => {
    const decoded = decode({
      systemInstruction: { parts: [{ text: 'Be terse.' }, { text: 'Be kind.' }] },
      contents: [
        { parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello' }] },
        { role: 'user', parts: [{ text: 'Bye' }] },
      ],
    });
    expect(decoded.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Be terse.' },
          { type: 'text', text: 'Be kind.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }], extensions: { gemini: { roleOmitted: true } } },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'Bye' }] },
    ]);
  });

  it('decodes inlineData (image or file) and fileData (url source)', () => {
    const decoded = decode({
      contents: [
        {
          parts: [
            { text: 'Look' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
            { inline_data: { mime_type: 'application/pdf', data: 'JVBERi0', display_name: 'a.pdf' } },
            { fileData: { fileUri: 'https://files.example/cat.jpg', mimeType: 'image/jpeg' } },
            { file_data: { file_uri: 'https://files.example/doc' } },
          ],
        },
      ],
    });
    const snakeBlob = { snake: ['inlineData'], children: { inlineData: { snake: ['mimeType', 'displayName'] } } };
    expect(decoded.messages[0]!.content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
      {
        type: 'file',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0' },
        filename: 'a.pdf',
        extensions: { gemini: snakeBlob },
      },
      {
        type: 'image',
        source: { kind: 'url', url: 'https://files.example/cat.jpg', mediaType: 'image/jpeg' },
        extensions: { gemini: { keepUri: true } },
      },
      {
        type: 'file',
        source: { kind: 'url', url: 'https://files.example/doc' },
        extensions: { gemini: { snake: ['fileData'], children: { fileData: { snake: ['fileUri'] } }, keepUri: true } },
      },
    ]);
  });

  it('decodes thought parts as reasoning and keeps thoughtSignature on its own part', () => {
    const decoded = decode({
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Plan: call weather.', thought: true, thoughtSignature: 'sig-1' },
            { text: 'Checking.', thought_signature: 'sig-2' },
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' }, id: 'fc-1' }, thoughtSignature: 'sig-3' },
          ],
        },
      ],
    });
    expect(decoded.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Plan: call weather.', providerMetadata: { gemini: { thoughtSignature: 'sig-1' } } },
        {
          type: 'text',
          text: 'Checking.',
          providerMetadata: { gemini: { thoughtSignature: 'sig-2' } },
          extensions: { gemini: { snake: ['thoughtSignature'] } },
        },
        {
          type: 'tool-call',
          id: 'fc-1',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
          providerMetadata: { gemini: { thoughtSignature: 'sig-3', functionCallId: 'fc-1' } },
        },
      ],
    });
  });

  it('gives calls without ids stable ids and pairs responses by name and order', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo and Rome, and the time?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
            { function_call: { name: 'get_time', args: {} } },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: { temp_c: 3 } } } },
            { function_response: { name: 'get_weather', response: { output: { temp_c: 18 } } } },
            { functionResponse: { name: 'get_time', response: { error: 'clock broken' } } },
            { text: 'Summarise.' },
          ],
        },
      ],
    };
    const decoded = decode(body);
    const calls = decoded.messages[1]!.content;
    const ids = calls.map((part) => (part.type === 'tool-call' ? part.id : undefined));
    expect(new Set(ids).size).toBe(3);
    expect(decode(body).messages[1]!.content).toEqual(calls);
    expect(decoded.messages.slice(2)).toEqual([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: ids[0],
            toolName: 'get_weather',
            content: [{ type: 'text', text: '{"output":{"temp_c":3}}' }],
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: ids[2],
            toolName: 'get_weather',
            content: [{ type: 'text', text: '{"output":{"temp_c":18}}' }],
            extensions: { gemini: { snake: ['functionResponse'] } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: ids[1],
            toolName: 'get_time',
            content: [{ type: 'text', text: '{"error":"clock broken"}' }],
            isError: true,
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
    ]);
  });

  it('uses the ids calls and responses carry', () => {
    const decoded = decode({
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'f', args: {}, id: 'a' } },
            { functionCall: { name: 'f', args: {}, id: 'b' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'f', id: 'b', response: {} } },
            { functionResponse: { name: 'f', response: {} } },
          ],
        },
      ],
    });
    expect(
      decoded.messages
        .slice(1)
        .map((message) => (message.content[0]!.type === 'tool-result' ? message.content[0]!.toolCallId : '')),
    ).toEqual(['b', 'a']);
  });

  it('never renames keys inside function args or schemas', () => {
    const decoded = decode({
      contents: [
        {
          role: 'model',
          parts: [{ function_call: { name: 'f', args: { snake_key: 1, camelKey: { inner_key: true } } } }],
        },
      ],
      tools: [
        {
          function_declarations: [
            {
              name: 'f',
              parameters: {
                type: 'OBJECT',
                properties: { snake_key: { type: 'INTEGER' }, camelKey: { type: 'STRING', nullable: true } },
                required: ['snake_key'],
              },
            },
          ],
        },
      ],
    });
    const call = decoded.messages[0]!.content[0]!;
    expect(call.type === 'tool-call' && call.arguments).toBe('{"snake_key":1,"camelKey":{"inner_key":true}}');
    expect(decoded.tools).toEqual([
      {
        name: 'f',
        parameters: {
          type: 'object',
          properties: { snake_key: { type: 'integer' }, camelKey: { type: ['string', 'null'] } },
          required: ['snake_key'],
        },
      },
    ]);
  });

  it('decodes generationConfig', () => {
    const decoded = decode({
      ...hello,
      generationConfig: {
        temperature: 0.7,
        topP: 0.95,
        topK: 40,
        maxOutputTokens: 1024,
        stopSequences: ['END'],
        candidateCount: 2,
        seed: 7,
      },
    });
    expect(decoded).toMatchObject({
      temperature: 0.7,
      topP: 0.95,
      topK: 40,
      maxOutputTokens: 1024,
      stopSequences: ['END'],
      choiceCount: 2,
      seed: 7,
    });
  });

  it.each([
    [{ thinkingBudget: 0 }, { enabled: false }],
    [
      { thinkingBudget: -1, includeThoughts: true },
      { enabled: true, includeThoughts: true },
    ],
    [{ thinking_budget: 2048 }, { enabled: true, budgetTokens: 2048 }],
    [{ thinkingLevel: 'HIGH' }, { enabled: true, effort: 'high' }],
    [
      { thinking_level: 'minimal', include_thoughts: false },
      { enabled: true, effort: 'minimal', includeThoughts: false },
    ],
  ])('decodes thinkingConfig %j', (thinkingConfig, reasoning) => {
    expect(decode({ ...hello, generationConfig: { thinkingConfig } }).reasoning).toEqual(reasoning);
  });

  it('decodes JSON output settings', () => {
    const jsonOnly = decode({ ...hello, generationConfig: { responseMimeType: 'application/json' } });
    expect(jsonOnly.responseFormat).toEqual({ type: 'json' });
    const openApi = decode({
      ...hello,
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'ARRAY', items: { type: 'NUMBER' } } } },
      },
    });
    expect(openApi.responseFormat).toEqual({
      type: 'json-schema',
      schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } },
    });
    const jsonSchema = { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false };
    const direct = decode({
      ...hello,
      generation_config: { response_mime_type: 'application/json', response_json_schema: jsonSchema },
    });
    expect(direct.responseFormat).toEqual({ type: 'json-schema', schema: jsonSchema });
    expect(decode(hello).responseFormat).toBeUndefined();
  });

  it('decodes function declarations; other tool kinds and unmodelled declaration keys ride in the extension', () => {
    const decoded = decode({
      ...hello,
      tools: [
        {
          functionDeclarations: [
            { name: 'a', description: 'A', parameters: { type: 'OBJECT', properties: {} } },
            {
              name: 'b',
              parametersJsonSchema: { type: 'object', additionalProperties: false },
              behavior: 'NON_BLOCKING',
            },
            { name: 'c' },
          ],
        },
        { googleSearch: {} },
        { function_declarations: [{ name: 'd' }], code_execution: {} },
      ],
    });
    expect(decoded.tools).toEqual([
      { name: 'a', description: 'A', parameters: { type: 'object', properties: {} } },
      {
        name: 'b',
        parameters: { type: 'object', additionalProperties: false },
        extensions: { gemini: { fields: { behavior: 'NON_BLOCKING' } } },
      },
      { name: 'c', parameters: { type: 'object', properties: {} } },
      { name: 'd', parameters: { type: 'object', properties: {} }, extensions: { gemini: { entry: 2 } } },
    ]);
    expect(decoded.extensions).toEqual({
      gemini: {
        tools: [
          { functions: true },
          { fields: { googleSearch: {} } },
          { fields: { code_execution: {} }, snake: ['functionDeclarations'], functions: true },
        ],
      },
    });
  });

  it.each([
    [{ mode: 'AUTO' }, { type: 'auto' }, ['a', 'b', 'c']],
    [{ mode: 'NONE' }, { type: 'none' }, ['a', 'b', 'c']],
    [{ mode: 'ANY' }, { type: 'required' }, ['a', 'b', 'c']],
    [{ mode: 'ANY', allowedFunctionNames: ['b'] }, { type: 'tool', name: 'b' }, ['a', 'b', 'c']],
    [{ mode: 'ANY', allowed_function_names: ['a', 'c'] }, { type: 'required' }, ['a', 'c']],
  ])('decodes functionCallingConfig %j', (functionCallingConfig, toolChoice, toolNames) => {
    const decoded = decode({
      ...hello,
      tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }],
      tool_config: { function_calling_config: functionCallingConfig },
    });
    expect(decoded.toolChoice).toEqual(toolChoice);
    expect(decoded.tools?.map((tool) => tool.name)).toEqual(toolNames);
  });

  it.each([
    [
      'a functionCall in a user turn',
      { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f', args: {} } }] }] },
      'contents[0].parts[0].functionCall',
    ],
    [
      'a functionResponse in a model turn',
      { contents: [{ role: 'model', parts: [{ functionResponse: { name: 'f', response: {} } }] }] },
      'contents[0].parts[0].functionResponse',
    ],
    [
      'a part with two payloads',
      { contents: [{ parts: [{ text: 'x', inlineData: { mimeType: 'image/png', data: 'AA' } }] }] },
      'contents[0].parts[0]',
    ],
    ['an empty part', { contents: [{ parts: [{}] }] }, 'contents[0].parts[0]'],
    [
      'executableCode',
      { contents: [{ role: 'model', parts: [{ executableCode: { code: 'print(1)' } }] }] },
      'contents[0].parts[0].executableCode',
    ],
    [
      'snake_case inline_data without mime_type',
      { contents: [{ parts: [{ inline_data: { data: 'AA' } }] }] },
      'contents[0].parts[0].inline_data.mime_type',
    ],
    [
      'a non-text system part',
      { system_instruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA' } }] }, ...hello },
      'system_instruction.parts[0]',
    ],
    [
      'an unknown thinkingLevel',
      { ...hello, generationConfig: { thinkingConfig: { thinkingLevel: 'EXTREME' } } },
      'generationConfig.thinkingConfig.thinkingLevel',
    ],
    [
      'an unsupported responseMimeType',
      { ...hello, generationConfig: { responseMimeType: 'text/x.enum' } },
      'generationConfig.responseMimeType',
    ],
    [
      'an undeclared allowed function',
      {
        ...hello,
        tools: [{ functionDeclarations: [{ name: 'a' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['zzz'] } },
      },
      'toolConfig.functionCallingConfig.allowedFunctionNames[0]',
    ],
    [
      'parameters and parametersJsonSchema together',
      {
        ...hello,
        tools: [
          {
            functionDeclarations: [
              { name: 'a', parameters: { type: 'OBJECT' }, parametersJsonSchema: { type: 'object' } },
            ],
          },
        ],
      },
      'tools[0].functionDeclarations[0].parametersJsonSchema',
    ],
    [
      'a functionCall without a name',
      { contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] },
      'contents[0].parts[0].functionCall.name',
    ],
  ])('400 naming the field for %s', (_name, body, param) => {
    expectBadField(body, param);
  });
});

describe('encodeResponse', () => {
  it('encodes text, reasoning and tool calls with their thought signatures', () => {
    const body = encode({
      id: 'resp-9',
      model: 'some-model',
      choices: [
        {
          index: 0,
          finishReason: { unified: 'tool-calls' },
          content: [
            { type: 'reasoning', text: 'thinking', providerMetadata: { gemini: { thoughtSignature: 'sig-r' } } },
            { type: 'text', text: 'Calling.' },
            {
              type: 'tool-call',
              id: 'call_1',
              name: 'get_weather',
              arguments: '{"city":"Oslo"}',
              providerMetadata: { gemini: { thoughtSignature: 'sig-t' } },
            },
            { type: 'tool-call', id: 'call_2', name: 'broken', arguments: '{not json' },
            { type: 'tool-call', id: 'call_3', name: 'listy', arguments: '[1,2]' },
            { type: 'text', text: 'x', providerMetadata: { anthropic: { thoughtSignature: 'not-ours' } } },
          ],
        },
      ],
      usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 12, cacheReadTokens: 4 },
    });
    expect(body).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'thinking', thought: true, thoughtSignature: 'sig-r' },
              { text: 'Calling.' },
              {
                functionCall: { name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1' },
                thoughtSignature: 'sig-t',
              },
              { functionCall: { name: 'broken', args: {}, id: 'call_2' } },
              { functionCall: { name: 'listy', args: {}, id: 'call_3' } },
              { text: 'x' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 18,
        totalTokenCount: 40,
        thoughtsTokenCount: 12,
        cachedContentTokenCount: 4,
      },
      modelVersion: 'some-model',
      responseId: 'resp-9',
    });
  });

  it('encodes output images as inlineData or fileData', () => {
    const body = encode({
      choices: [
        {
          index: 0,
          finishReason: { unified: 'stop' },
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
            { type: 'image', source: { kind: 'url', url: 'https://files.example/a.png', mediaType: 'image/png' } },
          ],
        },
      ],
    });
    expect(body.candidates[0].content.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
      { fileData: { fileUri: 'https://files.example/a.png', mimeType: 'image/png' } },
    ]);
  });

  it('still answers one empty text part for an empty reply', () => {
    const body = encode({ choices: [{ index: 0, content: [], finishReason: { unified: 'stop' } }] });
    expect(body.candidates[0].content).toEqual({ role: 'model', parts: [{ text: '' }] });
  });

  it.each([
    ['stop', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['tool-calls', 'STOP'],
    ['content-filter', 'SAFETY'],
    ['other', 'OTHER'],
    ['error', 'OTHER'],
  ] as const)('maps finish reason %s to %s', (unified, expected) => {
    const body = encode({ choices: [{ index: 0, content: [], finishReason: { unified, raw: unified } }] });
    expect(body.candidates[0].finishReason).toBe(expected);
  });

  it('relays a Gemini upstream finish reason', () => {
    const body = encode({
      choices: [{ index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'RECITATION' } }],
    });
    expect(body.candidates[0].finishReason).toBe('RECITATION');
  });
});

describe('encodeError', () => {
  it.each([
    ['invalid_request', 400, 'INVALID_ARGUMENT'],
    ['authentication', 401, 'UNAUTHENTICATED'],
    ['permission', 403, 'PERMISSION_DENIED'],
    ['insufficient_quota', 403, 'PERMISSION_DENIED'],
    ['not_found', 404, 'NOT_FOUND'],
    ['method_not_allowed', 405, 'UNIMPLEMENTED'],
    ['request_too_large', 413, 'INVALID_ARGUMENT'],
    ['unsupported_media_type', 415, 'INVALID_ARGUMENT'],
    ['rate_limit', 429, 'RESOURCE_EXHAUSTED'],
    ['internal', 500, 'INTERNAL'],
    ['upstream', 502, 'UNAVAILABLE'],
    ['overloaded', 503, 'UNAVAILABLE'],
    ['unavailable', 503, 'UNAVAILABLE'],
    ['upstream_timeout', 504, 'DEADLINE_EXCEEDED'],
  ] as const)('%s → %d %s', (kind, code, status) => {
    const error = new GatewayError(kind, `a ${kind} error`);
    const encoded = codec.encodeError(error, { requestId: 'req_1' });
    expect(encoded.status).toBe(code);
    expect(encoded.body).toMatchObject({ error: { code, message: error.message, status } });
  });

  it('carries the machine code and the bad field as google.rpc details', () => {
    const encoded = codec.encodeError(
      new GatewayError('invalid_request', 'contents: is required', { param: 'contents', code: 'invalid_json' }),
      { requestId: 'req_1' },
    );
    expect(encoded.body).toEqual({
      error: {
        code: 400,
        message: 'contents: is required',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_JSON', domain: 'rosetta-gateway' },
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'contents', description: 'contents: is required' }],
          },
        ],
      },
    });
  });
});
