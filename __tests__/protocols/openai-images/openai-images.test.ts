import request from 'supertest';
import OpenAI from 'openai';
import { buildApp, EMPTY_KEY, listen, POOR_KEY, TEST_KEY, testOptions } from '../../helpers/app';
import { MemoryKeyStore, MemoryQuotaStore } from '../../../lib';
import { decodeImageRequest, parseImageSize } from '../../../lib/protocols/openai-images/decode-request';
import { encodeImagesResponse, outputFormatOf } from '../../../lib/protocols/openai-images/encode-response';
import { openAIImagesCodec } from '../../../lib/protocols/openai-images';
import { builtinCodecs } from '../../../lib/protocols/registry';

const { app } = buildApp();
const auth = { authorization: `Bearer ${TEST_KEY}` };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The width and height in a PNG file's IHDR chunk (which must come first, right after the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function generate(
  body: Record<string, unknown>,
  headers: Record<string, string> = auth,
  path = '/v1/images/generations',
) {
  return request(app).post(path).set(headers).send(body);
}

function expectOpenAIError(res: request.Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(typeof res.body.error.message).toBe('string');
  expect(typeof res.body.error.type).toBe('string');
  expect(res.body.error).toHaveProperty('param');
  expect(res.body.error).toHaveProperty('code');
}

describe('POST /v1/images/generations', () => {
  it('answers with every contract field: n PNG images of the requested size in data[].b64_json', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await generate({
      model: 'rosetta-image',
      prompt: 'a lighthouse at dusk',
      size: '1024x1024',
      n: 2,
      response_format: 'b64_json',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(Number.isInteger(res.body.created)).toBe(true);
    expect(res.body.created).toBeGreaterThanOrEqual(before);
    expect(res.body.size).toBe('1024x1024');
    expect(res.body.output_format).toBe('png');
    expect(res.body).not.toHaveProperty('usage');
    expect(res.body.data).toHaveLength(2);
    for (const item of res.body.data) {
      expect(typeof item.b64_json).toBe('string');
      expect(item).not.toHaveProperty('url');
      expect(pngSize(Buffer.from(item.b64_json, 'base64'))).toEqual({ width: 1024, height: 1024 });
    }
    expect(res.body.data[0].b64_json).not.toBe(res.body.data[1].b64_json);
  });

  it('draws non-square sizes as asked', async () => {
    const res = await generate({ model: 'rosetta-image', prompt: 'a wide banner', size: '512x256' });
    expect(res.status).toBe(200);
    expect(res.body.size).toBe('512x256');
    expect(res.body.data).toHaveLength(1);
    expect(pngSize(Buffer.from(res.body.data[0].b64_json, 'base64'))).toEqual({ width: 512, height: 256 });
  });

  it('defaults to one 1024x1024 base64 image, and treats size auto as 1024x1024', async () => {
    for (const extra of [{}, { size: 'auto' }, { size: null, n: null, response_format: null }]) {
      const res = await generate({ model: 'rosetta-image', prompt: 'defaults', ...extra });
      expect(res.status).toBe(200);
      expect(res.body.size).toBe('1024x1024');
      expect(res.body.data).toHaveLength(1);
      expect(pngSize(Buffer.from(res.body.data[0].b64_json, 'base64'))).toEqual({ width: 1024, height: 1024 });
    }
  });

  it('response_format url returns data: URLs holding the PNG', async () => {
    const res = await generate({
      model: 'rosetta-image',
      prompt: 'a url please',
      size: '64x32',
      n: 3,
      response_format: 'url',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    for (const item of res.body.data) {
      expect(item).not.toHaveProperty('b64_json');
      expect(item.url).toMatch(/^data:image\/png;base64,/);
      expect(pngSize(Buffer.from(item.url.slice('data:image/png;base64,'.length), 'base64'))).toEqual({
        width: 64,
        height: 32,
      });
    }
  });

  it('also serves the un-prefixed path and lets unknown fields through', async () => {
    const res = await generate(
      {
        model: 'rosetta-image',
        prompt: 'x',
        size: '32x32',
        moderation: 'low',
        output_compression: 80,
        partial_images: 0,
        quality: 'high',
        style: 'vivid',
        background: 'opaque',
        output_format: 'png',
        user: 'u-1',
      },
      auth,
      '/images/generations',
    );
    expect(res.status).toBe(200);
    expect(pngSize(Buffer.from(res.body.data[0].b64_json, 'base64'))).toEqual({ width: 32, height: 32 });
  });

  it('works with the official openai SDK', async () => {
    const server = await listen(app);
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 });
      const result = await client.images.generate({
        model: 'rosetta-image',
        prompt: 'an SDK call',
        size: '256x256' as '1024x1024',
        n: 2,
        response_format: 'b64_json',
      });
      expect(result.data).toHaveLength(2);
      expect(pngSize(Buffer.from(result.data![0]!.b64_json!, 'base64'))).toEqual({ width: 256, height: 256 });
      await expect(client.images.generate({ model: 'rosetta-image', prompt: 'x', n: 11 })).rejects.toBeInstanceOf(
        OpenAI.BadRequestError,
      );
      const denied = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
      await expect(denied.images.generate({ model: 'rosetta-image', prompt: 'x' })).rejects.toBeInstanceOf(
        OpenAI.AuthenticationError,
      );
    } finally {
      await server.close();
    }
  });
});

describe('credentials and balance', () => {
  it('401 without a key, with a wrong key and with a non-bearer header', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer sk-nope-nope' },
      { authorization: TEST_KEY },
      { 'x-api-key': TEST_KEY },
    ];
    for (const headers of attempts) {
      const res = await generate({ model: 'rosetta-image', prompt: 'x' }, headers);
      expectOpenAIError(res, 401);
      expect(res.body.error.type).toBe('invalid_request_error');
      expect(JSON.stringify(res.body)).not.toContain('sk-nope-nope');
    }
  });

  it('403 for a key with no balance', async () => {
    const res = await generate({ model: 'rosetta-image', prompt: 'x' }, { authorization: `Bearer ${EMPTY_KEY}` });
    expectOpenAIError(res, 403);
    expect(res.body.error.code).toBe('insufficient_quota');
  });

  it('403 for a key whose 50 credits do not cover one image (1000 credits)', async () => {
    const res = await generate(
      { model: 'rosetta-image', prompt: 'x', size: '16x16' },
      { authorization: `Bearer ${POOR_KEY}` },
    );
    expectOpenAIError(res, 403);
    expect(res.body.error.code).toBe('insufficient_quota');
  });

  it('charges 1000 credits per image and releases the hold', async () => {
    const quotaStore = new MemoryQuotaStore({ balances: { rich: 1_000_000 } });
    const keyStore = new MemoryKeyStore([{ key: TEST_KEY, id: 'rich' }]);
    const metered = buildApp({ keyStore, quotaStore }).app;
    const res = await request(metered)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'rosetta-image', prompt: 'two please', size: '32x32', n: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(quotaStore.getAccount('rich')).toMatchObject({ spent: 2000, reserved: 0, balance: 998_000 });

    const failed = await request(metered)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'rosetta-image', prompt: 'too small', size: '2x2', n: 2 });
    expectOpenAIError(failed, 400);
    expect(failed.body.error.param).toBe('size');
    expect(quotaStore.getAccount('rich')).toMatchObject({ spent: 2000, reserved: 0, balance: 998_000 });
  });

  it('a partially funded key cannot buy more images than it can pay for', async () => {
    const quotaStore = new MemoryQuotaStore({ balances: { rich: 1500 } });
    const keyStore = new MemoryKeyStore([{ key: TEST_KEY, id: 'rich' }]);
    const metered = buildApp({ keyStore, quotaStore }).app;
    const res = await request(metered)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'rosetta-image', prompt: 'x', size: '16x16', n: 2 });
    expectOpenAIError(res, 403);
    expect(quotaStore.getAccount('rich')).toMatchObject({ spent: 0, reserved: 0, balance: 1500 });
  });
});

describe('errors in the OpenAI envelope', () => {
  it('404 for an unknown image model and for a text model used as an image model', async () => {
    for (const model of ['no-such-image-model', 'rosetta-echo']) {
      const res = await generate({ model, prompt: 'x' });
      expectOpenAIError(res, 404);
      expect(res.body.error.code).toBe('model_not_found');
      expect(res.body.error.message).toContain(model);
    }
  });

  it.each([
    ['n', 'n: 0', { n: 0 }],
    ['n', 'n: 11', { n: 11 }],
    ['n', 'n: 1.5', { n: 1.5 }],
    ['n', 'n as a string', { n: '2' }],
    ['size', 'size without a height', { size: '1024' }],
    ['size', 'a zero width', { size: '0x512' }],
    ['size', 'a negative width', { size: '-5x5' }],
    ['size', 'a fractional width', { size: '10.5x10' }],
    ['size', 'spaces in size', { size: '1024 x 1024' }],
    ['size', 'size in words', { size: 'largexlarge' }],
    ['size', 'size as a number', { size: 1024 }],
    ['response_format', 'an unknown response_format', { response_format: 'png' }],
    ['prompt', 'an empty prompt', { prompt: '' }],
    ['prompt', 'a prompt of 32001 characters', { prompt: 'p'.repeat(32_001) }],
    ['prompt', 'a prompt that is not a string', { prompt: 5 }],
    ['model', 'a model that is not a string', { model: 7 }],
    ['quality', 'a quality that is not a string', { quality: 3 }],
    ['stream', 'a stream that is not a boolean', { stream: 'yes' }],
  ])('400 names %s for %s', async (field, _label, patch) => {
    const res = await generate({ model: 'rosetta-image', prompt: 'x', ...patch });
    expectOpenAIError(res, 400);
    expect(res.body.error.type).toBe('invalid_request_error');
    expect(res.body.error.param).toBe(field);
    expect(res.body.error.message).toContain(field);
  });

  it('400 for a missing prompt and a missing model', async () => {
    for (const [field, body] of [
      ['prompt', { model: 'rosetta-image' }],
      ['model', { prompt: 'x' }],
    ] as const) {
      const res = await generate(body);
      expectOpenAIError(res, 400);
      expect(res.body.error.param).toBe(field);
      expect(res.body.error.message).toBe(`${field}: is required`);
    }
  });

  it('accepts a prompt of exactly 32000 characters', async () => {
    const res = await generate({ model: 'rosetta-image', prompt: 'p'.repeat(32_000), size: '16x16' });
    expect(res.status).toBe(200);
  });

  it('400 for stream: true, saying image streaming is not supported', async () => {
    const res = await generate({ model: 'rosetta-image', prompt: 'x', stream: true });
    expectOpenAIError(res, 400);
    expect(res.body.error.param).toBe('stream');
    expect(res.body.error.message).toMatch(/streaming is not supported/);
    const off = await generate({ model: 'rosetta-image', prompt: 'x', size: '16x16', stream: false });
    expect(off.status).toBe(200);
  });

  it('405 for GET, with an Allow header', async () => {
    const res = await request(app).get('/v1/images/generations').set(auth);
    expectOpenAIError(res, 405);
    expect(res.headers.allow).toBe('POST');
  });

  it('400 for malformed JSON', async () => {
    const res = await request(app)
      .post('/v1/images/generations')
      .set(auth)
      .set('content-type', 'application/json')
      .send('{"model": "rosetta-image", ');
    expectOpenAIError(res, 400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('415 for a non-JSON content type', async () => {
    const res = await request(app)
      .post('/v1/images/generations')
      .set(auth)
      .set('content-type', 'text/plain')
      .send('model=rosetta-image');
    expectOpenAIError(res, 415);
  });

  it('413 for an oversize body', async () => {
    const small = buildApp(testOptions({ maxBodyBytes: 1000 })).app;
    const res = await request(small)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'rosetta-image', prompt: 'p'.repeat(2000) });
    expectOpenAIError(res, 413);
  });
});

describe('openai-images codec', () => {
  it('is a built-in codec and claims only the generations paths', () => {
    expect(builtinCodecs().map((codec) => codec.name)).toContain('openai-images');
    const codec = openAIImagesCodec();
    expect(codec.match('/v1/images/generations')).toMatchObject({ route: { operation: 'image' }, params: {} });
    expect(codec.match('/images/generations')).toMatchObject({ route: { operation: 'image' }, params: {} });
    expect(codec.match('/v1/images/edits')).toBeUndefined();
    expect(codec.match('/v1/chat/completions')).toBeUndefined();
    expect(codec.modelList).toBeUndefined();
    expect(
      codec.extractKey({
        method: 'POST',
        path: '/v1/images/generations',
        headers: { authorization: 'Bearer abc12345' },
        query: new URLSearchParams(),
        body: {},
      }),
    ).toBe('abc12345');
  });

  it('decodes every field into the canonical ImageRequest, the unmodelled ones (only those) into its extension', () => {
    const body = {
      model: 'm',
      prompt: 'p',
      n: 3,
      size: '1536x1024',
      response_format: 'url',
      quality: 'high',
      style: 'natural',
      background: 'transparent',
      output_format: 'webp',
      user: 'u',
      moderation: 'low',
      output_compression: 80,
    };
    expect(decodeImageRequest(body)).toEqual({
      model: 'm',
      prompt: 'p',
      n: 3,
      width: 1536,
      height: 1024,
      responseFormat: 'url',
      quality: 'high',
      style: 'natural',
      background: 'transparent',
      outputFormat: 'webp',
      user: 'u',
      extensions: { 'openai-images': { fields: { moderation: 'low', output_compression: 80 } } },
    });
  });

  it('decodes defaults', () => {
    const decoded = decodeImageRequest({ model: 'm', prompt: 'p' });
    expect(decoded).toMatchObject({ n: 1, width: 1024, height: 1024, responseFormat: 'b64_json' });
    for (const field of ['quality', 'style', 'background', 'outputFormat', 'user', 'extensions'])
      expect(decoded).not.toHaveProperty(field);
  });

  it('parses sizes', () => {
    expect(parseImageSize('auto')).toEqual({ width: 1024, height: 1024 });
    expect(parseImageSize(undefined)).toEqual({ width: 1024, height: 1024 });
    expect(parseImageSize('3840x2160')).toEqual({ width: 3840, height: 2160 });
    expect(() => parseImageSize('99999999999999999999x1')).toThrow(/size/);
    expect(() => parseImageSize('1024X1024')).toThrow(/size/);
  });

  it('encodes usage, revised prompts, size and output format', () => {
    const body = encodeImagesResponse(
      {
        created: 1_700_000_000,
        images: [
          { base64: 'QUJD', mediaType: 'image/jpeg', revisedPrompt: 'a better prompt' },
          { base64: 'REVG', mediaType: 'image/jpeg' },
        ],
        usage: { inputTokens: 50, outputTokens: 4160 },
      },
      { width: 1536, height: 1024, responseFormat: 'b64_json' },
    );
    expect(body).toEqual({
      created: 1_700_000_000,
      data: [{ b64_json: 'QUJD', revised_prompt: 'a better prompt' }, { b64_json: 'REVG' }],
      size: '1536x1024',
      output_format: 'jpeg',
      usage: {
        input_tokens: 50,
        output_tokens: 4160,
        total_tokens: 4210,
        input_tokens_details: { text_tokens: 50, image_tokens: 0 },
        output_tokens_details: { text_tokens: 0, image_tokens: 4160 },
      },
    });
  });

  it('encodes url responses as data URLs', () => {
    const body = encodeImagesResponse(
      { created: 1, images: [{ base64: 'QUJD', mediaType: 'image/webp' }] },
      { width: 16, height: 16, responseFormat: 'url' },
    );
    expect(body.data).toEqual([{ url: 'data:image/webp;base64,QUJD' }]);
    expect(body.output_format).toBe('webp');
    expect(body).not.toHaveProperty('usage');
  });

  it('maps media types to output formats', () => {
    expect(outputFormatOf('image/png')).toBe('png');
    expect(outputFormatOf('image/jpeg')).toBe('jpeg');
    expect(outputFormatOf('image/jpg')).toBe('jpeg');
    expect(outputFormatOf('image/webp')).toBe('webp');
  });
});
