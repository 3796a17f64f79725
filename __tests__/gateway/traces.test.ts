/**
 * OpenTelemetry traces (docs/operations.md, *Traces*), read from an SDK's in-memory exporter: a call's span and one
 * CLIENT span per upstream attempt with the GenAI conventions' attributes (a stream's, a fallback's two attempts as
 * siblings, a refused call's, an embedding's), W3C `traceparent` sent to the upstream and a caller's trace continued,
 * the messages only when the host opts in, and never a key.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OpenAIProvider, type GatewayOptions } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-traces-caller-0123456789';
const UPSTREAM_KEY = 'sk-upstream-secret-000000';
const BROKE_KEY = 'sk-traces-broke-0123456789';
const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
let upstream: MockServer;
let gateway: RunningGateway;
let capturing: RunningGateway;
const seen: IncomingHttpHeaders[] = [];

function chatAnswer(model: string) {
  return {
    id: 'chatcmpl-trace-1',
    object: 'chat.completion',
    created: 1,
    model: `${model}-2026`,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 12,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 2 },
    },
  };
}

function options(captureContent: boolean): GatewayOptions {
  return {
    keys: [
      { key: KEY, id: 'alice' },
      { key: BROKE_KEY, id: 'broke', balance: 0 },
    ],
    providers: [new OpenAIProvider({ baseUrl: `${upstream.origin}/v1`, apiKey: UPSTREAM_KEY, retries: { max: 0 } })],
    models: [
      { id: 'gpt-test', provider: 'openai', upstreamModel: 'up-ok' },
      { id: 'flaky', provider: 'openai', upstreamModel: 'up-broken', fallbacks: ['gpt-test'] },
      { id: 'embed-test', provider: 'openai', upstreamModel: 'up-embed', type: 'embedding' },
      { id: 'painter', provider: 'openai', upstreamModel: 'gpt-image-1', type: 'image' },
      {
        id: 'spread',
        deployments: [
          { name: 'east', provider: 'openai', upstreamModel: 'up-broken', priority: 0 },
          { name: 'west', provider: 'openai', upstreamModel: 'up-ok', priority: 1 },
        ],
      },
    ],
    observability: { traces: { captureContent } },
  };
}

beforeAll(async () => {
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  upstream = await startMockServer((body, request, response) => {
    seen.push(request.headers);
    const model = String(body.model);
    if (model === 'up-broken') {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'down', type: 'server_error' } }));
    } else if (request.url?.endsWith('/images/generations')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ created: 1, data: [{ b64_json: 'aGVsbG8=' }] }));
    } else if (request.url?.endsWith('/embeddings')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const data = (body.input as string[]).map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2] }));
      response.end(
        JSON.stringify({ object: 'list', data, model: 'up-embed', usage: { prompt_tokens: 5, total_tokens: 5 } }),
      );
    } else if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, usage?: object) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-stream-1', object: 'chat.completion.chunk', created: 1, model: `${model}-2026`, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
      response.write(chunk({ role: 'assistant', content: 'Hel' }, null));
      response.write(chunk({ content: 'lo' }, null));
      response.write(chunk({}, 'length'));
      response.end(`${chunk({}, null, { prompt_tokens: 9, completion_tokens: 3 })}data: [DONE]\n\n`);
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(chatAnswer(model)));
    }
  });
  gateway = await serveGateway(options(false));
  capturing = await serveGateway(options(true));
});

afterAll(async () => {
  await gateway.close();
  await capturing.close();
  await upstream.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

beforeEach(() => {
  exporter.reset();
  seen.length = 0;
});

async function post(target: RunningGateway, path: string, body: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
  await response.text();
  return response;
}

/** The spans once the call's span has ended (it ends after the answer is sent). */
async function spans(count: number): Promise<ReadableSpan[]> {
  for (let wait = 0; wait < 100 && exporter.getFinishedSpans().length < count; wait++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return exporter.getFinishedSpans();
}

function callSpan(all: ReadableSpan[]): ReadableSpan {
  return all.find((span) => span.kind !== SpanKind.CLIENT)!;
}

function attemptSpans(all: ReadableSpan[]): ReadableSpan[] {
  return all.filter((span) => span.kind === SpanKind.CLIENT);
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

function allText(all: ReadableSpan[]): string {
  return JSON.stringify(all.map((span) => [span.name, span.attributes]));
}

test('a streamed chat call: the call span and its CLIENT attempt with the conventions attributes', async () => {
  const response = await post(gateway, '/v1/chat/completions', {
    model: 'gpt-test',
    stream: true,
    messages: [{ role: 'user', content: 'Hi' }],
  });
  expect(response.status).toBe(200);
  const all = await spans(2);
  const call = callSpan(all);
  const [attempt] = attemptSpans(all);
  expect(call.name).toBe('chat gpt-test');
  expect(call.kind).toBe(SpanKind.SERVER);
  expect(call.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-test',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.stream': true,
    'gen_ai.response.id': 'chatcmpl-stream-1',
    'gen_ai.response.model': 'up-ok-2026',
    'gen_ai.response.finish_reasons': ['length'],
    'gen_ai.usage.input_tokens': 9,
    'gen_ai.usage.output_tokens': 3,
    'rosetta.key.id': 'alice',
    'rosetta.protocol': 'openai-chat',
    'rosetta.outcome': 'ok',
  });
  expect(call.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
  expect(call.attributes['rosetta.credits.charged']).toEqual(expect.any(Number));
  expect(attempt!.name).toBe('chat up-ok');
  expect(parentOf(attempt!)).toBe(call.spanContext().spanId);
  expect(attempt!.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'up-ok',
    'gen_ai.response.model': 'up-ok-2026',
    'gen_ai.response.finish_reasons': ['length'],
    'gen_ai.usage.output_tokens': 3,
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(upstream.origin).port),
  });
  expect(attempt!.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
  expect(attempt!.status.code).not.toBe(SpanStatusCode.ERROR);
  // No content without the opt-in, and never a key.
  expect(call.attributes['gen_ai.input.messages']).toBeUndefined();
  expect(allText(all)).not.toContain(KEY);
  expect(allText(all)).not.toContain(UPSTREAM_KEY);
});

test('a fallback: two attempt spans as siblings, the first failed with error.type', async () => {
  const response = await post(gateway, '/v1/chat/completions', {
    model: 'flaky',
    messages: [{ role: 'user', content: 'Hi' }],
  });
  expect(response.status).toBe(200);
  const all = await spans(3);
  const call = callSpan(all);
  const attempts = attemptSpans(all).sort(
    (a, b) => a.startTime[1] - b.startTime[1] + (a.startTime[0] - b.startTime[0]) * 1e9,
  );
  expect(attempts.map((span) => span.name)).toEqual(['chat up-broken', 'chat up-ok']);
  for (const attempt of attempts) expect(parentOf(attempt)).toBe(call.spanContext().spanId);
  expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
  expect(attempts[0]!.attributes['error.type']).toBe('upstream');
  expect(attempts[1]!.status.code).not.toBe(SpanStatusCode.ERROR);
  expect(attempts[1]!.attributes).toMatchObject({
    'gen_ai.response.id': 'chatcmpl-trace-1',
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.cache_read.input_tokens': 8,
    'gen_ai.usage.reasoning.output_tokens': 2,
    'rosetta.model': 'gpt-test',
  });
  expect(call.attributes).toMatchObject({
    'rosetta.attempts': 2,
    'rosetta.outcome': 'ok',
    'gen_ai.response.finish_reasons': ['stop'],
  });
});

test('a deployment retry: the failed deployment and the one that answered are sibling attempts', async () => {
  const response = await post(gateway, '/v1/chat/completions', {
    model: 'spread',
    messages: [{ role: 'user', content: 'Hi' }],
  });
  expect(response.status).toBe(200);
  const all = await spans(3);
  const call = callSpan(all);
  const attempts = attemptSpans(all);
  expect(attempts.map((span) => span.attributes['rosetta.deployment'])).toEqual(['east', 'west']);
  for (const attempt of attempts) expect(parentOf(attempt)).toBe(call.spanContext().spanId);
  expect(attempts.map((span) => span.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
  expect(call.attributes).toMatchObject({ 'rosetta.deployment': 'west', 'rosetta.attempts': 2 });
});

test('a refused call (401) gets a span with error.type and an error status', async () => {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-wrong-key-000000000' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  expect(response.status).toBe(401);
  const all = await spans(1);
  expect(all).toHaveLength(1);
  expect(all[0]!.status.code).toBe(SpanStatusCode.ERROR);
  expect(all[0]!.attributes).toMatchObject({ 'error.type': 'authentication', 'http.response.status_code': 401 });
  expect(allText(all)).not.toContain('sk-wrong-key');
});

test('refused calls (403 without credits, 400 for a bad body) get a span with error.type and no attempt', async () => {
  const broke = await post(
    gateway,
    '/v1/chat/completions',
    { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] },
    {
      authorization: `Bearer ${BROKE_KEY}`,
    },
  );
  expect(broke.status).toBe(403);
  let all = await spans(1);
  expect(all).toHaveLength(1);
  expect(all[0]!.name).toBe('chat gpt-test');
  expect(all[0]!.status.code).toBe(SpanStatusCode.ERROR);
  expect(all[0]!.attributes).toMatchObject({
    'error.type': 'insufficient_quota',
    'http.response.status_code': 403,
    'rosetta.key.id': 'broke',
    'rosetta.credits.charged': 0,
  });
  expect(allText(all)).not.toContain(BROKE_KEY);
  exporter.reset();
  const bad = await post(gateway, '/v1/chat/completions', { model: 'gpt-test' });
  expect(bad.status).toBe(400);
  all = await spans(1);
  expect(all).toHaveLength(1);
  expect(all[0]!.status.code).toBe(SpanStatusCode.ERROR);
  expect(all[0]!.attributes).toMatchObject({ 'error.type': 'invalid_request', 'http.response.status_code': 400 });
});

test('an embeddings call has its own operation name', async () => {
  const response = await post(gateway, '/v1/embeddings', { model: 'embed-test', input: ['a', 'b'] });
  expect(response.status).toBe(200);
  const all = await spans(2);
  const call = callSpan(all);
  expect(call.name).toBe('embeddings embed-test');
  expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.usage.input_tokens': 5 });
  expect(attemptSpans(all).map((span) => span.name)).toEqual(['embeddings up-embed']);
});

test('an image call is generate_content with gen_ai.output.type image', async () => {
  const response = await post(gateway, '/v1/images/generations', {
    model: 'painter',
    prompt: 'a cat',
    n: 1,
    size: '1024x1024',
  });
  expect(response.status).toBe(200);
  const all = await spans(2);
  const call = callSpan(all);
  expect(call.name).toBe('generate_content painter');
  expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'generate_content', 'gen_ai.output.type': 'image' });
  expect(attemptSpans(all).map((span) => span.name)).toEqual(['generate_content gpt-image-1']);
});

test('the caller trace is continued and traceparent reaches the upstream, child of the attempt span', async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const response = await post(
    gateway,
    '/v1/chat/completions',
    { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] },
    { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  );
  expect(response.status).toBe(200);
  const all = await spans(2);
  const call = callSpan(all);
  const [attempt] = attemptSpans(all);
  expect(call.spanContext().traceId).toBe(traceId);
  expect(parentOf(call)).toBe('00f067aa0ba902b7');
  expect(seen[0]!.traceparent).toBe(`00-${traceId}-${attempt!.spanContext().spanId}-01`);
});

test('content only with observability.traces.captureContent', async () => {
  await post(capturing, '/v1/chat/completions', {
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Secret plan' }],
  });
  const call = callSpan(await spans(2));
  expect(JSON.parse(String(call.attributes['gen_ai.input.messages']))).toEqual([
    { role: 'user', parts: [{ type: 'text', content: 'Secret plan' }] },
  ]);
  expect(JSON.parse(String(call.attributes['gen_ai.output.messages']))).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Hello there.' }], finish_reason: 'stop' },
  ]);
});

test('a captured stream records the text it relayed', async () => {
  await post(capturing, '/v1/chat/completions', {
    model: 'gpt-test',
    stream: true,
    messages: [{ role: 'user', content: 'Stream it' }],
  });
  const call = callSpan(await spans(2));
  expect(JSON.parse(String(call.attributes['gen_ai.output.messages']))).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Hello' }] },
  ]);
});
