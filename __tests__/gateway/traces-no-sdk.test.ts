/**
 * Traces without an SDK (docs/operations.md, *Traces*): the gateway adds no header of its own to the upstream
 * request, and with only a W3C propagator registered (no tracer provider) a caller's `traceparent` is passed through
 * unchanged, so the trace is not broken by a gateway that records nothing.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OpenAIProvider } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';

const KEY = 'sk-traces-nosdk-0123456789';
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
let upstream: MockServer;
let gateway: RunningGateway;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  upstream = await startMockServer((_body, request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'up',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      }),
    );
  });
  gateway = await serveGateway({
    keys: [{ key: KEY, id: 'alice' }],
    providers: [new OpenAIProvider({ baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-up-0000', retries: { max: 0 } })],
    models: [{ id: 'm', provider: 'openai', upstreamModel: 'up' }],
  });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
  propagation.disable();
});

async function call(headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  seen.length = 0;
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
  return seen[0]!;
}

test('no SDK, no propagator: the upstream gets no trace header', async () => {
  const headers = await call({ traceparent: TRACEPARENT });
  expect(headers.traceparent).toBeUndefined();
});

test('a propagator but no SDK: the caller traceparent passes through to the upstream unchanged', async () => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const headers = await call({ traceparent: TRACEPARENT, tracestate: 'vendor=1' });
  expect(headers.traceparent).toBe(TRACEPARENT);
  expect(headers.tracestate).toBe('vendor=1');
});
