/**
 * The Responses API over WebSocket (`gateway.attachWebSocket(server)`), as Codex uses it: one socket, many
 * `response.create` turns through different upstreams, each later turn naming the previous answer with
 * `previous_response_id` and sending only its new items (with `store: false`), the events those of the SSE stream,
 * each turn charged, recorded and rate-limited as an HTTP call; a bad key an HTTP 401 before the upgrade; a bad message
 * an `error` event, the socket still usable; a `generate: false` warm-up answered uncharged and continued.
 */
import WebSocket from 'ws';
import {
  AnthropicProvider,
  GeminiProvider,
  LocalProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type GatewayOptions,
  type UsageRecord,
} from '../../lib';
import { dataEvents, serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockToolLoop, type LoopProtocol, type MockToolLoop } from '../helpers/mock-tool-loop';

const KEY = 'sk-socket-caller-0123456789';
const LIMITED_KEY = 'sk-socket-limited-0123456789';
const STEPS = 2;
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];
const BALANCE = 100_000_000;
const TOOL = {
  type: 'function',
  name: 'add',
  description: 'Adds the next step.',
  parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
};

let upstream: MockToolLoop;
let running: RunningGateway;
let quota: MemoryQuotaStore;
const records: UsageRecord[] = [];

function options(origin: string): GatewayOptions {
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  quota = new MemoryQuotaStore({ balances: { caller: BALANCE, limited: BALANCE } });
  return {
    keyStore: new MemoryKeyStore([
      { key: KEY, id: 'caller' },
      { key: LIMITED_KEY, id: 'limited', rateLimits: { requestsPerMinute: 2 } },
    ]),
    quotaStore: quota,
    providers: [
      new OpenAIProvider({ name: 'chat', baseUrl: `${origin}/v1`, ...common }),
      new OpenAIProvider({ name: 'responses', baseUrl: `${origin}/v1`, responsesModels: ['loop'], ...common }),
      new AnthropicProvider({ name: 'anthropic', baseUrl: origin, ...common }),
      new GeminiProvider({ name: 'gemini', baseUrl: `${origin}/v1beta`, ...common }),
    ],
    models: UPSTREAMS.map((name) => ({
      id: `via-${name}`,
      provider: name,
      upstreamModel: 'loop',
      pricing: { input: 1, output: 8 },
    })),
    observability: { usageSink: { record: (record: UsageRecord) => void records.push(record) } },
  };
}

beforeAll(async () => {
  upstream = await startMockToolLoop(STEPS);
  running = await serveGateway(options(upstream.origin));
  running.gateway.attachWebSocket(running.server);
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});

/** A client socket that gathers every event it is sent. */
class Client {
  readonly events: Json[] = [];
  private waiters: Array<() => void> = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.events.push(JSON.parse(String(data)));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(key = KEY): Promise<Client> {
    const socket = new WebSocket(`${running.url.replace('http', 'ws')}/v1/responses`, {
      headers: { authorization: `Bearer ${key}`, 'openai-beta': 'responses_websockets=2026-02-06' },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new Client(socket);
  }

  /** Sends a message and returns the events up to the turn's last one (`response.completed`, `…failed`, `error`). */
  async turn(message: Json | string): Promise<Json[]> {
    const from = this.events.length;
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    for (;;) {
      const seen = this.events.slice(from);
      const last = seen.at(-1);
      if (last && ['response.completed', 'response.incomplete', 'response.failed', 'error'].includes(last.type))
        return seen;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no end of turn; saw ${JSON.stringify(seen)}`)), 5000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

function completed(events: Json[]): Json {
  const last = events.at(-1)!;
  expect(last.type).toBe('response.completed');
  return last.response;
}

function callOf(response: Json): Json {
  const call = response.output.find((item: Json) => item.type === 'function_call');
  expect(call).toBeDefined();
  return call;
}

function textOf(response: Json): string {
  return response.output
    .filter((item: Json) => item.type === 'message')
    .flatMap((item: Json) => item.content.map((part: Json) => part.text))
    .join('');
}

/** The events with what differs between two runs of one request (ids, times) blanked. */
function normalized(events: Json[]): string {
  return JSON.stringify(events)
    .replace(/"(id|item_id|call_id|created_at|completed_at|response_id)":"?[^",}]*"?/g, '"$1":"_"')
    .replace(/(resp|msg|fc|rs)_[A-Za-z0-9_-]+/g, '$1_');
}

const until = async (check: () => boolean) => {
  for (let tries = 0; !check() && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('Responses over WebSocket', () => {
  test('one socket, a tool loop across every upstream: each turn continues the last with only its new items', async () => {
    const client = await Client.open();
    const fromUpstream = upstream.requests.length;
    const fromRecords = records.length;
    const before = quota.getAccount('caller').balance;
    const base = { store: false, instructions: 'You add numbers.', tools: [TOOL], tool_choice: 'auto' };
    const first = completed(await client.turn({ type: 'response.create', model: 'via-chat', input: 'go', ...base }));
    let call = callOf(first);
    expect(JSON.parse(call.arguments)).toEqual({ step: 1 });
    const second = completed(
      await client.turn({
        type: 'response.create',
        model: 'via-anthropic',
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'r1-ws' }],
        ...base,
      }),
    );
    call = callOf(second);
    expect(JSON.parse(call.arguments)).toEqual({ step: 2 });
    const third = completed(
      await client.turn({
        type: 'response.create',
        model: 'via-gemini',
        previous_response_id: second.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'r2-ws' }],
        ...base,
      }),
    );
    expect(textOf(third)).toMatch(/^done: /);
    expect(textOf(third)).toContain('r1-ws');
    expect(textOf(third)).toContain('r2-ws');
    // A fourth turn, a new conversation on the same socket, through the Responses upstream.
    const fourth = completed(
      await client.turn({ type: 'response.create', model: 'via-responses', input: 'go', ...base }),
    );
    expect(JSON.parse(callOf(fourth).arguments)).toEqual({ step: 1 });
    client.close();

    // Every upstream got the whole conversation: the system text, the tool and each earlier result.
    const seen = upstream.requests.slice(fromUpstream);
    expect(seen.map((request) => request.protocol)).toEqual(['chat', 'anthropic', 'gemini', 'responses']);
    expect(seen.map((request) => request.results.length)).toEqual([0, 1, 2, 0]);
    for (const request of seen) {
      expect(request.system).toContain('You add numbers.');
      expect(request.toolNames).toEqual(['add']);
    }
    // Each turn charged and recorded as its own call.
    await until(() => records.length >= fromRecords + 4);
    const turns = records.slice(fromRecords);
    expect(turns.map((record) => record.model)).toEqual(['via-chat', 'via-anthropic', 'via-gemini', 'via-responses']);
    for (const record of turns) {
      expect(record.protocol).toBe('openai-responses');
      expect(record.credits?.charged).toBeGreaterThan(0);
    }
    const charged = turns.reduce((sum, record) => sum + (record.credits?.charged ?? 0), 0);
    expect(before - quota.getAccount('caller').balance).toBeCloseTo(charged, 6);
  });

  test('the events are those of the SSE stream of the same request', async () => {
    const body = { model: 'via-anthropic', input: 'go', tools: [TOOL], instructions: 'You add numbers.' };
    const http = await fetch(`${running.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(http.status).toBe(200);
    const sse = dataEvents(await http.text());
    const client = await Client.open();
    const socket = await client.turn({ type: 'response.create', ...body });
    client.close();
    expect(socket.map((event) => event.type)).toEqual(sse.map((event) => event.type));
    expect(normalized(socket)).toBe(normalized(sse));
  });

  test('a bad key is an HTTP 401 before the upgrade, in the Responses envelope, the key never echoed', async () => {
    const bad = 'sk-not-a-key-987654321';
    const socket = new WebSocket(`${running.url.replace('http', 'ws')}/v1/responses`, {
      headers: { authorization: `Bearer ${bad}` },
    });
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      socket.once('open', () => reject(new Error('upgraded with a bad key')));
      socket.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
    });
    socket.on('error', () => undefined);
    socket.terminate();
    expect(status).toBe(401);
    const error = JSON.parse(body).error;
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(body).not.toContain(bad);
  });

  test('each turn is rate-limited as an HTTP call: past the limit, an error event with the 429 and Retry-After', async () => {
    const client = await Client.open(LIMITED_KEY);
    const turn = { type: 'response.create', model: 'via-chat', input: 'go', tools: [TOOL], store: false };
    completed(await client.turn(turn));
    completed(await client.turn(turn));
    const refused = (await client.turn(turn)).at(-1)!;
    client.close();
    expect(refused).toMatchObject({ type: 'error', status: 429, error: { type: expect.any(String) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('bad messages are error events and the socket goes on', async () => {
    const client = await Client.open();
    const bad = [
      'not json',
      JSON.stringify({ hello: 1 }),
      JSON.stringify({ type: 'response.cancel' }),
      JSON.stringify({ type: 'response.create', model: 'via-chat' }),
      JSON.stringify({ type: 'response.create', model: 'no-such-model', input: 'go' }),
      JSON.stringify({ type: 'response.create', model: 'no-such-model', input: 'go', generate: false }),
      JSON.stringify({ type: 'response.create', model: 'via-chat', input: 'go', previous_response_id: 'resp_unknown' }),
    ];
    for (const message of bad) {
      const events = await client.turn(message);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'error',
        status: expect.any(Number),
        error: { message: expect.any(String) },
      });
    }
    expect(client.events.at(-1)!.error.code).toBe('previous_response_not_found');
    completed(await client.turn({ type: 'response.create', model: 'via-chat', input: 'go', tools: [TOOL] }));
    client.close();
  });

  test('a generate:false warm-up is answered uncharged, and the next turn continues it with no new input', async () => {
    const client = await Client.open();
    const fromUpstream = upstream.requests.length;
    const fromRecords = records.length;
    const before = quota.getAccount('caller').balance;
    const body = { model: 'via-gemini', instructions: 'You add numbers.', tools: [TOOL], store: false };
    const warm = completed(await client.turn({ type: 'response.create', generate: false, input: 'go', ...body }));
    expect(warm.output).toEqual([]);
    expect(upstream.requests.length).toBe(fromUpstream);
    expect(quota.getAccount('caller').balance).toBe(before);
    const real = completed(
      await client.turn({ type: 'response.create', previous_response_id: warm.id, input: [], ...body }),
    );
    client.close();
    expect(JSON.parse(callOf(real).arguments)).toEqual({ step: 1 });
    expect(upstream.requests.length).toBe(fromUpstream + 1);
    await until(() => records.length >= fromRecords + 1);
    expect(records.length).toBe(fromRecords + 1);
  });

  test('a socket closed mid-turn cancels the call: settled for what was produced, the hold given back, recorded', async () => {
    const slowQuota = new MemoryQuotaStore({ balances: { caller: BALANCE } });
    const slowRecords: UsageRecord[] = [];
    const slow = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      quotaStore: slowQuota,
      providers: [new LocalProvider({ tokenDelayMs: 20 })],
      models: [{ id: 'rosetta-echo', provider: 'local', pricing: { input: 1, output: 8 } }],
      observability: { usageSink: { record: (record: UsageRecord) => void slowRecords.push(record) } },
    });
    slow.gateway.attachWebSocket(slow.server);
    try {
      const socket = new WebSocket(`${slow.url.replace('http', 'ws')}/v1/responses`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      await new Promise((resolve) => socket.once('open', resolve));
      const words = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
      const deltas: Json[] = [];
      const firstDelta = new Promise<void>((resolve) =>
        socket.on('message', (data) => {
          const event = JSON.parse(String(data));
          if (event.type === 'response.output_text.delta') {
            deltas.push(event);
            resolve();
          }
        }),
      );
      socket.send(JSON.stringify({ type: 'response.create', model: 'rosetta-echo', input: words }));
      await firstDelta;
      socket.close();
      await until(() => slowRecords.length > 0);
      const [record] = slowRecords;
      expect(record).toMatchObject({ outcome: 'cancelled', model: 'rosetta-echo' });
      // Cut short: far fewer tokens than the 200-word echo, charged for what was produced, nothing left held.
      expect(record!.usage!.outputTokens).toBeGreaterThan(0);
      expect(record!.usage!.outputTokens).toBeLessThan(100);
      const account = slowQuota.getAccount('caller');
      expect(account.reserved).toBe(0);
      expect(BALANCE - account.balance).toBeCloseTo(record!.credits.charged, 6);
      expect(record!.credits.charged).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });

  test('a continued conversation is bounded as a POST body is: past maxBodyBytes, a 413 error event', async () => {
    const small = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [new LocalProvider()],
      models: [{ id: 'rosetta-echo', provider: 'local' }],
      limits: { maxBodyBytes: 4096 },
    });
    small.gateway.attachWebSocket(small.server);
    const socket = new WebSocket(`${small.url.replace('http', 'ws')}/v1/responses`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    await new Promise((resolve) => socket.once('open', resolve));
    const client = new Client(socket);
    try {
      const words = Array.from({ length: 700 }, (_, index) => `w${index}`).join(' ');
      const first = completed(await client.turn({ type: 'response.create', model: 'rosetta-echo', input: words }));
      const refused = (
        await client.turn({
          type: 'response.create',
          model: 'rosetta-echo',
          previous_response_id: first.id,
          input: 'more',
        })
      ).at(-1)!;
      expect(refused).toMatchObject({ type: 'error', status: 413, error: { param: 'previous_response_id' } });
      completed(await client.turn({ type: 'response.create', model: 'rosetta-echo', input: 'a new conversation' }));
    } finally {
      client.close();
      await small.close();
    }
  });

  test('a gateway mounted at /ai: the socket at /ai/v1/responses; another path is a 404; close() closes the sockets', async () => {
    const mounted = await serveGateway(
      {
        keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
        providers: [new LocalProvider()],
        models: [{ id: 'rosetta-echo', provider: 'local' }],
      },
      '/ai',
    );
    mounted.gateway.attachWebSocket(mounted.server, { mountPath: '/ai' });
    const base = mounted.url.replace('http', 'ws');
    const statusOf = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(url, { headers: { authorization: `Bearer ${KEY}` } });
        socket.on('error', () => undefined);
        socket.once('open', () => reject(new Error(`upgraded at ${url}`)));
        socket.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          socket.terminate();
        });
      });
    try {
      expect(await statusOf(`${base}/v1/responses`)).toBe(404);
      expect(await statusOf(`${base}/ai/v1/chat/completions`)).toBe(404);
      const socket = new WebSocket(`${base}/ai/v1/responses?client=test`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      await new Promise((resolve) => socket.once('open', resolve));
      const client = new Client(socket);
      expect(
        textOf(completed(await client.turn({ type: 'response.create', model: 'rosetta-echo', input: 'hi' }))),
      ).toBe('hi');
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      await mounted.gateway.close();
      expect(await closed).toBe(1001);
    } finally {
      await mounted.close();
    }
  });
});
