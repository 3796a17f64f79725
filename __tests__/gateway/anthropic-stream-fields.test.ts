/**
 * A streamed Anthropic answer's fields the codec does not model reach an Anthropic caller as the upstream sent them:
 * `message_start.message`'s (`container`, usage's `service_tier` and `cache_creation`) in the caller's
 * `message_start`, and `message_delta`'s (`delta.stop_details`, `delta.container`, its own `context_management`,
 * usage's `server_tool_use`) in its `message_delta`, so the SDK's accumulated message has them; a chat-completions
 * caller through the same upstream gets its own protocol's answer, without them.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Request, Response } from 'express';
import { AnthropicProvider, MemoryKeyStore } from '../../lib';
import { listen, type RunningServer, serveGateway, type RunningGateway } from '../helpers/app';

const KEY = 'sk-stream-fields-caller-0001';
const STARTED_CONTAINER = { id: 'container_011CZ', expires_at: '2026-12-07T07:00:00Z', skills: null };
const ENDED_CONTAINER = { ...STARTED_CONTAINER, expires_at: '2026-12-07T08:00:00Z' };
const STOP_DETAILS = { type: 'refusal', category: 'cyber', explanation: 'The request asked for an exploit.' };
const CONTEXT_MANAGEMENT = {
  applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 3100 }],
};
const CACHE_CREATION = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2048 };
const SERVER_TOOL_USE = { web_search_requests: 1, web_fetch_requests: 0 };
const TEXT = 'I can not help with that.';

/** The upstream's events, as the API streams them. */
function streamEvents(): Array<Record<string, unknown>> {
  return [
    {
      type: 'message_start',
      message: {
        id: 'msg_fields',
        type: 'message',
        role: 'assistant',
        model: 'claude-fields',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        container: STARTED_CONTAINER,
        context_management: null,
        usage: {
          input_tokens: 40,
          cache_creation_input_tokens: 2048,
          cache_read_input_tokens: 0,
          cache_creation: CACHE_CREATION,
          output_tokens: 1,
          service_tier: 'priority',
        },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: TEXT } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: STOP_DETAILS, container: ENDED_CONTAINER },
      context_management: CONTEXT_MANAGEMENT,
      usage: {
        input_tokens: 40,
        cache_creation_input_tokens: 2048,
        cache_read_input_tokens: 0,
        output_tokens: 9,
        server_tool_use: SERVER_TOOL_USE,
      },
    },
    { type: 'message_stop' },
  ];
}

let upstream: RunningServer;
let gateway: RunningGateway;

beforeAll(async () => {
  const express = (await import('express')).default;
  const app = express();
  app.use(express.json());
  app.post('/v1/messages', (request: Request, response: Response) => {
    if (!request.body.stream) {
      response.json({
        id: 'msg_fields',
        type: 'message',
        role: 'assistant',
        model: 'claude-fields',
        content: [{ type: 'text', text: TEXT }],
        stop_reason: 'refusal',
        stop_sequence: null,
        stop_details: STOP_DETAILS,
        container: ENDED_CONTAINER,
        context_management: CONTEXT_MANAGEMENT,
        usage: { input_tokens: 40, output_tokens: 9, cache_creation: CACHE_CREATION, server_tool_use: SERVER_TOOL_USE },
      });
      return;
    }
    response.setHeader('content-type', 'text/event-stream');
    for (const event of streamEvents()) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    response.end();
  });
  upstream = await listen(app);
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.url, apiKey: 'sk-upstream-0000' })],
    models: [{ id: 'fields', provider: 'anthropic', upstreamModel: 'claude-fields' }],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const REQUEST = {
  model: 'fields',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Write an exploit.' }],
};

describe("a streamed Anthropic upstream's unmodelled message fields", () => {
  it("reach a streamed Anthropic caller's message_start and message_delta as sent, and its final message", async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const stream = client.beta.messages.stream(REQUEST);
    const events: Array<Record<string, any>> = [];
    // A copy of each: the SDK accumulates its final message into the message_start event's own message.
    for await (const event of stream) events.push(structuredClone(event) as unknown as Record<string, any>);
    const final = await stream.finalMessage();

    const start = events.find((event) => event.type === 'message_start')!;
    expect(start.message.container).toEqual(STARTED_CONTAINER);
    expect(start.message.context_management).toBeNull();
    expect(start.message.stop_details).toBeNull();
    expect(start.message.usage).toMatchObject({ service_tier: 'priority', cache_creation: CACHE_CREATION });

    const delta = events.find((event) => event.type === 'message_delta')!;
    expect(delta.delta).toEqual({
      stop_reason: 'refusal',
      stop_sequence: null,
      stop_details: STOP_DETAILS,
      container: ENDED_CONTAINER,
    });
    expect(delta.context_management).toEqual(CONTEXT_MANAGEMENT);
    expect(delta.usage.server_tool_use).toEqual(SERVER_TOOL_USE);
    expect(delta.usage.output_tokens).toBe(9);

    expect(final.content).toMatchObject([{ type: 'text', text: TEXT }]);
    expect(final.stop_reason).toBe('refusal');
    expect(final.stop_details).toEqual(STOP_DETAILS);
    expect(final.container).toEqual(ENDED_CONTAINER);
    expect(final.context_management).toEqual(CONTEXT_MANAGEMENT);
    expect(final.usage).toMatchObject({
      service_tier: 'priority',
      cache_creation: CACHE_CREATION,
      server_tool_use: SERVER_TOOL_USE,
      output_tokens: 9,
    });
  });

  it('leave a chat-completions caller of the same upstream its own answer', async () => {
    const post = (stream: boolean) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fields', stream, messages: [{ role: 'user', content: 'Write an exploit.' }] }),
      });
    const response = await post(false);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.choices[0].message.content).toBe(TEXT);
    expect(body.usage.completion_tokens).toBe(9);
    expect(JSON.stringify(body)).not.toMatch(/container|context_management|stop_details|priority|server_tool_use/);

    const streamed = await (await post(true)).text();
    const chunks = streamed
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)));
    expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('')).toBe(TEXT);
    expect(streamed).not.toMatch(/container|context_management|stop_details|priority|server_tool_use/);
  });
});
