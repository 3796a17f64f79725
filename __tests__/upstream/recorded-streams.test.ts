/**
 * Recorded-shape upstream streams (`fixtures/<protocol>/*.sse`), served byte for byte, relayed by a gateway to a caller
 * of each protocol.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { startMockServer, type MockServer } from '../helpers/mock-server';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const FIXTURES = join(__dirname, '..', 'fixtures');
const KEY = 'sk-recorded-streams-caller';
const UPSTREAMS = ['openai-chat', 'anthropic-messages', 'gemini'] as const;
const CALLERS = ['openai', 'anthropic', 'gemini'] as const;
const SCENARIOS = ['text-usage', 'tool-call', 'thinking', 'error'] as const;
/** Output priced apart from input, so the charge shows both counts. */
const PRICING = { input: 1, output: 10 };

type Upstream = (typeof UPSTREAMS)[number];
type Caller = (typeof CALLERS)[number];
type Scenario = (typeof SCENARIOS)[number];

const fixture = (upstream: Upstream, scenario: string): string =>
  readFileSync(join(FIXTURES, upstream, `${scenario}.sse`), 'utf8');

/** The `data:` payloads of an SSE text, whatever its line endings; `[DONE]` left out. */
function payloads(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((frame) =>
      frame
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim()),
    )
    .filter((data) => data.length > 0 && data !== '[DONE]')
    .map((data) => JSON.parse(data) as Json);
}

/**
 * A signature as the fixture carries it: the Anthropic signature_delta, or Gemini's thoughtSignature on the last part
 * that has one.
 */
function signatureIn(upstream: Upstream, scenario: Scenario): string | undefined {
  const events = payloads(fixture(upstream, scenario));
  if (upstream === 'anthropic-messages')
    return events.find((event) => event.delta?.type === 'signature_delta')?.delta.signature;
  if (upstream === 'gemini') {
    const parts = events.flatMap((event) => event.candidates?.[0]?.content?.parts ?? []);
    return parts.filter((part: Json) => part.thoughtSignature).at(-1)?.thoughtSignature;
  }
  return undefined;
}

/** What each fixture holds, read off the files by eye: the answer a caller should get. */
interface Expected {
  text: string;
  reasoning?: string;
  toolCall?: { name: string; args: Json };
  finish?: 'stop' | 'tool';
  usage?: { input: number; output: number };
  /** The fixture ends in an in-stream error after `text`. */
  error?: true;
}

const WEATHER = { name: 'get_weather', args: { city: 'Oslo', unit: 'celsius' } };
const ANSWER = 'The capital of Norway is Oslo.';
const PRODUCT = '17 × 3 = 51.';
const THOUGHT = 'The user asks for 17 times 3. 17 * 3 = 51.';
const EXPECTED: Record<Upstream, Record<Scenario, Expected>> = {
  'openai-chat': {
    'text-usage': { text: ANSWER, finish: 'stop', usage: { input: 24, output: 8 } },
    'tool-call': { text: '', toolCall: WEATHER, finish: 'tool', usage: { input: 81, output: 21 } },
    thinking: { text: PRODUCT, reasoning: THOUGHT, finish: 'stop', usage: { input: 18, output: 30 } },
    error: { text: 'Once upon a time', error: true },
  },
  'anthropic-messages': {
    'text-usage': { text: ANSWER, finish: 'stop', usage: { input: 24, output: 8 } },
    'tool-call': {
      text: "I'll check the weather in Oslo.",
      toolCall: WEATHER,
      finish: 'tool',
      usage: { input: 410, output: 76 },
    },
    thinking: { text: PRODUCT, reasoning: THOUGHT, finish: 'stop', usage: { input: 18, output: 30 } },
    error: { text: 'Once upon a time', error: true },
  },
  gemini: {
    'text-usage': { text: ANSWER, finish: 'stop', usage: { input: 24, output: 8 } },
    // Gemini counts thoughts apart from candidates: output is candidates + thoughts.
    'tool-call': { text: '', toolCall: WEATHER, finish: 'tool', usage: { input: 81, output: 21 + 64 } },
    thinking: {
      text: PRODUCT,
      reasoning: `**Multiplying**\n\n${THOUGHT}`,
      finish: 'stop',
      usage: { input: 18, output: 8 + 22 },
    },
    error: { text: 'Once upon a time', error: true },
  },
};

/** What a caller got out of its stream, in terms every protocol shares. */
interface Received {
  status: number;
  text: string;
  reasoning: string;
  signatures: string[];
  toolCalls: { name: string; args: Json }[];
  finish?: string;
  usage?: { input: number; output: number };
  error?: Json;
  /** The protocol's end marker arrived: `[DONE]`, `message_stop`, or a finish reason on Gemini's last chunk. */
  ended: boolean;
}

function emptyReceived(status: number): Received {
  return { status, text: '', reasoning: '', signatures: [], toolCalls: [], ended: false };
}

function readOpenAI(status: number, body: string): Received {
  const got = emptyReceived(status);
  got.ended = body.endsWith('data: [DONE]\n\n');
  const calls: { name: string; args: string }[] = [];
  for (const chunk of payloads(body)) {
    if (chunk.error) got.error = chunk.error;
    if (chunk.usage) got.usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
    for (const choice of chunk.choices ?? []) {
      got.text += choice.delta?.content ?? '';
      got.reasoning += choice.delta?.reasoning_content ?? '';
      for (const call of choice.delta?.tool_calls ?? []) {
        calls[call.index] ??= { name: '', args: '' };
        calls[call.index].name += call.function?.name ?? '';
        calls[call.index].args += call.function?.arguments ?? '';
      }
      if (choice.finish_reason) got.finish = choice.finish_reason;
    }
  }
  got.toolCalls = calls.map((call) => ({ name: call.name, args: JSON.parse(call.args) as Json }));
  return got;
}

function readAnthropic(status: number, body: string): Received {
  const got = emptyReceived(status);
  const blocks: Json[] = [];
  let input = 0;
  let output = 0;
  for (const frame of body.split('\n\n').filter((text) => text.length > 0)) {
    const [eventLine, dataLine] = frame.split('\n');
    const event = JSON.parse(dataLine.slice('data: '.length)) as Json;
    // The SDK routes by the event: line; it must name the JSON's type.
    expect(eventLine).toBe(`event: ${event.type}`);
    if (event.type === 'message_start') ({ input_tokens: input, output_tokens: output } = event.message.usage);
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block, json: '' };
    if (event.type === 'content_block_delta') {
      const block = blocks[event.index];
      const delta = event.delta;
      if (delta.type === 'text_delta') block.text += delta.text;
      if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      if (delta.type === 'signature_delta') block.signature = (block.signature ?? '') + delta.signature;
      if (delta.type === 'input_json_delta') block.json += delta.partial_json;
    }
    if (event.type === 'message_delta') {
      got.finish = event.delta.stop_reason;
      input = event.usage.input_tokens ?? input;
      output = event.usage.output_tokens;
    }
    if (event.type === 'message_stop') got.ended = true;
    if (event.type === 'error') got.error = event.error;
  }
  for (const block of blocks) {
    if (block.type === 'text') got.text += block.text;
    if (block.type === 'thinking') got.reasoning += block.thinking;
    if (block.signature) got.signatures.push(block.signature);
    if (block.type === 'tool_use')
      got.toolCalls.push({ name: block.name, args: JSON.parse(block.json || '{}') as Json });
  }
  if (got.finish) got.usage = { input, output };
  return got;
}

function readGemini(status: number, body: string): Received {
  const got = emptyReceived(status);
  for (const chunk of payloads(body)) {
    if (chunk.error) got.error = chunk.error;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (typeof part.text === 'string') {
        if (part.thought) got.reasoning += part.text;
        else got.text += part.text;
      }
      if (part.functionCall) got.toolCalls.push({ name: part.functionCall.name, args: part.functionCall.args });
      if (part.thoughtSignature) got.signatures.push(part.thoughtSignature);
    }
    if (candidate?.finishReason) {
      got.finish = candidate.finishReason;
      got.ended = true;
    }
    const usage = chunk.usageMetadata;
    if (usage)
      got.usage = {
        input: usage.promptTokenCount,
        output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
      };
  }
  return got;
}

/** Each caller's finish reason for a stop and for tool calls. */
const FINISH: Record<Caller, Record<'stop' | 'tool', string>> = {
  openai: { stop: 'stop', tool: 'tool_calls' },
  anthropic: { stop: 'end_turn', tool: 'tool_use' },
  gemini: { stop: 'STOP', tool: 'STOP' },
};

/** Each caller's in-stream error, as its SDK reads it. */
const ERROR_SHAPE: Record<Caller, Json> = {
  openai: { message: expect.any(String), type: expect.any(String) },
  anthropic: { type: expect.stringMatching(/_error$/), message: expect.any(String) },
  gemini: { code: expect.any(Number), message: expect.any(String), status: expect.any(String) },
};

let upstream: MockServer;
let server: RunningGateway;
const quota = new RecordingQuotaStore({ balances: { caller: 1_000_000_000 } });
const served: string[] = [];

/** The model id that leads to one fixture. */
const modelId = (from: Upstream, scenario: Scenario) => `${from}.${scenario}`;

beforeAll(async () => {
  upstream = await startMockServer((body, request, response) => {
    const url = request.url ?? '';
    const gemini = /\/models\/([^/:]+):streamGenerateContent\?alt=sse$/.exec(url);
    let file: string | undefined;
    if (url === '/v1/chat/completions' && body.stream === true) file = join('openai-chat', `${String(body.model)}.sse`);
    if (url === '/v1/messages' && body.stream === true) file = join('anthropic-messages', `${String(body.model)}.sse`);
    if (gemini) file = join('gemini', `${gemini[1]}.sse`);
    if (!file) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"no fixture for this request"}}');
      return;
    }
    served.push(file);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(readFileSync(join(FIXTURES, file)));
  });
  const models: ModelConfig[] = UPSTREAMS.flatMap((from) =>
    SCENARIOS.map((scenario) => ({
      id: modelId(from, scenario),
      provider: from,
      upstreamModel: scenario,
      pricing: PRICING,
    })),
  );
  const retries = { max: 0 };
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new OpenAIProvider({
        name: 'openai-chat',
        baseUrl: `${upstream.origin}/v1`,
        apiKey: 'sk-upstream-openai',
        retries,
      }),
      new AnthropicProvider({
        name: 'anthropic-messages',
        baseUrl: upstream.origin,
        apiKey: 'sk-upstream-anthropic',
        retries,
      }),
      new GeminiProvider({
        name: 'gemini',
        baseUrl: `${upstream.origin}/v1beta`,
        apiKey: 'upstream-gemini-key',
        retries,
      }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

/** Streams one call from `caller` to `model` and reads the answer the caller's way. */
async function call(caller: Caller, model: string): Promise<Received> {
  const question = 'A question the recorded stream answers.';
  const [path, headers, body, read] =
    caller === 'openai'
      ? [
          '/v1/chat/completions',
          { authorization: `Bearer ${KEY}` },
          {
            model,
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content: question }],
          },
          readOpenAI,
        ]
      : caller === 'anthropic'
        ? [
            '/v1/messages',
            { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
            { model, max_tokens: 4096, stream: true, messages: [{ role: 'user', content: question }] },
            readAnthropic,
          ]
        : [
            `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
            { 'x-goog-api-key': KEY },
            { contents: [{ role: 'user', parts: [{ text: question }] }] },
            readGemini,
          ];
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return read(response.status, await response.text());
}

/** The settle of the call just made: a stream settles as it ends, which may come just after the caller's last byte. */
async function settleAfter(count: number) {
  while (quota.settles.length <= count) await new Promise((resolve) => setImmediate(resolve));
  return quota.settles[count];
}

const cases = UPSTREAMS.flatMap((from) =>
  SCENARIOS.flatMap((scenario) => CALLERS.map((caller) => [from, scenario, caller] as const)),
);

describe.each(cases)('%s/%s.sse to a %s caller', (from, scenario, caller) => {
  const expected = EXPECTED[from][scenario];
  let got: Received;
  let settle: Awaited<ReturnType<typeof settleAfter>>;

  beforeAll(async () => {
    const before = quota.settles.length;
    const servedBefore = served.length;
    got = await call(caller, modelId(from, scenario));
    settle = await settleAfter(before);
    expect(served.slice(servedBefore)).toEqual([join(from, `${scenario}.sse`)]);
  });

  it('gets the text (and the reasoning) of the recorded answer', () => {
    expect(got.status).toBe(200);
    expect(got.text).toBe(expected.text);
    expect(got.reasoning).toBe(expected.reasoning ?? '');
  });

  it('gets the tool call, whole', () => {
    expect(got.toolCalls).toEqual(expected.toolCall ? [expected.toolCall] : []);
  });

  if (expected.error) {
    it("gets the upstream's in-stream error as its protocol's error, no finish, and is not charged", () => {
      expect(got.error).toMatchObject(ERROR_SHAPE[caller]);
      expect(got.finish).toBeUndefined();
      expect(got.ended).toBe(false);
      expect(settle.actual).toBe(0);
      expect(settle.info?.settlement).toBe('failed-free');
    });
  } else {
    it('gets the finish reason and the usage, and is charged for that usage', () => {
      expect(got.error).toBeUndefined();
      expect(got.ended).toBe(true);
      expect(got.finish).toBe(FINISH[caller][expected.finish!]);
      expect(got.usage).toEqual(expected.usage);
      expect(settle.info?.settlement).toBe('completed');
      expect(settle.actual).toBe(expected.usage!.input * PRICING.input + expected.usage!.output * PRICING.output);
    });
  }

  const signature = signatureIn(from, scenario);
  if (signature && (from === 'anthropic-messages' ? caller === 'anthropic' : caller === 'gemini')) {
    it("gets the vendor's signature back unchanged (same protocol)", () => {
      expect(got.signatures).toContain(signature);
    });
  }
});
