/**
 * Histories Anthropic refuses (litellm #16711, new-api #1854) are cleaned before it sees them, from every caller
 * protocol: empty text blocks, two results for one call, a result without its call, a call without its result.
 * Judged by a strict mock Anthropic that answers those with Anthropic's own 400s.
 */
import request from 'supertest';
import { AnthropicProvider, MemoryKeyStore, type ModelConfig } from '../../../lib';
import { UNANSWERED_RESULT } from '../../../lib/providers/anthropic/clean-tool-results';
import { serveGateway, type Json, type RunningGateway } from '../../helpers/app';
import {
  conversationProblem,
  startMockAnthropicStrict,
  type MockAnthropicStrict,
} from '../../helpers/mock-anthropic-strict';

const KEY = 'sk-anthropic-cleaning-1';

let mock: MockAnthropicStrict;
let server: RunningGateway;

const models: ModelConfig[] = [{ id: 'claude-strict', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' }];

beforeAll(async () => {
  mock = await startMockAnthropicStrict();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new AnthropicProvider({ baseUrl: mock.url, apiKey: 'sk-ant-upstream', retries: { baseDelayMs: 1 } })],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const sent = () => mock.bodies[mock.bodies.length - 1]!.messages as Json[];
const openai = (messages: Json[], extra: Json = {}) =>
  request(server.url)
    .post('/v1/chat/completions')
    .set('authorization', `Bearer ${KEY}`)
    .send({ model: 'claude-strict', messages, ...extra });
const anthropic = (messages: Json[], extra: Json = {}) =>
  request(server.url)
    .post('/v1/messages')
    .set('x-api-key', KEY)
    .set('anthropic-version', '2023-06-01')
    .send({ model: 'claude-strict', max_tokens: 64, messages, ...extra });

const call = (id: string, name = 'read') => ({ id, type: 'function', function: { name, arguments: '{"path":"a"}' } });
const tool = {
  type: 'function',
  function: { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
};

describe('the strict mock', () => {
  it("refuses what Anthropic refuses, in Anthropic's words", () => {
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] };
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });
    expect(conversationProblem([{ role: 'user', content: [{ type: 'text', text: '' }] }])).toBe(
      'messages.0.content.0: text content blocks must be non-empty',
    );
    expect(conversationProblem([{ role: 'user', content: [{ type: 'text', text: ' \n' }] }])).toContain(
      'must contain non-whitespace text',
    );
    expect(conversationProblem([use, { role: 'user', content: [result('t1'), result('t1')] }])).toBe(
      'messages.1.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks with id: t1',
    );
    expect(conversationProblem([use, { role: 'user', content: [result('t2')] }])).toContain(
      'unexpected `tool_use_id` found in `tool_result` blocks: t2',
    );
    expect(conversationProblem([use, { role: 'user', content: 'go on' }])).toContain(
      '`tool_use` ids were found without `tool_result` blocks immediately after: t1',
    );
  });
});

describe('an OpenAI caller to Anthropic', () => {
  it("sends an assistant's empty content beside its tool calls as no text block", async () => {
    const res = await openai(
      [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: '', tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'file a' },
      ],
      { tools: [tool] },
    );
    expect(res.status).toBe(200);
    expect(sent()[1]!.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } }]);
  });

  it('merges two tool messages with one id into one result, their texts in order', async () => {
    const res = await openai(
      [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: null, tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'progress: half' },
        { role: 'tool', tool_call_id: 'call_1', content: 'file a' },
      ],
      { tools: [tool] },
    );
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('history accepted');
    expect(sent()[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_1',
        content: [
          { type: 'text', text: 'progress: half' },
          { type: 'text', text: 'file a' },
        ],
      },
    ]);
  });

  it('sends a repeated identical result once', async () => {
    const res = await openai(
      [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: null, tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'file a' },
        { role: 'tool', tool_call_id: 'call_1', content: 'file a' },
      ],
      { tools: [tool] },
    );
    expect(res.status).toBe(200);
    expect(sent()[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'file a' }] },
    ]);
  });

  it('answers a call left without a result (the user spoke instead) with an error result saying so', async () => {
    const res = await openai(
      [
        { role: 'user', content: 'read a and b' },
        { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_2', content: 'file b' },
        { role: 'user', content: 'never mind a' },
      ],
      { tools: [tool] },
    );
    expect(res.status).toBe(200);
    expect(sent()[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: UNANSWERED_RESULT, is_error: true },
      { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'file b' }] },
      { type: 'text', text: 'never mind a' },
    ]);
  });

  it('sends a result whose call is not in the previous turn as text', async () => {
    const res = await openai(
      [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_gone', content: 'stale output' },
        { role: 'user', content: 'go on' },
      ],
      { tools: [tool] },
    );
    expect(res.status).toBe(200);
    expect(sent()[2]!.content).toEqual([
      { type: 'text', text: 'Result of tool call call_gone:' },
      { type: 'text', text: 'stale output' },
      { type: 'text', text: 'go on' },
    ]);
  });
});

describe('a Gemini caller to Anthropic', () => {
  it('sends an empty text part as nothing, and a run of function responses for one call as one result', async () => {
    const res = await request(server.url)
      .post('/v1beta/models/claude-strict:generateContent')
      .set('x-goog-api-key', KEY)
      .send({
        contents: [
          { role: 'user', parts: [{ text: 'read a' }, { text: '' }] },
          { role: 'model', parts: [{ text: '' }, { functionCall: { id: 'fc_1', name: 'read', args: { path: 'a' } } }] },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'fc_1', name: 'read', response: { output: 'half' } } },
              { functionResponse: { id: 'fc_1', name: 'read', response: { output: 'file a' } } },
            ],
          },
        ],
        tools: [{ functionDeclarations: [{ name: 'read', parameters: { type: 'OBJECT' } }] }],
      });
    expect(res.status).toBe(200);
    expect(sent()[0]!.content).toEqual([{ type: 'text', text: 'read a' }]);
    const results = (sent()[2]!.content as Json[]).filter((block) => block.type === 'tool_result');
    expect(results).toHaveLength(1);
  });
});

describe('an Anthropic caller to Anthropic', () => {
  it('gets the same cleaning where Anthropic would refuse, streamed through the SDK shape', async () => {
    const res = await anthropic(
      [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a again' },
            { type: 'text', text: '' },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
      { stream: true },
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('history accepted');
    expect(sent()[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [
          { type: 'text', text: 'file a' },
          { type: 'text', text: 'file a again' },
        ],
      },
      { type: 'text', text: 'thanks' },
    ]);
  });

  it('sends a history Anthropic takes as it came', async () => {
    const messages = [
      { role: 'user', content: 'read a' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a', is_error: false }] },
    ];
    const res = await anthropic(messages);
    expect(res.status).toBe(200);
    expect(sent()).toEqual(messages);
  });
});
