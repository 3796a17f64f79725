/** gateway.close() ends calls in flight and the upstream sockets under them, even when the upstream never finishes. */
import type http from 'node:http';
import { MemoryKeyStore, MemoryQuotaStore, OpenAIProvider, AnthropicProvider } from '../../lib';
import { dataEvents, serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'caller-key-for-shutdown';

/** An upstream that starts answering and never finishes: a stream with one event, or a response with no headers. */
let upstream: MockServer;
const open = new Set<http.ServerResponse>();
let upstreamClosed = 0;
let gateway: RunningGateway;
let quota: MemoryQuotaStore;

beforeEach(async () => {
  upstreamClosed = 0;
  upstream = await startMockServer((body, request, response) => {
    open.add(response);
    request.socket.on('close', () => {
      upstreamClosed++;
      open.delete(response);
    });
    if (body.stream !== true) return; // never answers
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    if (request.url!.includes('/messages')) {
      const start = {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 0 },
        },
      };
      response.write(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`);
      response.write(
        `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
      );
      response.write(
        `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'first words' } })}\n\n`,
      );
    } else if (body.model === 'done-hung') {
      const finish = {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'all' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      };
      response.write(`data: ${JSON.stringify(finish)}\n\ndata: [DONE]\n\n`);
    } else {
      const chunk = {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'first words' }, finish_reason: null }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
  });
  quota = new MemoryQuotaStore({ balances: { caller: 100_000 } });
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new OpenAIProvider({ baseUrl: `${upstream.origin}/v1`, apiKey: 'upstream-key' }),
      new AnthropicProvider({ baseUrl: upstream.origin, apiKey: 'upstream-key' }),
    ],
    models: [
      { id: 'hung', provider: 'openai', upstreamModel: 'hung' },
      { id: 'hung-claude', provider: 'anthropic', upstreamModel: 'hung' },
      { id: 'done-hung', provider: 'openai', upstreamModel: 'done-hung' },
    ],
  });
});
afterEach(async () => {
  for (const response of open) response.destroy();
  await gateway.close();
  await upstream.close();
});

/** Starts a call and resolves once its response has begun (its first body bytes, when `firstBytes`). */
async function startCall(path: string, headers: Record<string, string>, body: Json, firstBytes: boolean) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  if (firstBytes) text += decoder.decode((await reader.read()).value);
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { status: response.status, rest };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function untilUpstreamHas(count: number): Promise<void> {
  while (open.size < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('gateway.close() with calls in flight', () => {
  it('ends a stream the upstream never finishes with the protocol error event, closes the upstream socket, and releases the hold', async () => {
    const call = await startCall(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'hung', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      true,
    );
    expect(call.status).toBe(200);
    expect(quota.getAccount('caller').reserved).toBeGreaterThan(0);
    await gateway.gateway.close();
    const text = await call.rest;
    const events = dataEvents(text);
    expect(events.map((event) => event.choices?.[0]?.delta?.content ?? '').join('')).toBe('first words');
    expect(events.at(-1)!.error).toMatchObject({ type: 'server_error', code: 'shutting_down' });
    expect(text).not.toContain('[DONE]');
    expect(quota.getAccount('caller').reserved).toBe(0);
    await until(() => upstreamClosed >= 1);
  }, 5_000);

  it('an Anthropic stream gets an Anthropic error event', async () => {
    const call = await startCall(
      '/v1/messages',
      { 'x-api-key': KEY },
      { model: 'hung-claude', stream: true, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      true,
    );
    expect(call.status).toBe(200);
    await gateway.gateway.close();
    const text = await call.rest;
    expect(text).toContain('first words');
    expect(text).toMatch(/event: error\ndata: .*"type":"api_error"/);
    expect(text).not.toContain('message_stop');
    expect(quota.getAccount('caller').reserved).toBe(0);
  }, 5_000);

  it('answers a non-streamed call the upstream never answers with a 503 in the caller envelope, and releases the hold', async () => {
    const pending = startCall(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'hung', messages: [{ role: 'user', content: 'hi' }] },
      false,
    );
    await untilUpstreamHas(1);
    await gateway.gateway.close();
    const call = await pending;
    expect(call.status).toBe(503);
    expect(JSON.parse(await call.rest).error).toMatchObject({ type: 'server_error', code: 'shutting_down' });
    expect(quota.getAccount('caller')).toMatchObject({ reserved: 0, spent: 0 });
    await until(() => upstreamClosed >= 1);
  }, 5_000);

  it('destroys an upstream connection still busy after a finished stream (the upstream never ended its body)', async () => {
    const call = await startCall(
      '/v1/chat/completions',
      { authorization: `Bearer ${KEY}` },
      { model: 'done-hung', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      false,
    );
    expect(call.status).toBe(200);
    expect(await call.rest).toContain('[DONE]');
    expect(upstreamClosed).toBe(0);
    await gateway.gateway.close();
    await until(() => upstreamClosed === 1);
    expect(quota.getAccount('caller')).toMatchObject({ reserved: 0, spent: 4 });
  }, 5_000);

  it('refuses calls that arrive after close() with a 503, and close() can be called again', async () => {
    await gateway.gateway.close();
    const call = await startCall(
      '/v1/messages',
      { 'x-api-key': KEY },
      { model: 'hung-claude', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] },
      false,
    );
    expect(call.status).toBe(503);
    expect(JSON.parse(await call.rest)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    await expect(gateway.gateway.close()).resolves.toBeUndefined();
  }, 5_000);
});
