/**
 * Anthropic message threads (beta `message-threads-2026-08-12`) on every upstream, judged by the Anthropic SDK's own
 * thread helper and tool runner (plain and streamed): turn 1 creates the thread with the whole conversation, later
 * turns send only their new messages with `thread: continue` and no `system` or `tools`, and the gateway rebuilds the
 * whole request, so every upstream receives the system prompt, the tools and every earlier tool result, and the
 * caller's usage is the full prompt's. Without a thread store a `thread` is the 400 the SDK knows
 * (`thread_unsupported_request`): its tool runner then sends the whole history itself, its thread helper throws.
 */
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import {
  AnthropicProvider,
  GeminiProvider,
  MemoryKeyStore,
  MemoryThreadStore,
  OpenAIProvider,
  type GatewayOptions,
} from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { inputTokensFor, startMockToolLoop, type LoopProtocol, type MockToolLoop } from '../helpers/mock-tool-loop';

const KEY = 'sk-thread-caller-0123456789';
const OTHER_KEY = 'sk-thread-other-0123456789';
const STEPS = 5;
const SYSTEM = 'You add numbers for the thread test.';
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];

let upstream: MockToolLoop;
let threaded: RunningGateway;
let unthreaded: RunningGateway;

function options(upstreamOrigin: string, extra: Partial<GatewayOptions>): GatewayOptions {
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  return {
    keyStore: new MemoryKeyStore([
      { key: KEY, id: 'caller' },
      { key: OTHER_KEY, id: 'other' },
    ]),
    providers: [
      new OpenAIProvider({ name: 'chat', baseUrl: `${upstreamOrigin}/v1`, ...common }),
      new OpenAIProvider({ name: 'responses', baseUrl: `${upstreamOrigin}/v1`, responsesModels: ['loop'], ...common }),
      new AnthropicProvider({ name: 'anthropic', baseUrl: upstreamOrigin, ...common }),
      new GeminiProvider({ name: 'gemini', baseUrl: `${upstreamOrigin}/v1beta`, ...common }),
    ],
    models: UPSTREAMS.map((name) => ({ id: `via-${name}`, provider: name, upstreamModel: 'loop' })),
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await startMockToolLoop(STEPS);
  threaded = await serveGateway(options(upstream.origin, { stores: { threads: new MemoryThreadStore() } }));
  unthreaded = await serveGateway(options(upstream.origin, {}));
});
afterAll(async () => {
  await threaded.close();
  await unthreaded.close();
  await upstream.close();
});

/** An SDK client of `gateway` that also records the bodies it sends. */
function client(gateway: RunningGateway, key = KEY): { anthropic: Anthropic; sent: Array<Record<string, any>> } {
  const sent: Array<Record<string, any>> = [];
  const recording: typeof fetch = (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  return { anthropic: new Anthropic({ baseURL: gateway.url, apiKey: key, fetch: recording, maxRetries: 0 }), sent };
}

/** A token per run, so each tool result is told apart from another run's. */
function runTag(): string {
  return Math.random().toString(36).slice(2, 8);
}

function addTool(tag: string, ran: number[]) {
  return betaTool({
    name: 'add',
    description: 'Adds the next step.',
    inputSchema: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
    run: ({ step }) => {
      ran.push(step);
      return `r${step}-${tag}`;
    },
  });
}

const TOOL_PARAM = {
  name: 'add',
  description: 'Adds the next step.',
  input_schema: { type: 'object' as const, properties: { step: { type: 'number' } }, required: ['step'] },
};

function expected(tag: string): string {
  return `done: ${Array.from({ length: STEPS }, (_, index) => `r${index + 1}-${tag}`).join(' ')}`;
}

function textOf(message: Anthropic.Beta.BetaMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The upstream requests of one run (those after `from`): each saw the system, the tool and every earlier result. */
function checkUpstream(from: number, protocol: LoopProtocol, tag: string): void {
  const seen = upstream.requests.slice(from);
  expect(seen).toHaveLength(STEPS + 1);
  seen.forEach((request, turn) => {
    expect(request.protocol).toBe(protocol);
    expect(request.system).toContain(SYSTEM);
    expect(request.toolNames).toEqual(['add']);
    expect(request.results).toHaveLength(turn);
    for (const [index, result] of request.results.entries()) expect(result).toContain(`r${index + 1}-${tag}`);
  });
}

/** The SDK threaded every turn: a create, then continues naming the previous answer, without system or tools. */
function checkThreaded(sent: Array<Record<string, any>>): void {
  expect(sent).toHaveLength(STEPS + 1);
  expect(sent[0]!.thread).toEqual({ type: 'create' });
  for (const body of sent.slice(1)) {
    expect(body.thread).toMatchObject({ type: 'continue', previous_message_id: expect.stringMatching(/^msg_/) });
    expect(body.system).toBeUndefined();
    expect(body.tools).toBeUndefined();
    expect(body.messages).toHaveLength(1);
  }
}

describe.each(UPSTREAMS)('through the %s upstream', (protocol) => {
  const model = `via-${protocol}`;

  it(`the SDK's thread helper runs ${STEPS + 1} turns; the upstream sees the whole conversation every turn`, async () => {
    const { anthropic, sent } = client(threaded);
    const tag = runTag();
    const from = upstream.requests.length;
    const thread = anthropic.beta.messages.thread({ model, max_tokens: 256, system: SYSTEM, tools: [TOOL_PARAM] });
    let reply = await thread.send({ role: 'user', content: 'Add the steps.' });
    const inputs = [reply.usage.input_tokens];
    while (reply.stop_reason === 'tool_use') {
      const use = reply.content.find((block) => block.type === 'tool_use')!;
      const step = (use.input as { step: number }).step;
      reply = await thread.send({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use.id, content: `r${step}-${tag}` }],
      });
      inputs.push(reply.usage.input_tokens);
    }
    expect(textOf(reply)).toBe(expected(tag));
    checkThreaded(sent);
    checkUpstream(from, protocol, tag);
    // The caller's usage (and charge) is the full prompt's the upstream reported, turn by turn.
    expect(inputs).toEqual(Array.from({ length: STEPS + 1 }, (_, turn) => inputTokensFor(turn)));
  });

  it.each([false, true])('the SDK tool runner (stream: %s) finishes the loop over a thread', async (stream) => {
    const { anthropic, sent } = client(threaded);
    const tag = runTag();
    const ran: number[] = [];
    const from = upstream.requests.length;
    const runner = anthropic.beta.messages.toolRunner({
      model,
      max_tokens: 256,
      system: SYSTEM,
      messages: [{ role: 'user', content: 'Add the steps.' }],
      tools: [addTool(tag, ran)],
      ...(stream ? { stream: true as const } : {}),
    });
    const final = await runner.runUntilDone();
    expect(ran).toEqual([1, 2, 3, 4, 5]);
    expect(textOf(final)).toBe(expected(tag));
    checkThreaded(sent);
    checkUpstream(from, protocol, tag);
  });

  it('without a thread store the tool runner gets the 400 it knows and sends the whole history itself', async () => {
    const { anthropic, sent } = client(unthreaded);
    const tag = runTag();
    const ran: number[] = [];
    const from = upstream.requests.length;
    const final = await anthropic.beta.messages
      .toolRunner({
        model,
        max_tokens: 256,
        system: SYSTEM,
        messages: [{ role: 'user', content: 'Add the steps.' }],
        tools: [addTool(tag, ran)],
      })
      .runUntilDone();
    expect(textOf(final)).toBe(expected(tag));
    // The refused create, then every turn unthreaded with the full history.
    expect(sent[0]!.thread).toEqual({ type: 'create' });
    expect(sent.slice(1).every((body) => body.thread === undefined && body.system !== undefined)).toBe(true);
    checkUpstream(from, protocol, tag);
  });
});

describe('refusals, in the SDK error classes', () => {
  it("without a thread store the thread helper's first turn is a ThreadUnsupportedRequestError", async () => {
    const { anthropic } = client(unthreaded);
    const thread = anthropic.beta.messages.thread({ model: 'via-chat', max_tokens: 64, system: SYSTEM });
    const error = await thread.send({ role: 'user', content: 'hi' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.ThreadUnsupportedRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
  });

  it('a continue of an unknown id, or of another key’s answer, is a ThreadNotFoundError (404)', async () => {
    const { anthropic } = client(threaded);
    const first = await anthropic.beta.messages.create({
      model: 'via-chat',
      max_tokens: 64,
      system: SYSTEM,
      messages: [{ role: 'user', content: 'hi' }],
      thread: { type: 'create' },
      betas: ['message-threads-2026-08-12'],
    });
    const other = client(threaded, OTHER_KEY).anthropic;
    for (const [caller, id] of [
      [anthropic, 'msg_unknown'],
      [other, first.id],
    ] as const) {
      const error = await caller.beta.messages
        .create({
          model: 'via-chat',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'again' }],
          thread: { type: 'continue', previous_message_id: id },
          betas: ['message-threads-2026-08-12'],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.ThreadNotFoundError);
    }
  });

  it('a continue that changes system is a ThreadFingerprintMismatchError; repeating it unchanged is served', async () => {
    const { anthropic } = client(threaded);
    const create = {
      model: 'via-gemini',
      max_tokens: 64,
      system: SYSTEM,
      betas: ['message-threads-2026-08-12' as const],
    };
    const first = await anthropic.beta.messages.create({
      ...create,
      messages: [{ role: 'user', content: 'hi' }],
      thread: { type: 'create' },
    });
    const continued = (system: string) =>
      anthropic.beta.messages.create({
        ...create,
        system,
        messages: [{ role: 'user', content: 'more' }],
        thread: { type: 'continue', previous_message_id: first.id },
      });
    const error = await continued('Another system.').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.ThreadFingerprintMismatchError);
    const from = upstream.requests.length;
    await continued(SYSTEM);
    // The system was sent once, not twice.
    expect(upstream.requests[from]!.body.systemInstruction.parts).toHaveLength(1);
  });

  it('a continue may move to another upstream (another model, a fallback): the rebuilt request goes there whole', async () => {
    const { anthropic } = client(threaded);
    const first = await anthropic.beta.messages.create({
      model: 'via-anthropic',
      max_tokens: 64,
      system: SYSTEM,
      tools: [TOOL_PARAM],
      messages: [{ role: 'user', content: 'Add the steps.' }],
      thread: { type: 'create' },
      betas: ['message-threads-2026-08-12'],
    });
    const use = first.content.find((block) => block.type === 'tool_use')!;
    const from = upstream.requests.length;
    await anthropic.beta.messages.create({
      model: 'via-responses',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'r1-moved' }] }],
      thread: { type: 'continue', previous_message_id: first.id },
      betas: ['message-threads-2026-08-12'],
    });
    const moved = upstream.requests[from]!;
    expect(moved.protocol).toBe('responses');
    expect(moved.system).toContain(SYSTEM);
    expect(moved.toolNames).toEqual(['add']);
    expect(moved.results).toEqual([expect.stringContaining('r1-moved')]);
    // No upstream is sent the thread or its beta.
    expect(upstream.requests.every((request) => request.body.thread === undefined)).toBe(true);
  });

  it('a tool_result that answers no tool_use in the conversation is a 400, as Anthropic answers it', async () => {
    const { anthropic } = client(unthreaded);
    const from = upstream.requests.length;
    const error = await anthropic.messages
      .create({
        model: 'via-gemini',
        max_tokens: 64,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_orphan', content: 'x' }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).message).toContain('toolu_orphan');
    expect(upstream.requests).toHaveLength(from);
  });
});

describe('an unfinished turn (pause_turn) resumed on a thread', () => {
  /**
   * A threaded gateway (model `paused`) over an Anthropic upstream whose first answer is `pause_turn` with `paused`
   * blocks, and every later one `end_turn` with "Found it."; `received` holds the bodies the upstream got.
   */
  async function pausingUpstream(paused: Array<Record<string, unknown>>) {
    const express = (await import('express')).default;
    const { listen } = await import('../helpers/app');
    const received: Array<Record<string, any>> = [];
    const app = express();
    app.use(express.json());
    app.post('/v1/messages', (request, response) => {
      received.push(request.body);
      const first = received.length === 1;
      response.json({
        id: `msg_pause_${received.length}`,
        type: 'message',
        role: 'assistant',
        model: 'loop',
        content: first ? paused : [{ type: 'text', text: 'Found it.' }],
        stop_reason: first ? 'pause_turn' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 4 },
      });
    });
    const mock = await listen(app);
    const gateway = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [new AnthropicProvider({ name: 'anthropic', baseUrl: mock.url, apiKey: 'sk-upstream-0000' })],
      models: [{ id: 'paused', provider: 'anthropic', upstreamModel: 'loop' }],
      stores: { threads: new MemoryThreadStore() },
    });
    const close = async () => {
      await gateway.close();
      await mock.close();
    };
    return { gateway, received, close };
  }

  it('the SDK continues with messages: [] and the upstream goes on from the stored answer', async () => {
    const { gateway, received, close } = await pausingUpstream([{ type: 'text', text: 'Searching the web…' }]);
    try {
      const { anthropic, sent } = client(gateway);
      const thread = anthropic.beta.messages.thread({ model: 'paused', max_tokens: 64, system: SYSTEM });
      const first = await thread.send({ role: 'user', content: 'Look it up.' });
      expect(first.stop_reason).toBe('pause_turn');
      const resumed = await thread.send();
      expect(resumed.stop_reason).toBe('end_turn');
      // The SDK sent a continue with no new message; the upstream got the whole conversation, ending in the paused answer.
      expect(sent[1]).toMatchObject({ messages: [], thread: { type: 'continue', previous_message_id: first.id } });
      expect(received[1]!.system).toEqual(SYSTEM);
      expect(received[1]!.messages).toEqual([
        { role: 'user', content: 'Look it up.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Searching the web…' }] },
      ]);
      // Without a thread, an empty conversation is still a 400.
      const error = await anthropic.messages
        .create({ model: 'paused', max_tokens: 64, messages: [] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    } finally {
      await close();
    }
  });

  it('a pause inside a server tool: the stored answer sends its server_tool_use back in place', async () => {
    const search = {
      type: 'server_tool_use',
      id: 'srvtoolu_paused',
      name: 'web_search',
      input: { query: 'thread pause' },
      caller: { type: 'direct' },
    };
    const { gateway, received, close } = await pausingUpstream([{ type: 'text', text: 'Searching the web…' }, search]);
    try {
      const { anthropic } = client(gateway);
      const thread = anthropic.beta.messages.thread({
        model: 'paused',
        max_tokens: 64,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      });
      const first = await thread.send({ role: 'user', content: 'Look it up.' });
      expect(first.stop_reason).toBe('pause_turn');
      expect(first.content).toEqual([{ type: 'text', text: 'Searching the web…', citations: [] }, search]);
      const resumed = await thread.send();
      expect(resumed.stop_reason).toBe('end_turn');
      expect(received[1]!.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
      expect(received[1]!.messages.at(-1)).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: 'Searching the web…' }, search],
      });
    } finally {
      await close();
    }
  });
});
