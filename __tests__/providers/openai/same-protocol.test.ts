/**
 * A chat-completions caller → an OpenAI-compatible upstream: the body is rebuilt from the canonical request,
 * faithfully, and edits to it count.
 */
import { MemoryKeyStore, MemoryQuotaStore, OpenAIProvider, type GenerateRequest } from '../../../lib';
import { decodeChatRequest } from '../../../lib/protocols/openai-chat/decode-request';
import { decodeImageRequest } from '../../../lib/protocols/openai-images/decode-request';
import { encodeChatResponse } from '../../../lib/protocols/openai-chat/encode-response';
import { decodeChatResponse } from '../../../lib/providers/openai/decode-response';
import { encodeChatRequest } from '../../../lib/providers/openai/encode-request';
import { encodeImageRequest } from '../../../lib/providers/openai/images';
import { buildApp, listen, type Json, type RunningServer } from '../../helpers/app';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';

const KEY = 'sk-same-protocol-caller';
let mock: MockOpenAI;
let server: RunningServer;

beforeAll(async () => {
  mock = await startMockOpenAI();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 10_000_000 } }),
    // api.openai.com's defaults for a reasoning model: max_completion_tokens, temperature dropped for other protocols.
    providers: [
      new OpenAIProvider({
        baseUrl: mock.url,
        apiKey: 'sk-up',
        maxTokensField: 'max_completion_tokens',
        reasoningModels: () => true,
      }),
    ],
    models: [
      { id: 'gpt-echo', provider: 'openai', upstreamModel: 'echo' },
      { id: 'gpt-image', provider: 'openai', type: 'image', upstreamModel: 'gpt-image-1' },
    ],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

/** Every unmodelled field at every level, and every spelling the canonical request does not keep. */
const KITCHEN_SINK: Json = {
  model: 'gpt-echo',
  messages: [
    { role: 'developer', content: 'You are terse.', name: 'policy' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this', cache_control: { type: 'ephemeral' } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
      ],
      name: 'alice',
    },
    {
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      audio: { id: 'audio_abc' },
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'lookup', arguments: '{"q":"cat"}' },
          extra_content: { trace: 'x' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'a cat' }] },
    { role: 'system', content: [{ type: 'text', text: 'Mid-conversation reminder.' }] },
    {
      role: 'assistant',
      content: 'It is a cat.',
      refusal: null,
      annotations: [
        {
          type: 'url_citation',
          url_citation: { url: 'https://example.com/', title: 'Example', start_index: 0, end_index: 2 },
        },
      ],
    },
    { role: 'assistant', content: null, refusal: 'I cannot say more.' },
    { role: 'function', name: 'legacy_lookup', content: 'legacy result' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'file',
          file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'a.pdf' },
          cache_control: { type: 'ephemeral' },
        },
      ],
    },
    { role: 'user', content: 'And now?' },
  ],
  max_completion_tokens: 200,
  temperature: 0.2,
  top_p: 0.9,
  n: 1,
  stop: 'END',
  seed: 7,
  user: 'u-'.repeat(40),
  tools: [
    {
      type: 'function',
      cache_control: { type: 'ephemeral' },
      function: {
        name: 'lookup',
        description: 'Looks up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        strict: true,
        examples: [{ q: 'dog' }],
      },
    },
  ],
  tool_choice: { type: 'function', function: { name: 'lookup' } },
  parallel_tool_calls: false,
  reasoning_effort: 'low',
  response_format: {
    type: 'json_schema',
    json_schema: { name: 'answer', description: 'One answer', schema: SCHEMA, strict: true },
  },
  logprobs: true,
  top_logprobs: 2,
  presence_penalty: 0.1,
  frequency_penalty: 0.2,
  logit_bias: { '50256': -100 },
  metadata: { team: 'a' },
  store: false,
  service_tier: 'auto',
  modalities: ['text'],
  audio: { voice: 'alloy', format: 'wav' },
  prediction: { type: 'content', content: 'It is' },
  web_search_options: { search_context_size: 'low' },
  verbosity: 'low',
  prompt_cache_key: 'k-1',
};

/**
 * The bench's body, and the other spellings: `max_tokens`, `safety_identifier` beside `user`, a text response format,
 * stop as an array, `n` above 1.
 */
const PLAIN: Json = {
  model: 'gpt-echo',
  messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
  max_tokens: 64,
};
const SPELLINGS: Json = {
  model: 'gpt-echo',
  messages: [
    { role: 'system', content: 'Be kind.' },
    { role: 'user', content: 'hi' },
  ],
  max_tokens: 10,
  user: 'legacy-user',
  safety_identifier: 'safe-1',
  response_format: { type: 'text' },
  stop: ['a', 'b'],
  n: 2,
};

async function sent(body: Json): Promise<Json> {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  await res.text();
  return mock.requests.at(-1)!.body;
}

describe("same protocol: the upstream gets the caller's body with only the gateway's fields changed", () => {
  it.each([
    ['every unmodelled field and spelling', KITCHEN_SINK],
    ['the bench body', PLAIN],
    ['max_tokens, safety_identifier and user, a text format, a stop array, n > 1', SPELLINGS],
  ])('%s, not streamed', async (_name, body) => {
    expect(await sent(body)).toEqual({ ...body, model: 'echo', stream: false });
  });

  it.each([
    ['every unmodelled field and spelling', KITCHEN_SINK],
    ['the bench body', PLAIN],
  ])('%s, streamed (usage always asked for)', async (_name, body) => {
    expect(await sent({ ...body, stream: true })).toEqual({
      ...body,
      model: 'echo',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(await sent({ ...body, stream: true, stream_options: { include_usage: false } })).toEqual({
      ...body,
      model: 'echo',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("images: the caller's unmodelled fields go with the gateway's own", async () => {
    const body = {
      model: 'gpt-image',
      prompt: 'a fox',
      n: 1,
      size: '1024x1536',
      quality: 'high',
      moderation: 'low',
      output_compression: 80,
      partial_images: 0,
    };
    const res = await fetch(`${server.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, response_format: 'b64_json' }),
    });
    expect(res.status).toBe(200);
    expect(mock.requests.at(-1)!.body).toEqual({ ...body, model: 'gpt-image-1' });
  });
});

const OPTIONS = { maxTokensField: 'max_tokens' as const, stream: false };

describe('same protocol: the canonical request is the one truth', () => {
  it("honours edits made to the decoded request: a message's text, a dropped message, a dropped tool, the temperature", () => {
    const request = decodeChatRequest(structuredClone(KITCHEN_SINK));
    const developer = request.messages[0]!.content[0]!;
    if (developer.type !== 'text') throw new Error('expected text');
    developer.text = 'You are verbose.';
    request.messages.splice(5, 1);
    request.tools = [{ name: 'other', parameters: { type: 'object' } }];
    request.temperature = 1.1;
    request.maxOutputTokens = 33;
    const body = encodeChatRequest(request, 'up', OPTIONS) as Json;
    expect(body.messages[0]).toEqual({ role: 'developer', content: 'You are verbose.', name: 'policy' });
    expect(body.messages).toHaveLength(KITCHEN_SINK.messages.length - 1);
    expect(JSON.stringify(body.messages)).not.toContain('It is a cat.');
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'other', parameters: { type: 'object' } } }]);
    expect(body).toMatchObject({
      temperature: 1.1,
      max_completion_tokens: 33,
      logprobs: true,
      metadata: { team: 'a' },
    });
  });

  it('honours a step that drops a setting or adds a message', () => {
    const request: GenerateRequest = decodeChatRequest(structuredClone(KITCHEN_SINK));
    delete request.temperature;
    delete request.responseFormat;
    request.messages.push({ role: 'user', content: [{ type: 'text', text: 'added by a step' }] });
    const body = encodeChatRequest(request, 'up', OPTIONS) as Json;
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('response_format');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'added by a step' });
  });

  it('honours an edit of an images request', () => {
    const request = decodeImageRequest({ model: 'm', prompt: 'a fox', quality: 'high', moderation: 'low' });
    request.prompt = 'a cat';
    delete request.quality;
    expect(encodeImageRequest(request, 'gpt-image-1')).toEqual({
      model: 'gpt-image-1',
      prompt: 'a cat',
      n: 1,
      size: '1024x1024',
      moderation: 'low',
    });
  });

  it("never sends another protocol's extensions", () => {
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: 'hi',
              extensions: { 'anthropic-messages': { cache_control: { type: 'ephemeral' } } },
            },
          ],
          extensions: { gemini: { fields: { leak: 1 } } },
        },
      ],
      tools: [
        {
          name: 't',
          parameters: { type: 'object' },
          extensions: { 'anthropic-messages': { cache_control: { type: 'ephemeral' } } },
        },
      ],
      extensions: { 'anthropic-messages': { container: 'c-1', fields: { leak: 2 } }, gemini: { safetySettings: [] } },
    };
    const body = encodeChatRequest(request, 'up', OPTIONS) as Json;
    expect(body).toEqual({
      model: 'up',
      stream: false,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }],
    });
  });

  it("keeps the translation rules for other protocols' requests: system folded, sampling adapted to a reasoning model", () => {
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      temperature: 0.5,
      reasoning: { enabled: true, budgetTokens: 2000 },
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'A' }] },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'system', content: [{ type: 'text', text: 'B' }] },
      ],
    };
    const body = encodeChatRequest(request, 'up', { ...OPTIONS, reasoningModel: true });
    expect(body.messages).toEqual([
      { role: 'system', content: 'A\n\nB' },
      { role: 'user', content: 'hi' },
    ]);
    expect(body).toMatchObject({ reasoning_effort: 'medium' });
    expect(body).not.toHaveProperty('temperature');
  });
});

describe('same protocol: answers', () => {
  const upstream = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1700000000,
    model: 'up-2024',
    system_fingerprint: 'fp_1',
    service_tier: 'flex',
    provider: 'mock-cloud',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: { content: [] },
        message: { role: 'assistant', content: 'hi', refusal: null, annotations: [{ type: 'url_citation' }] },
      },
    ],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      cost: 0.1,
      prompt_tokens_details: { cached_tokens: 4, audio_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2, accepted_prediction_tokens: 1 },
    },
  };

  it('the provider keeps only what the canonical response does not model, at each level', () => {
    const response = decodeChatResponse(structuredClone(upstream), 'up');
    expect(response.extensions).toEqual({
      'openai-chat': {
        fields: { system_fingerprint: 'fp_1', service_tier: 'flex', provider: 'mock-cloud' },
        usage: {
          cost: 0.1,
          prompt_tokens_details: { audio_tokens: 3 },
          completion_tokens_details: { accepted_prediction_tokens: 1 },
        },
      },
    });
    expect(response.choices[0]!.extensions).toEqual({
      'openai-chat': { fields: { logprobs: { content: [] } }, message: { annotations: [{ type: 'url_citation' }] } },
    });
  });

  it('the codec returns them, with the canonical figures (an edit of them honoured)', () => {
    const response = decodeChatResponse(structuredClone(upstream), 'up');
    response.usage = { ...response.usage, outputTokens: 6, reasoningTokens: 3 };
    const body = encodeChatResponse({ ...response, model: 'gpt-echo' }) as Json;
    expect(body).toMatchObject({
      model: 'gpt-echo',
      system_fingerprint: 'fp_1',
      service_tier: 'flex',
      provider: 'mock-cloud',
    });
    expect(body.choices[0]).toEqual({
      index: 0,
      finish_reason: 'stop',
      logprobs: { content: [] },
      message: { role: 'assistant', content: 'hi', refusal: null, annotations: [{ type: 'url_citation' }] },
    });
    expect(body.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 6,
      total_tokens: 16,
      cost: 0.1,
      prompt_tokens_details: { cached_tokens: 4, audio_tokens: 3 },
      completion_tokens_details: {
        reasoning_tokens: 3,
        audio_tokens: 0,
        accepted_prediction_tokens: 1,
        rejected_prediction_tokens: 0,
      },
    });
  });
});
