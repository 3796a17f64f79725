import request from 'supertest';
import Anthropic from '@anthropic-ai/sdk';
import createDebug from 'debug';
import { buildApp, EMPTY_KEY, listen, TEST_KEY, testOptions } from '../../helpers/app';
import { GatewayError, type ErrorKind, type GenerateResponse } from '../../../lib';
import { countRequestTokens, countTextTokens } from '../../../lib/extend';
import { anthropicMessagesCodec } from '../../../lib/protocols/anthropic-messages';
import { decodeMessagesRequest } from '../../../lib/protocols/anthropic-messages/decode-request';
import { encodeAnthropicError } from '../../../lib/protocols/anthropic-messages/encode-error';
import { encodeMessagesResponse, toolInput } from '../../../lib/protocols/anthropic-messages/encode-response';
import { mapFinishReason } from '../../../lib/protocols/anthropic-messages/map-finish-reason';
import { anthropicToolId } from '../../../lib/wire/anthropic/tool-id';
import { builtinCodecs } from '../../../lib/protocols/registry';
import type { HttpRequestView } from '../../../lib/protocols/types';

const { app } = buildApp();
const headers = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' };
const hello = { model: 'rosetta-echo', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello there' }] };

function post(body: unknown, with_: Record<string, string> = headers, path = '/v1/messages') {
  return request(app)
    .post(path)
    .set(with_)
    .send(body as object);
}

function expectAnthropicError(res: request.Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body.type).toBe('error');
  expect(res.body.error.type).toBe(type);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.request_id).toMatch(/^req_/);
  expect(res.headers['request-id']).toBe(res.body.request_id);
}

function decode(body: Record<string, unknown>) {
  return decodeMessagesRequest({ model: 'm', max_tokens: 100, ...body }, {});
}

/** A decoded value without its `extensions` (what canonical itself says; the extensions are tested on their own). */
function canonicalOf<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'extensions' ? undefined : inner))) as T;
}

function view(requestHeaders: Record<string, string>, query = ''): HttpRequestView {
  return {
    method: 'GET',
    path: '/v1/models',
    headers: requestHeaders,
    query: new URLSearchParams(query),
    body: undefined,
  };
}

/** A request body shaped like the one Claude Code 2.1.x sends (protocols.md 6.10). */
function claudeCodeBody() {
  const schema = (properties: Record<string, unknown>, required: string[]) => ({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  });
  const names = [
    'Task',
    'Bash',
    'Glob',
    'Grep',
    'Read',
    'Edit',
    'Write',
    'NotebookEdit',
    'WebFetch',
    'TodoWrite',
    'WebSearch',
    'ExitPlanMode',
  ];
  const tools = names.map((name, index) => ({
    name,
    description: `The ${name} tool.`,
    input_schema: schema({ value: { type: 'string', description: 'input' } }, ['value']),
    ...(index === 10 ? { defer_loading: true } : {}),
    ...(index === names.length - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
  }));
  return {
    model: 'rosetta-echo',
    max_tokens: 32000,
    stream: true,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.3.abc; cc_entrypoint=cli; cch=00000;' },
      { type: 'text', text: 'You are Claude Code, a CLI for coding.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Environment: linux.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    tools,
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: {
      user_id: JSON.stringify({
        device_id: 'd'.repeat(64),
        account_uuid: '',
        session_id: '3f1c7e2a-0000-4000-8000-000000000000',
      }),
    },
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>Context.</system-reminder>' },
          { type: 'text', text: 'List the files.', cache_control: { type: 'ephemeral' } },
        ],
      },
      { role: 'system', content: 'The user switched to plan mode.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: '', signature: 'EqQBCkYIBRgCKkA' },
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'Bash', input: { value: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: [{ type: 'text', text: 'a.ts\nb.ts' }] },
          { type: 'text', text: 'Thanks, summarise.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
  };
}

const claudeCodeHeaders = {
  authorization: `Bearer ${TEST_KEY}`,
  'anthropic-version': '2023-06-01',
  'anthropic-beta':
    'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,advanced-tool-use-2025-11-20',
  'anthropic-dangerous-direct-browser-access': 'true',
  'x-app': 'cli',
  'user-agent': 'claude-cli/2.1.3 (external, cli)',
};

describe('POST /v1/messages', () => {
  it('answers with every contract field and constant', async () => {
    const res = await post(hello);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['request-id']).toMatch(/^req_/);
    const body = res.body;
    expect(body.id).toMatch(/^msg_/);
    expect(body.type).toBe('message');
    expect(body.role).toBe('assistant');
    expect(body.model).toBe('rosetta-echo');
    expect(body.content).toEqual([{ type: 'text', text: 'Hello there', citations: [] }]);
    expect(body.stop_reason).toBe('end_turn');
    expect(body.stop_sequence).toBeNull();
    expect(body.stop_details).toBeNull();
    expect(body.context_management).toEqual({ applied_edits: [] });
    expect(body.container).toBeNull();
    const decoded = decodeMessagesRequest(hello, {});
    expect(body.usage).toEqual({
      input_tokens: countRequestTokens(decoded),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: countTextTokens('Hello there'),
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens_details: { thinking_tokens: 0 },
      service_tier: 'standard',
      inference_geo: 'not_available',
      server_tool_use: null,
    });
  });

  it('serves the ?beta=true form Claude Code uses', async () => {
    const res = await post(hello, headers, '/v1/messages?beta=true');
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('Hello there');
  });

  it('counts the system prompt as input', async () => {
    const plain = await post(hello);
    const withSystem = await post({ ...hello, system: 'You are a very careful assistant.' });
    expect(withSystem.body.usage.input_tokens).toBeGreaterThan(plain.body.usage.input_tokens);
  });

  it('cuts at the first stop sequence: stop_reason stop_sequence with the sequence', async () => {
    const res = await post({
      ...hello,
      stop_sequences: ['zzz', ' there'],
      messages: [{ role: 'user', content: 'Hello there, friend' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('Hello');
    expect(res.body.stop_reason).toBe('stop_sequence');
    expect(res.body.stop_sequence).toBe(' there');
  });

  it('respects max_tokens with stop_reason max_tokens', async () => {
    const res = await post({
      ...hello,
      max_tokens: 3,
      messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('one two three');
    expect(res.body.stop_reason).toBe('max_tokens');
    expect(res.body.stop_sequence).toBeNull();
    expect(res.body.usage.output_tokens).toBe(3);
  });

  it('replies to the last user turn when it follows tool results', async () => {
    const res = await post({
      ...hello,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '3C' },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('And tomorrow?');
  });

  it('decodes and answers the body Claude Code sends (here without streaming)', async () => {
    const res = await post({ ...claudeCodeBody(), stream: false }, claudeCodeHeaders, '/v1/messages?beta=true');
    expect(res.status).toBe(200);
    expect(res.body.content[0]).toEqual({ type: 'text', text: 'Thanks, summarise.', citations: [] });
  });

  describe('credentials', () => {
    it('accepts x-api-key and Authorization: Bearer, with any anthropic-version or none', async () => {
      const credentials: Array<Record<string, string>> = [
        { 'x-api-key': TEST_KEY },
        { authorization: `Bearer ${TEST_KEY}` },
      ];
      const versions: Array<Record<string, string>> = [
        { 'anthropic-version': '2023-06-01' },
        { 'anthropic-version': '2099-01-01' },
        {},
      ];
      for (const credential of credentials) {
        for (const version of versions) {
          const res = await post(hello, { ...credential, ...version });
          expect(res.status).toBe(200);
        }
      }
    });

    it('prefers x-api-key when both headers are sent', async () => {
      const good = await post(hello, { 'x-api-key': TEST_KEY, authorization: 'Bearer sk-wrong' });
      expect(good.status).toBe(200);
      const bad = await post(hello, { 'x-api-key': 'sk-wrong', authorization: `Bearer ${TEST_KEY}` });
      expectAnthropicError(bad, 401, 'authentication_error');
    });

    it('401 without a key and with a wrong key, in the Anthropic envelope', async () => {
      const missing = await post(hello, { 'anthropic-version': '2023-06-01' });
      expectAnthropicError(missing, 401, 'authentication_error');
      expect(missing.body.error.message).toContain('x-api-key');
      const wrong = await post(hello, { 'x-api-key': 'sk-nope-secret', 'anthropic-version': '2023-06-01' });
      expectAnthropicError(wrong, 401, 'authentication_error');
      expect(JSON.stringify(wrong.body)).not.toContain('sk-nope-secret');
    });
  });

  it('403 billing_error for a key with no balance', async () => {
    const res = await post(hello, { 'x-api-key': EMPTY_KEY });
    expectAnthropicError(res, 403, 'billing_error');
  });

  it('404 not_found_error for an unknown model', async () => {
    const res = await post({ ...hello, model: 'claude-nope' });
    expectAnthropicError(res, 404, 'not_found_error');
    expect(res.body.error.message).toContain('claude-nope');
  });

  it.each([
    ['model', { model: undefined }],
    ['max_tokens', { max_tokens: undefined }],
    ['max_tokens', { max_tokens: 0 }],
    ['max_tokens', { max_tokens: 2.5 }],
    ['messages', { messages: [] }],
    ['messages[0].role', { messages: [{ role: 'tool', content: 'x' }] }],
    ['messages[0].content', { messages: [{ role: 'user', content: 5 }] }],
    ['messages[0].content', { messages: [{ role: 'user' }] }],
    ['messages[0].content[0].type', { messages: [{ role: 'user', content: [{ type: 'hologram' }] }] }],
    [
      'messages[0].content[0].type',
      { messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'n', input: {} }] }] },
    ],
    ['messages[0].content[0].text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }],
    [
      'messages[0].content[0].source.media_type',
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/tiff', data: 'AA==' } }],
          },
        ],
      },
    ],
    [
      'messages[0].content[0].source.type',
      { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }] },
    ],
    [
      'messages[1].content[0].input',
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'n', input: '{}' }] },
        ],
      },
    ],
    [
      'messages[0].content[0].tool_use_id',
      { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] },
    ],
    [
      'messages[0].content[0].content[0].type',
      {
        messages: [
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_use' }] }] },
        ],
      },
    ],
    [
      'messages[0].content[0].type',
      { messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://x' } }] }] },
    ],
    ['system', { system: 5 }],
    ['system[0].text', { system: [{ type: 'text' }] }],
    ['temperature', { temperature: 1.5 }],
    ['top_p', { top_p: 2 }],
    ['top_k', { top_k: -1 }],
    ['stop_sequences[0]', { stop_sequences: [1] }],
    ['stream', { stream: 'yes' }],
    ['tools[0].input_schema', { tools: [{ name: 'f' }] }],
    ['tools[0].input_schema.type', { tools: [{ name: 'f', input_schema: { type: 'array' } }] }],
    ['tools[0].type', { tools: [{ type: 'function', function: { name: 'f' } }] }],
    ['tool_choice.type', { tool_choice: { type: 'required' } }],
    ['tool_choice.name', { tool_choice: { type: 'tool' } }],
    [
      'tool_choice.name',
      { tool_choice: { type: 'tool', name: 'missing' }, tools: [{ name: 'f', input_schema: { type: 'object' } }] },
    ],
    ['thinking.type', { thinking: { type: 'maybe' } }],
    ['thinking.budget_tokens', { thinking: { type: 'enabled' } }],
    ['thinking.budget_tokens', { thinking: { type: 'enabled', budget_tokens: 100 } }],
    ['output_config.effort', { output_config: { effort: 'extreme' } }],
    ['output_config.format.schema', { output_config: { format: { type: 'json_schema' } } }],
    ['metadata.user_id', { metadata: { user_id: 7 } }],
  ])('400 invalid_request_error naming %s', async (field, patch) => {
    const res = await post({ ...hello, ...patch });
    expectAnthropicError(res, 400, 'invalid_request_error');
    expect(res.body.error.message.startsWith(`${field}:`)).toBe(true);
  });

  it("a tool_choice forcing a server tool (Claude Code's WebSearch) is left out for other upstreams, not refused", async () => {
    const body = {
      ...hello,
      tool_choice: { type: 'tool', name: 'web_search' },
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    };
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('Hello there');
    // Said in the answer: the tool and the choice that forced it were left out.
    expect(res.headers['x-rosetta-warnings']).toContain('unsupported-tool=web_search_20250305');
    expect(res.headers['x-rosetta-warnings']).toContain('unsupported-setting=tool_choice');
    // Kept whole for an Anthropic upstream, with no canonical choice.
    const decoded = decodeMessagesRequest(body, {});
    expect(decoded.toolChoice).toBeUndefined();
    expect(decoded.extensions?.['anthropic-messages']).toMatchObject({
      serverToolChoice: { type: 'tool', name: 'web_search' },
    });
  });

  it('server-tool history blocks (web search) are dropped for other upstreams, not refused', async () => {
    const res = await post({
      ...hello,
      messages: [
        { role: 'user', content: 'search please' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'found it' },
          ],
        },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('thanks');
  });

  it('400 for malformed JSON, in the Anthropic envelope', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set(headers)
      .set('content-type', 'application/json')
      .send('{"model": "rosetta-echo",');
    expectAnthropicError(res, 400, 'invalid_request_error');
  });

  it('415 for a non-JSON content type', async () => {
    const res = await request(app).post('/v1/messages').set(headers).set('content-type', 'text/plain').send('hello');
    expectAnthropicError(res, 415, 'invalid_request_error');
  });

  it('413 request_too_large for an oversize body', async () => {
    const small = buildApp(testOptions({ maxBodyBytes: 1000 })).app;
    const res = await request(small)
      .post('/v1/messages')
      .set(headers)
      .send({ ...hello, messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    expectAnthropicError(res, 413, 'request_too_large');
  });

  it('405 for a method other than POST', async () => {
    const res = await request(app).get('/v1/messages').set(headers);
    expectAnthropicError(res, 405, 'invalid_request_error');
    expect(res.headers.allow).toBe('POST');
  });

  it('claims /v1/messages for calls and /v1/messages/count_tokens for counting', async () => {
    expect(anthropicMessagesCodec().match('/v1/messages/count_tokens')).toMatchObject({
      route: { operation: 'count-tokens' },
      params: {},
    });
    expect(anthropicMessagesCodec().match('/v1/messages')).toMatchObject({
      route: { operation: 'generate' },
      params: {},
    });
  });
});

describe('the official Anthropic SDK', () => {
  it('creates messages with apiKey and with authToken, lists models, and sees typed errors', async () => {
    const server = await listen(app);
    try {
      for (const auth of [{ apiKey: TEST_KEY }, { apiKey: null, authToken: TEST_KEY }]) {
        const client = new Anthropic({ baseURL: server.url, maxRetries: 0, ...auth });
        const message = await client.messages.create({
          model: 'rosetta-echo',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hi from the SDK' }],
        });
        expect(message.content[0]).toEqual({ type: 'text', text: 'Hi from the SDK', citations: [] });
        expect(message.stop_reason).toBe('end_turn');
        const beta = await client.beta.messages.create({
          model: 'rosetta-echo',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'beta path' }],
          betas: ['context-management-2025-06-27'],
        });
        expect(beta.content[0]).toMatchObject({ type: 'text', text: 'beta path' });
        const models = [];
        for await (const model of client.models.list()) models.push(model.id);
        expect(models).toEqual(['rosetta-echo']);
      }
      const denied = new Anthropic({ baseURL: server.url, apiKey: 'sk-wrong', maxRetries: 0 });
      await expect(
        denied.messages.create({ model: 'rosetta-echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
      const broke = new Anthropic({ baseURL: server.url, apiKey: EMPTY_KEY, maxRetries: 0 });
      const error = await broke.messages
        .create({ model: 'rosetta-echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect((error as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_/);
    } finally {
      await server.close();
    }
  });
});

describe('GET /v1/models with anthropic-version', () => {
  const created = Date.UTC(2025, 8, 29) / 1000;
  const many = buildApp(
    testOptions({
      models: [
        {
          id: 'm1',
          provider: 'local',
          displayName: 'Model One',
          contextWindow: 200_000,
          maxOutputTokens: 64_000,
          created,
        },
        { id: 'm2', provider: 'local', created },
        { id: 'pic', provider: 'local', type: 'image', created },
        { id: 'm3', provider: 'local', created },
        { id: 'm4', provider: 'local', created },
      ],
    }),
  ).app;

  it('answers the Anthropic list shape to x-api-key + anthropic-version', async () => {
    const res = await request(many).get('/v1/models').set(headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        expect.objectContaining({
          type: 'model',
          id: 'm1',
          display_name: 'Model One',
          created_at: '2025-09-29T00:00:00Z',
          max_input_tokens: 200_000,
          max_tokens: 64_000,
          capabilities: null,
        }),
        expect.objectContaining({
          type: 'model',
          id: 'm2',
          display_name: 'm2',
          max_input_tokens: null,
          max_tokens: 4096,
        }),
        expect.objectContaining({ id: 'm3' }),
        expect.objectContaining({ id: 'm4' }),
      ],
      has_more: false,
      first_id: 'm1',
      last_id: 'm4',
    });
  });

  it('still answers the OpenAI shape without anthropic-version', async () => {
    const res = await request(many)
      .get('/v1/models')
      .set({ authorization: `Bearer ${TEST_KEY}` });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data[0]).toMatchObject({ id: 'm1', object: 'model', owned_by: 'local' });
    expect(res.body).not.toHaveProperty('has_more');
  });

  it('pages with limit, after_id and before_id', async () => {
    const first = await request(many).get('/v1/models?limit=2').set(headers);
    expect(first.body).toMatchObject({ has_more: true, first_id: 'm1', last_id: 'm2' });
    expect(first.body.data.map((model: { id: string }) => model.id)).toEqual(['m1', 'm2']);
    const next = await request(many).get('/v1/models?limit=2&after_id=m2').set(headers);
    expect(next.body).toMatchObject({ has_more: false, first_id: 'm3', last_id: 'm4' });
    const before = await request(many).get('/v1/models?limit=2&before_id=m4').set(headers);
    expect(before.body).toMatchObject({ has_more: true, first_id: 'm2', last_id: 'm3' });
    const start = await request(many).get('/v1/models?before_id=m1').set(headers);
    expect(start.body).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it.each(['limit=0', 'limit=1001', 'limit=abc', 'after_id=nope', 'after_id=m1&before_id=m2'])(
    '400 in the Anthropic envelope for %s',
    async (query) => {
      const res = await request(many).get(`/v1/models?${query}`).set(headers);
      expectAnthropicError(res, 400, 'invalid_request_error');
    },
  );

  it('answers one model, and 404 for an unknown or image model', async () => {
    const one = await request(many).get('/v1/models/m1').set(headers);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ type: 'model', id: 'm1', created_at: '2025-09-29T00:00:00Z' });
    expectAnthropicError(await request(many).get('/v1/models/nope').set(headers), 404, 'not_found_error');
    expectAnthropicError(await request(many).get('/v1/models/pic').set(headers), 404, 'not_found_error');
  });

  it('401 in the Anthropic envelope without a key', async () => {
    const res = await request(many).get('/v1/models').set({ 'anthropic-version': '2023-06-01' });
    expectAnthropicError(res, 401, 'authentication_error');
  });

  it('claims only requests with anthropic-version and no Gemini key; comes before the OpenAI codec', () => {
    const claims = anthropicMessagesCodec().modelList!.claims!;
    expect(claims(view({ 'anthropic-version': '2023-06-01' }))).toBe(true);
    expect(claims(view({ 'x-api-key': TEST_KEY }))).toBe(false);
    expect(claims(view({ 'anthropic-version': '2023-06-01', 'x-goog-api-key': TEST_KEY }))).toBe(false);
    const names = builtinCodecs().map((codec) => codec.name);
    expect(names.indexOf('anthropic-messages')).toBeLessThan(names.indexOf('openai-chat'));
  });
});

describe('decodeMessagesRequest', () => {
  it('decodes the Claude Code body: settings, dropped nothing that matters, the rest and the betas in extensions', () => {
    const body = claudeCodeBody();
    const decoded = decodeMessagesRequest(body, claudeCodeHeaders);
    expect(decoded.model).toBe('rosetta-echo');
    expect(decoded.maxOutputTokens).toBe(32000);
    expect(decoded.stream).toBe(true);
    expect(decoded.reasoning).toEqual({ enabled: true, adaptive: true, includeThoughts: false, effort: 'high' });
    expect(decoded.user).toBe(body.metadata.user_id);
    expect(decoded.tools).toHaveLength(12);
    expect(decoded.tools![0]).toEqual({
      name: 'Task',
      description: 'The Task tool.',
      parameters: body.tools[0]!.input_schema,
    });
    expect(decoded.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'system',
      'assistant',
      'tool',
      'user',
    ]);
    expect(decoded.messages[0]!.content).toHaveLength(3);
    expect(canonicalOf(decoded.messages[2]!.content)).toEqual([
      { type: 'text', text: 'The user switched to plan mode.' },
    ]);
    expect(decoded.messages[2]!.extensions).toEqual({ 'anthropic-messages': { stringContent: true, inline: true } });
    expect(decoded).not.toHaveProperty('origin');
    expect(decoded.extensions).toEqual({
      'anthropic-messages': {
        fields: { context_management: body.context_management },
        answerEffort: true,
        betas: claudeCodeHeaders['anthropic-beta'].split(','),
      },
    });
  });

  it('puts the top-level system prompt first, as a string or text blocks with cache_control', () => {
    expect(canonicalOf(decode({ system: 'Be terse.', messages: [{ role: 'user', content: 'Hi' }] }).messages)).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be terse.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    const blocks = decode({
      system: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } },
      ],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(canonicalOf(blocks.messages[0])).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
    });
    expect(
      decode({ system: '', messages: [{ role: 'user', content: 'Hi' }] }).messages.map((message) => message.role),
    ).toEqual(['user']);
  });

  it('decodes images (base64 and URL) and documents (PDF base64 and URL, plain text, content)', () => {
    const decoded = decode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'report.pdf',
              citations: { enabled: true },
            },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'inner' }] } },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    });
    expect(canonicalOf(decoded.messages[0]!.content)).toEqual([
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
      {
        type: 'file',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' },
        filename: 'report.pdf',
      },
      { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf', mediaType: 'application/pdf' } },
      { type: 'text', text: 'plain words' },
      { type: 'text', text: 'inner' },
      { type: 'text', text: 'What are these?' },
    ]);
  });

  it('decodes tool_use to a JSON arguments string, and tool results into tool messages before the rest of the turn', () => {
    const decoded = decode({
      messages: [
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Bergen' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go.' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '3C' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              is_error: true,
              content: [
                { type: 'text', text: 'station offline' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
              ],
            },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3' }] },
      ],
    });
    expect(canonicalOf(decoded.messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Bergen?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool-call', id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Bergen"}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'toolu_1', content: [{ type: 'text', text: '3C' }] }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'toolu_2',
            isError: true,
            content: [
              { type: 'text', text: 'station offline' },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AA==' } },
            ],
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Here you go.' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_3', content: [] }] },
    ]);
  });

  it('moves a PDF returned inside a tool_result into the user turn (canonical results hold text and images)', () => {
    const decoded = decode({
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'PDF read' },
                { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
              ],
            },
          ],
        },
      ],
    });
    expect(canonicalOf(decoded.messages)).toEqual([
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 't1', content: [{ type: 'text', text: 'PDF read' }] }],
      },
      {
        role: 'user',
        content: [{ type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } }],
      },
    ]);
  });

  it('decodes thinking and redacted_thinking to reasoning parts with their opaque data', () => {
    const decoded = decode({
      messages: [
        { role: 'user', content: 'Think.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me reason.', signature: 'EqQBsig' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
    });
    expect(decoded.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'Let me reason.', signature: 'EqQBsig' },
      { type: 'reasoning', text: '', redactedData: 'EmwKAhgBEgy' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('decodes sampling settings, stop sequences, stream and the end-user id', () => {
    const decoded = decode({
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      stream: true,
      metadata: { user_id: 'user-42' },
    });
    expect(decoded).toMatchObject({
      maxOutputTokens: 100,
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      stream: true,
      user: 'user-42',
    });
    const bare = decode({
      messages: [{ role: 'user', content: 'x' }],
      stop_sequences: [],
      metadata: { user_id: null },
    });
    expect(bare.stream).toBe(false);
    expect(bare).not.toHaveProperty('stopSequences');
    expect(bare).not.toHaveProperty('user');
    expect(bare).not.toHaveProperty('temperature');
  });

  it('decodes custom tools and drops server tools with a rosetta:codec debug line', () => {
    const lines: string[] = [];
    const savedLog = createDebug.log;
    const savedNamespaces = createDebug.disable();
    createDebug.enable('rosetta:codec');
    createDebug.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    try {
      const decoded = decode({
        messages: [{ role: 'user', content: 'x' }],
        tools: [
          {
            name: 'get_weather',
            description: 'Weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
            strict: true,
            cache_control: { type: 'ephemeral' },
          },
          { type: 'custom', name: 'plain', input_schema: { type: 'object' }, defer_loading: true },
          { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
          { type: 'bash_20250124', name: 'bash' },
        ],
      });
      expect(canonicalOf(decoded.tools)).toEqual([
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { name: 'plain', parameters: { type: 'object' } },
      ]);
      expect(lines.some((line) => line.includes('rosetta:codec') && line.includes('web_search'))).toBe(true);
      expect(lines.some((line) => line.includes('bash'))).toBe(true);
    } finally {
      createDebug.log = savedLog;
      createDebug.disable();
      if (savedNamespaces) createDebug.enable(savedNamespaces);
    }
  });

  it('decodes tool_choice and disable_parallel_tool_use', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ type: 'auto' }, { toolChoice: { type: 'auto' } }],
      [
        { type: 'any', disable_parallel_tool_use: true },
        { toolChoice: { type: 'required' }, parallelToolCalls: false },
      ],
      [
        { type: 'tool', name: 'f', disable_parallel_tool_use: false },
        { toolChoice: { type: 'tool', name: 'f' }, parallelToolCalls: true },
      ],
      [{ type: 'none' }, { toolChoice: { type: 'none' } }],
    ];
    for (const [choice, expected] of cases) {
      expect(decode({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice: choice })).toMatchObject(
        expected,
      );
    }
    expect(
      decode({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice: { type: 'auto' } }),
    ).not.toHaveProperty('parallelToolCalls');
  });

  it('decodes thinking and output_config into reasoning and response format', () => {
    const messages = [{ role: 'user', content: 'x' }];
    expect(decode({ messages, thinking: { type: 'enabled', budget_tokens: 2048 } }).reasoning).toEqual({
      enabled: true,
      adaptive: false,
      includeThoughts: true,
      budgetTokens: 2048,
    });
    expect(decode({ messages, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } }).reasoning).toEqual(
      { enabled: true, adaptive: true, includeThoughts: true, effort: 'medium' },
    );
    expect(decode({ messages, thinking: { type: 'adaptive', display: 'omitted' } }).reasoning).toEqual({
      enabled: true,
      adaptive: true,
      includeThoughts: false,
    });
    expect(decode({ messages, thinking: { type: 'disabled' } }).reasoning).toEqual({ enabled: false });
    expect(decode({ messages, output_config: { effort: 'max' } }).reasoning).toEqual({ effort: 'max' });
    expect(decode({ messages })).not.toHaveProperty('reasoning');
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect(decode({ messages, output_config: { format: { type: 'json_schema', schema } } }).responseFormat).toEqual({
      type: 'json-schema',
      schema,
    });
  });
});

describe('encodeMessagesResponse', () => {
  const base: GenerateResponse = {
    id: 'abc123',
    model: 'some-model',
    created: 1767225600,
    choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason: { unified: 'stop' } }],
    usage: { inputTokens: 100, outputTokens: 40 },
  };

  it('encodes reasoning, redacted reasoning and tool calls (ids made Anthropic-safe, input parsed)', () => {
    const body = encodeMessagesResponse({
      ...base,
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Thinking…', signature: 'sig' },
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', id: 'call:abc.1|x', name: 'get_weather', arguments: '{"city":"Oslo"}' },
            { type: 'tool-call', id: 'call_ok-2', name: 'broken', arguments: '{"city":' },
            { type: 'tool-call', id: '', name: 'array', arguments: '[1,2]' },
          ],
          finishReason: { unified: 'tool-calls' },
        },
      ],
    });
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'Thinking…', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Calling.', citations: [] },
      { type: 'tool_use', id: 'call_abc_1_x', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'call_ok-2', name: 'broken', input: {} },
      { type: 'tool_use', id: 'toolu_5', name: 'array', input: {} },
    ]);
    for (const block of body.content) if (block.type === 'tool_use') expect(block.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(body.stop_reason).toBe('tool_use');
    expect(body.id).toBe('msg_abc123');
    expect(encodeMessagesResponse({ ...base, id: 'msg_keep' }).id).toBe('msg_keep');
  });

  it('maps usage: input excludes cache reads and writes; thinking tokens broken out', () => {
    const body = encodeMessagesResponse({
      ...base,
      usage: {
        inputTokens: 1000,
        outputTokens: 300,
        cacheReadTokens: 600,
        cacheWriteTokens: 100,
        reasoningTokens: 250,
      },
    });
    expect(body.usage).toMatchObject({
      input_tokens: 300,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 100,
      output_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
      output_tokens_details: { thinking_tokens: 250 },
    });
  });

  it('maps finish reasons to stop reasons', () => {
    expect(mapFinishReason({ unified: 'stop' }, false)).toEqual({ stopReason: 'end_turn', stopSequence: null });
    expect(mapFinishReason({ unified: 'stop', stopSequence: 'END' }, false)).toEqual({
      stopReason: 'stop_sequence',
      stopSequence: 'END',
    });
    expect(mapFinishReason({ unified: 'length' }, false)).toEqual({ stopReason: 'max_tokens', stopSequence: null });
    expect(mapFinishReason({ unified: 'length', raw: 'model_context_window_exceeded' }, false).stopReason).toBe(
      'model_context_window_exceeded',
    );
    expect(mapFinishReason({ unified: 'tool-calls' }, true).stopReason).toBe('tool_use');
    expect(mapFinishReason({ unified: 'stop' }, true).stopReason).toBe('tool_use');
    expect(mapFinishReason({ unified: 'content-filter' }, false).stopReason).toBe('refusal');
    expect(mapFinishReason({ unified: 'other', raw: 'pause_turn' }, false).stopReason).toBe('pause_turn');
    expect(mapFinishReason({ unified: 'error' }, false).stopReason).toBe('end_turn');
  });

  it('parses tool input defensively and rewrites ids deterministically', () => {
    expect(toolInput('{"a":1}')).toEqual({ a: 1 });
    expect(toolInput('')).toEqual({});
    expect(toolInput('null')).toEqual({});
    expect(anthropicToolId('a:b.c')).toBe(anthropicToolId('a:b.c'));
    expect(anthropicToolId('abc+/=')).toBe('abc___');
  });
});

describe('encodeAnthropicError', () => {
  const expected: Array<[ErrorKind, number, string]> = [
    ['invalid_request', 400, 'invalid_request_error'],
    ['authentication', 401, 'authentication_error'],
    ['permission', 403, 'permission_error'],
    ['insufficient_quota', 403, 'billing_error'],
    ['not_found', 404, 'not_found_error'],
    ['method_not_allowed', 405, 'invalid_request_error'],
    ['request_too_large', 413, 'request_too_large'],
    ['unsupported_media_type', 415, 'invalid_request_error'],
    ['rate_limit', 429, 'rate_limit_error'],
    ['internal', 500, 'api_error'],
    ['upstream', 502, 'api_error'],
    ['upstream_auth', 502, 'api_error'],
    ['upstream_timeout', 504, 'timeout_error'],
    ['overloaded', 529, 'overloaded_error'],
    ['unavailable', 503, 'api_error'],
  ];

  it.each(expected)('%s → %d %s', (kind, status, type) => {
    const encoded = encodeAnthropicError(new GatewayError(kind, 'Something.'), 'req_1');
    expect(encoded).toEqual({
      status,
      headers: { 'request-id': 'req_1' },
      body: { type: 'error', error: { type, message: 'Something.' }, request_id: 'req_1' },
    });
  });
});
