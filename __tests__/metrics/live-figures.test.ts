/**
 * The figures no usage record carries, through real gateways: open streams and calls in flight, and upstream retries.
 */
import express from 'express';
import type { ProviderStreamPart } from '../../lib/canonical';
import { createGateway, type Gateway, OpenAIProvider, type Provider } from '../../lib';
import { listen, type RunningServer, TEST_KEY, testOptions } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';
import { sampleValue } from '../helpers/prometheus';
import { upstreamRetries } from '../../lib/upstream/retry-channel';

interface Served {
  gateway: Gateway;
  server: RunningServer;
}
const running: Served[] = [];
/** A gateway on loopback, with `gateway.metrics` at /metrics. */
async function serve(options: Parameters<typeof testOptions>[0]): Promise<Served> {
  const app = express();
  const gateway = createGateway(testOptions(options));
  app.get('/metrics', gateway.metrics);
  app.use(gateway);
  const served = { gateway, server: await listen(app) };
  running.push(served);
  return served;
}
afterEach(async () => {
  for (const { server, gateway } of running.splice(0)) {
    await server.close();
    await gateway.close();
  }
});

async function figure(served: Served, name: string, labels?: Record<string, string>): Promise<number | undefined> {
  const response = await fetch(`${served.server.url}/metrics`);
  return sampleValue(await response.text(), name, labels);
}

/** Scrapes until the figure is `expected` (a cut stream is settled a few ticks after the client leaves). */
async function waitFor(served: Served, name: string, expected: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await figure(served, name)) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(await figure(served, name)).toBe(expected);
}

/** A provider whose stream sends some words, then waits until `finish()` is called or the call is cancelled. */
function pausingProvider(): { provider: Provider; finish: () => void } {
  let finish: () => void = () => undefined;
  const provider: Provider = {
    specificationVersion: 'v1',
    name: 'pausing',
    async *stream(_request, context): AsyncGenerator<ProviderStreamPart> {
      yield { type: 'response-start', id: 'r1', model: 'pausing-1', created: 1 };
      yield { type: 'text-start', id: '0' };
      yield { type: 'text-delta', id: '0', delta: 'first words' };
      await new Promise<void>((resolve) => {
        finish = resolve;
        context.signal.addEventListener('abort', () => resolve());
      });
      if (context.signal.aborted) return;
      yield { type: 'text-end', id: '0' };
      yield { type: 'finish', usage: { inputTokens: 5, outputTokens: 2 }, finishReason: { unified: 'stop' } };
    },
  };
  return { provider, finish: () => finish() };
}

function startStream(served: Served, signal?: AbortSignal): Promise<Response> {
  return fetch(`${served.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'pausing-1', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    signal,
  });
}

describe('open streams', () => {
  it('go up while a stream is written, and back down after the client cuts it or it ends', async () => {
    const pausing = pausingProvider();
    const options = { providers: [pausing.provider], models: [{ id: 'pausing-1', provider: 'pausing' }] };
    const served = await serve(options);
    const other = await serve(options);
    expect(await figure(served, 'rosetta_open_streams')).toBe(0);

    const client = new AbortController();
    const response = await startStream(served, client.signal);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('first words');
    expect(await figure(served, 'rosetta_open_streams')).toBe(1);
    expect(await figure(served, 'rosetta_calls_in_flight')).toBe(1);
    // Another gateway in the process counts its own.
    expect(await figure(other, 'rosetta_open_streams')).toBe(0);

    client.abort();
    await reader.closed.catch(() => undefined);
    await waitFor(served, 'rosetta_open_streams', 0);
    await waitFor(served, 'rosetta_calls_in_flight', 0);

    const finished = await startStream(served);
    const finishedReader = finished.body!.getReader();
    await finishedReader.read();
    expect(await figure(served, 'rosetta_open_streams')).toBe(1);
    pausing.finish();
    while (!(await finishedReader.read()).done);
    await waitFor(served, 'rosetta_open_streams', 0);
  });
});

describe('upstream retries', () => {
  let upstream: MockServer;
  let requests = 0;
  beforeEach(async () => {
    requests = 0;
    upstream = await startMockServer((_body, _request, response) => {
      requests++;
      if (requests === 1) {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'Busy.', type: 'server_error' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        }),
      );
    });
  });
  afterEach(() => upstream.close());

  it('are counted by provider and failure kind, by the gateway whose call it was', async () => {
    const options = () => ({
      providers: [
        new OpenAIProvider({ apiKey: 'sk-upstream', baseUrl: `${upstream.origin}/v1`, retries: { baseDelayMs: 1 } }),
      ],
      models: [{ id: 'gpt-4o-mini', provider: 'openai' }],
    });
    const served = await serve(options());
    const other = await serve(options());
    const response = await fetch(`${served.server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(requests).toBe(2);
    const retried = { provider: 'openai', kind: 'overloaded' };
    expect(await figure(served, 'rosetta_upstream_retries_total', retried)).toBe(1);
    expect(await figure(other, 'rosetta_upstream_retries_total', retried)).toBeUndefined();
  });
});

describe('close()', () => {
  it("stops the gateway's metrics listening for retries, so a closed gateway is not kept alive by the channel", async () => {
    // The channel is the process's own (other test files' gateways may listen too): watch this gateway's listener.
    const subscribe = jest.spyOn(upstreamRetries, 'subscribe').mockImplementation(() => undefined);
    const unsubscribe = jest.spyOn(upstreamRetries, 'unsubscribe').mockImplementation(() => true);
    try {
      const gateway = createGateway(testOptions({ metrics: true }));
      expect(subscribe).toHaveBeenCalledTimes(1);
      const listener = subscribe.mock.calls[0]![0];
      expect(unsubscribe).not.toHaveBeenCalled();
      await gateway.close();
      expect(unsubscribe).toHaveBeenCalledWith(listener);
    } finally {
      subscribe.mockRestore();
      unsubscribe.mockRestore();
    }
  });
});
