/** The official SDKs, pointed at a gateway on a loopback port, exactly as users configure them. */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { buildApp, EMPTY_KEY, listen, TEST_KEY, type RunningServer } from '../helpers/app';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe.each([
  ['mounted at the root', undefined],
  ['mounted under /ai', '/ai'],
])('official SDKs against the gateway %s', (_label, mountPath) => {
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    server = await listen(buildApp(undefined, mountPath).app);
    base = server.url + (mountPath ?? '');
  });
  afterAll(() => server.close());

  describe('openai', () => {
    const client = (apiKey = TEST_KEY) => new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });

    it('chat.completions.create', async () => {
      const completion = await client().chat.completions.create({
        model: 'rosetta-echo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello from openai' },
        ],
      });
      expect(completion.object).toBe('chat.completion');
      expect(completion.choices[0]!.message.content).toBe('Hello from openai');
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.usage!.total_tokens).toBe(
        completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
      );
      expect(completion.service_tier).toBe('default');
    });

    it('chat.completions.create with max_completion_tokens', async () => {
      const completion = await client().chat.completions.create({
        model: 'rosetta-echo',
        max_completion_tokens: 2,
        messages: [{ role: 'user', content: 'alpha beta gamma delta' }],
      });
      expect(completion.choices[0]!.finish_reason).toBe('length');
      expect(completion.usage!.completion_tokens).toBe(2);
    });

    it('images.generate returns real PNGs', async () => {
      const result = await client().images.generate({
        model: 'rosetta-image',
        prompt: 'a red kite',
        n: 2,
        size: '256x256',
        response_format: 'b64_json',
      });
      expect(result.data).toHaveLength(2);
      for (const image of result.data!) {
        const png = Buffer.from(image.b64_json!, 'base64');
        expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
        expect(png.readUInt32BE(16)).toBe(256);
        expect(png.readUInt32BE(20)).toBe(256);
      }
    });

    it('models.list and models.retrieve', async () => {
      const ids = [];
      for await (const model of client().models.list()) ids.push(model.id);
      expect(ids).toEqual(['rosetta-echo', 'rosetta-image', 'rosetta-embed']);
      expect((await client().models.retrieve('rosetta-echo')).owned_by).toBe('local');
    });

    it('AuthenticationError (401) and PermissionDeniedError (403) and NotFoundError (404)', async () => {
      const unauthenticated = await rejection(
        client('wrong-key').chat.completions.create({
          model: 'rosetta-echo',
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(unauthenticated).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((unauthenticated as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
      const refused = await rejection(
        client(EMPTY_KEY).chat.completions.create({
          model: 'rosetta-echo',
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
      const missing = await rejection(
        client().chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
      const bad = await rejection(client().chat.completions.create({ model: 'rosetta-echo', messages: [] }));
      expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    });
  });

  describe('@anthropic-ai/sdk', () => {
    const client = (apiKey = TEST_KEY) => new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });

    it('messages.create', async () => {
      const message = await client().messages.create({
        model: 'rosetta-echo',
        max_tokens: 256,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello from anthropic' }],
      });
      expect(message.type).toBe('message');
      expect(message.role).toBe('assistant');
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from anthropic' });
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.output_tokens).toBeGreaterThan(0);
    });

    it('beta.messages.create (?beta=true, as Claude Code calls it) with an auth token', async () => {
      const tokenClient = new Anthropic({ authToken: TEST_KEY, apiKey: null, baseURL: base, maxRetries: 0 });
      const message = await tokenClient.beta.messages.create({
        model: 'rosetta-echo',
        max_tokens: 1024,
        betas: ['interleaved-thinking-2025-05-14', 'context-management-2025-06-27'],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'beta hello', cache_control: { type: 'ephemeral' } }] },
        ],
      });
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'beta hello' });
    });

    it('stop sequences', async () => {
      const message = await client().messages.create({
        model: 'rosetta-echo',
        max_tokens: 256,
        stop_sequences: ['STOP'],
        messages: [{ role: 'user', content: 'go on STOP here' }],
      });
      expect(message.stop_reason).toBe('stop_sequence');
      expect(message.stop_sequence).toBe('STOP');
    });

    it('models.list', async () => {
      const ids = [];
      for await (const model of client().models.list()) ids.push(model.id);
      expect(ids).toContain('rosetta-echo');
    });

    it('AuthenticationError (401), PermissionDeniedError (403), NotFoundError (404)', async () => {
      const unauthenticated = await rejection(
        client('wrong-key').messages.create({
          model: 'rosetta-echo',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(unauthenticated).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((unauthenticated as InstanceType<typeof Anthropic.APIError>).status).toBe(401);
      const refused = await rejection(
        client(EMPTY_KEY).messages.create({
          model: 'rosetta-echo',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(403);
      const missing = await rejection(
        client().messages.create({
          model: 'no-such-model',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    });
  });

  describe('@google/genai', () => {
    // `fetch` is passed through only because Jest's sandbox hides the undici global dispatcher the SDK's
    // default transport looks for; it is the same global fetch the SDK would use outside Jest.
    const passthroughFetch = (...args: Parameters<typeof fetch>) => fetch(...args);
    const client = (apiKey = TEST_KEY, apiVersion?: string) =>
      new GoogleGenAI({
        apiKey,
        ...(apiVersion ? { apiVersion } : {}),
        httpOptions: { baseUrl: base, fetch: passthroughFetch },
      });

    it.each([
      ['v1beta (2.x default)', undefined],
      ['v1 (3.x default)', 'v1'],
    ])('models.generateContent on %s', async (_name, apiVersion) => {
      const response = await client(TEST_KEY, apiVersion).models.generateContent({
        model: 'rosetta-echo',
        contents: 'Hello from genai',
        config: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
      });
      expect(response.text).toBe('Hello from genai');
      expect(response.candidates![0]!.finishReason).toBe('STOP');
      expect(response.usageMetadata!.totalTokenCount).toBe(
        response.usageMetadata!.promptTokenCount! + response.usageMetadata!.candidatesTokenCount!,
      );
      expect(response.modelVersion).toBe('rosetta-echo');
      expect(typeof response.responseId).toBe('string');
    });

    it('system instruction and max output tokens', async () => {
      const response = await client().models.generateContent({
        model: 'rosetta-echo',
        contents: 'one two three four five',
        config: { systemInstruction: 'Be terse.', maxOutputTokens: 2 },
      });
      expect(response.candidates![0]!.finishReason).toBe('MAX_TOKENS');
      expect(response.usageMetadata!.candidatesTokenCount).toBe(2);
    });

    it('models.list and models.get', async () => {
      const names = [];
      for await (const model of await client().models.list()) names.push(model.name);
      expect(names).toContain('models/rosetta-echo');
      expect((await client().models.get({ model: 'rosetta-echo' })).name).toBe('models/rosetta-echo');
    });

    it('ApiError with status 401, 403 and 404', async () => {
      for (const [key, model, status] of [
        ['wrong-key', 'rosetta-echo', 401],
        [EMPTY_KEY, 'rosetta-echo', 403],
        [TEST_KEY, 'no-such-model', 404],
      ] as const) {
        const error = await rejection(client(key).models.generateContent({ model, contents: 'x' }));
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(status);
      }
    });
  });
});
