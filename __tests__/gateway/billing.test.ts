/**
 * A bill that matches the upstream's (issue 22 part 4): each upstream's cache figures are charged at
 * their own prices (the vendor's ratios to the input price, or a model's override), streamed and not;
 * reasoning is charged once, as output; and a hold is never below the charge, even when the whole
 * input is written to a 1-hour cache at twice the input price.
 */
import type http from 'node:http';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-billing-caller-key-1';
const UPSTREAM_KEY = 'sk-billing-upstream-key-1';

/** A Claude Code turn: a little new input, a long cached prefix, a cache write of 2,000 (5 min) + 1,000 (1 h). */
const CLAUDE_USAGE = {
  input_tokens: 12,
  cache_read_input_tokens: 90_000,
  cache_creation_input_tokens: 3_000,
  cache_creation: { ephemeral_5m_input_tokens: 2_000, ephemeral_1h_input_tokens: 1_000 },
  output_tokens: 400,
};
/** At input 3 and output 15: 12 × 3 + 90,000 × 0.3 + 2,000 × 3.75 + 1,000 × 6 + 400 × 15. */
const CLAUDE_CHARGE = 36 + 27_000 + 7_500 + 6_000 + 6_000;

/** OpenAI: 10,000 prompt tokens of which 8,000 cached; 500 completion tokens of which 300 reasoning. */
const OPENAI_USAGE = {
  prompt_tokens: 10_000,
  completion_tokens: 500,
  total_tokens: 10_500,
  prompt_tokens_details: { cached_tokens: 8_000 },
  completion_tokens_details: { reasoning_tokens: 300 },
};
/** gpt-5-mini at input 1, output 8 (cached at 0.1×): 2,000 + 8,000 × 0.1 + 500 × 8; the reasoning is in the 500. */
const OPENAI_CHARGE = 2_000 + 800 + 4_000;

/** Gemini: 20,000 prompt tokens of which 15,000 cached; 200 candidate and 300 thought tokens. */
const GEMINI_USAGE = {
  promptTokenCount: 20_000,
  cachedContentTokenCount: 15_000,
  candidatesTokenCount: 200,
  thoughtsTokenCount: 300,
  totalTokenCount: 20_500,
};
/** gemini-2.5-flash at input 1, output 4 (cached at 0.1×): 5,000 + 15,000 × 0.1 + (200 + 300) × 4. */
const GEMINI_CHARGE = 5_000 + 1_500 + 2_000;

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** The user text of an Anthropic body's last turn. */
function lastUserText(body: Record<string, unknown>): string {
  const messages = body.messages as { content: string | { type: string; text?: string }[] }[];
  const content = messages[messages.length - 1]!.content;
  return typeof content === 'string' ? content : content.map((block) => block.text ?? '').join('');
}

/**
 * Anthropic usage for an upstream model: `claude-turn` reports {@link CLAUDE_USAGE}; `all-written-1h`
 * reports the last user text's every byte as a token written to the 1-hour cache (the most the
 * hold's bound allows), and 5 output tokens.
 */
function anthropicUsage(model: string, body: Record<string, unknown>) {
  if (model !== 'all-written-1h') return CLAUDE_USAGE;
  const written = Buffer.byteLength(lastUserText(body));
  return {
    input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: written,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: written },
    output_tokens: 5,
  };
}

function anthropic(body: Record<string, unknown>, response: http.ServerResponse): void {
  const model = String(body.model);
  const usage = anthropicUsage(model, body);
  const message = { id: 'msg_bill', type: 'message', role: 'assistant', model, stop_sequence: null };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ ...message, content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage }),
    );
    return;
  }
  const { output_tokens, ...input } = usage;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(
    [
      sse(
        {
          type: 'message_start',
          message: { ...message, content: [], stop_reason: null, usage: { ...input, output_tokens: 1 } },
        },
        'message_start',
      ),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens } },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ].join(''),
  );
}

function openai(body: Record<string, unknown>, response: http.ServerResponse): void {
  const base = { id: 'chatcmpl-bill', created: 1, model: String(body.model) };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
        usage: OPENAI_USAGE,
      }),
    );
    return;
  }
  const chunk = { ...base, object: 'chat.completion.chunk' };
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(
    [
      sse({ ...chunk, choices: [{ index: 0, delta: { role: 'assistant', content: 'Done.' }, finish_reason: null }] }),
      sse({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      sse({ ...chunk, choices: [], usage: OPENAI_USAGE }),
      'data: [DONE]\n\n',
    ].join(''),
  );
}

function gemini(request: http.IncomingMessage, response: http.ServerResponse): void {
  const candidate = { content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP', index: 0 };
  const answer = { candidates: [candidate], usageMetadata: GEMINI_USAGE, modelVersion: 'gemini-2.5-flash' };
  if (request.url?.includes(':streamGenerateContent')) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(sse(answer));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answer));
}

let upstream: MockServer;
let gateway: RunningGateway;
let quotaStore: RecordingQuotaStore;

beforeAll(async () => {
  upstream = await startMockServer((body, request, response) => {
    const url = request.url ?? '';
    if (url.startsWith('/v1/messages')) anthropic(body, response);
    else if (url.startsWith('/v1/chat/completions')) openai(body, response);
    else if (url.startsWith('/v1beta/models/')) gemini(request, response);
    else response.writeHead(404).end();
  });
  quotaStore = new RecordingQuotaStore({ balances: { k: 100_000_000 } });
  const models: ModelConfig[] = [
    { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-turn', pricing: { input: 3, output: 15 } },
    {
      id: 'claude-own-read-price',
      provider: 'anthropic',
      upstreamModel: 'claude-turn',
      pricing: { input: 3, output: 15, cacheRead: 1 },
    },
    {
      id: 'claude-writes',
      provider: 'anthropic',
      upstreamModel: 'all-written-1h',
      maxOutputTokens: 10,
      pricing: { input: 3, output: 15 },
    },
    { id: 'gpt', provider: 'openai', upstreamModel: 'gpt-5-mini', pricing: { input: 1, output: 8 } },
    { id: 'flash', provider: 'gemini', upstreamModel: 'gemini-2.5-flash', pricing: { input: 1, output: 4 } },
  ];
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'k' }]),
    quotaStore,
    providers: [
      new AnthropicProvider({ baseUrl: upstream.origin, apiKey: UPSTREAM_KEY }),
      new OpenAIProvider({ baseUrl: `${upstream.origin}/v1`, apiKey: UPSTREAM_KEY }),
      new GeminiProvider({ baseUrl: `${upstream.origin}/v1beta`, apiKey: UPSTREAM_KEY }),
    ],
    models,
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

type Inbound = 'anthropic-messages' | 'openai-chat' | 'gemini';

/** One call in the caller protocol `inbound`; the whole body read (a stream to its end). */
async function call(inbound: Inbound, model: string, stream: boolean, text = 'Fix the failing test.') {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-api-key': KEY };
  let url: string;
  let body: Json;
  if (inbound === 'anthropic-messages') {
    url = `${gateway.url}/v1/messages`;
    body = { model, max_tokens: 1000, stream, messages: [{ role: 'user', content: text }] };
  } else if (inbound === 'openai-chat') {
    url = `${gateway.url}/v1/chat/completions`;
    body = { model, stream, messages: [{ role: 'user', content: text }] };
  } else {
    url = `${gateway.url}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
    body = { contents: [{ role: 'user', parts: [{ text }] }] };
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'x-goog-api-key': KEY },
    body: JSON.stringify(body),
  });
  const answer = await response.text();
  expect(response.status).toBe(200);
  return answer;
}

/** The hold and the charge of the next call to settle, once it has. */
async function settled(run: () => Promise<unknown>): Promise<{ held: number; charged: number }> {
  const before = quotaStore.settles.length;
  await run();
  while (quotaStore.settles.length === before) await new Promise((resolve) => setImmediate(resolve));
  const { reservation, actual, info } = quotaStore.settles[before]!;
  expect(info?.settlement).toBe('completed');
  return { held: reservation.amount, charged: actual };
}

describe.each([false, true])('charges what the upstream bills (stream: %s)', (stream) => {
  it('a Claude Code turn, mostly cache reads with 5-minute and 1-hour cache writes, at Anthropic’s ratios', async () => {
    const { charged } = await settled(() => call('anthropic-messages', 'claude', stream));
    expect(charged).toBeCloseTo(CLAUDE_CHARGE, 6);
  });

  it('the same turn for a caller of another protocol', async () => {
    const { charged } = await settled(() => call('openai-chat', 'claude', stream));
    expect(charged).toBeCloseTo(CLAUDE_CHARGE, 6);
  });

  it('a model’s own cache-read price over the vendor’s ratio', async () => {
    const { charged } = await settled(() => call('anthropic-messages', 'claude-own-read-price', stream));
    expect(charged).toBeCloseTo(CLAUDE_CHARGE - 27_000 + 90_000, 6);
  });

  it('OpenAI cached tokens at a tenth, reasoning tokens once (inside the output)', async () => {
    const { charged } = await settled(() => call('openai-chat', 'gpt', stream));
    expect(charged).toBeCloseTo(OPENAI_CHARGE, 6);
  });

  it('Gemini cached content at a tenth, thoughts once (as output)', async () => {
    const { charged } = await settled(() => call('gemini', 'flash', stream));
    expect(charged).toBeCloseTo(GEMINI_CHARGE, 6);
  });

  it('holds no less than the charge when every input token is written to the 1-hour cache at twice the input price', async () => {
    const { held, charged } = await settled(() =>
      call('anthropic-messages', 'claude-writes', stream, '7'.repeat(20_000)),
    );
    expect(charged).toBeCloseTo(20_000 * 6 + 5 * 15, 6);
    expect(held).toBeGreaterThanOrEqual(charged);
    expect(quotaStore.settles.at(-1)!.info?.overrun).toBe(0);
  });
});
