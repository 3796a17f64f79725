/** Upstreams and providers that report no usage: the call is charged an estimate, never zero. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AnthropicProvider,
  GeminiProvider,
  MemoryQuotaStore,
  OpenAIProvider,
  type GenerateRequest,
  type Provider,
  type ProviderStreamPart,
  type Usage,
} from '../../lib';
import { countRequestTokens, countTextTokens } from '../../lib/extend';
import { resolveProvider } from '../../lib/resolved-provider';
import { dataEvents, serveGateway, TEST_KEY, testOptions, type Json } from '../helpers/app';

/**
 * One loopback server answering each protocol's non-streamed call with the text "four words of output" and no usage at
 * all.
 */
async function usagelessUpstream() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      let body: unknown;
      if (url.endsWith('/chat/completions')) {
        body = {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'four words of output' }, finish_reason: 'stop' },
          ],
        };
      } else if (url.startsWith('/v1/messages')) {
        body = {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [{ type: 'text', text: 'four words of output' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
        };
      } else {
        body = {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'four words of output' }] }, finishReason: 'STOP', index: 0 },
          ],
          modelVersion: 'm',
          responseId: 'r1',
        };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const request: GenerateRequest = {
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Say something in four words.' }] }],
};
const context = () => ({ upstreamModel: 'm', signal: new AbortController().signal, requestId: 'req_1' });

describe('a non-streamed answer without usage figures is charged an estimate', () => {
  let upstream: Awaited<ReturnType<typeof usagelessUpstream>>;
  beforeAll(async () => {
    upstream = await usagelessUpstream();
  });
  afterAll(() => upstream.close());

  it.each([
    ['OpenAI-compatible', () => new OpenAIProvider({ baseUrl: `${upstream.origin}/v1` })],
    ['Anthropic', () => new AnthropicProvider({ baseUrl: upstream.origin, apiKey: 'k' })],
    ['Gemini', () => new GeminiProvider({ baseUrl: `${upstream.origin}/v1beta`, apiKey: 'k' })],
  ])('%s', async (_name, make) => {
    const provider = make();
    try {
      const response = await resolveProvider(provider).generate(request, context());
      expect(response.choices[0]!.content).toEqual([{ type: 'text', text: 'four words of output' }]);
      expect(response.usage.inputTokens).toBeGreaterThan(5);
      expect(response.usage.outputTokens).toBe(4);
    } finally {
      await provider.close();
    }
  });
});

/**
 * A provider whose stream finishes without usage figures (or with only some): the gateway counts
 * what is missing — the output from the parts it relayed, the input from the request — shows it to
 * the caller and charges it.
 */
describe('a stream that finishes without usage figures', () => {
  const answer = ['Four words ', 'of output'];
  /** A host's provider that streams `answer` and finishes with `usage` as given (none: no usage at all). */
  const provider = (usage?: Partial<Usage>): Provider => ({
    specificationVersion: 'v1',
    name: 'bare',
    async *stream(): AsyncGenerator<ProviderStreamPart> {
      yield { type: 'response-start', id: 'r1', model: 'bare-1', created: 1 };
      yield { type: 'text-start', id: '0' };
      for (const delta of answer) yield { type: 'text-delta', id: '0', delta };
      yield { type: 'text-end', id: '0' };
      yield usage
        ? { type: 'finish', usage, finishReason: { unified: 'stop' } }
        : { type: 'finish', finishReason: { unified: 'stop' } };
    },
  });
  const prompt = 'Say something in four words.';
  const canonical: GenerateRequest = {
    model: 'bare-1',
    stream: true,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
  };
  const input = countRequestTokens(canonical);
  const output = countTextTokens(answer.join(''));

  async function serve(usage?: Partial<Usage>) {
    const quotaStore = new MemoryQuotaStore();
    const running = await serveGateway(
      testOptions({ providers: [provider(usage)], models: [{ id: 'bare-1', provider: 'bare' }], quotaStore }),
    );
    return { ...running, spent: () => quotaStore.getAccount('rich').spent };
  }
  const chat = (url: string, stream: boolean) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'bare-1',
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: 'user', content: prompt }],
      }),
    });

  it('no usage: an OpenAI caller sees the counted figures in its usage chunk, and they are what is charged', async () => {
    const gateway = await serve();
    try {
      const events = dataEvents(await (await chat(gateway.url, true)).text());
      expect(events.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe(answer.join(''));
      expect(events.at(-1)!.usage).toMatchObject({
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
      });
      expect(gateway.spent()).toBe(input + output);
    } finally {
      await gateway.close();
    }
  });

  it('no usage: an Anthropic caller sees the counted output in message_delta', async () => {
    const gateway = await serve();
    try {
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'bare-1',
          max_tokens: 100,
          stream: true,
          messages: [{ role: 'user', content: prompt }],
        }),
      });
      const events = dataEvents(await response.text());
      expect(events.find((event) => event.type === 'message_delta')!.usage).toMatchObject({ output_tokens: output });
      expect(gateway.spent()).toBe(input + output);
    } finally {
      await gateway.close();
    }
  });

  it('only an output figure: the input is counted; only an input figure: the output is', async () => {
    for (const [usage, charged] of [
      [{ outputTokens: 50 }, input + 50],
      [{ inputTokens: 40 }, 40 + output],
    ] as const) {
      const gateway = await serve(usage);
      try {
        const events = dataEvents(await (await chat(gateway.url, true)).text());
        expect(events.at(-1)!.usage).toMatchObject({ total_tokens: charged });
        expect(gateway.spent()).toBe(charged);
      } finally {
        await gateway.close();
      }
    }
  });

  it('no usage, non-streamed (the stream is collected): the response carries the counted figures', async () => {
    const gateway = await serve();
    try {
      const body = (await (await chat(gateway.url, false)).json()) as Json;
      expect(body.choices[0].message.content).toBe(answer.join(''));
      expect(body.usage).toMatchObject({ prompt_tokens: input, completion_tokens: output });
      expect(gateway.spent()).toBe(input + output);
    } finally {
      await gateway.close();
    }
  });
});

/** An upstream answering every call with `body` (JSON), and a provider made for its base URL by `make`. */
async function fixedUpstream(body: unknown, make: (baseUrl: string) => Provider & { close(): Promise<void> }) {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const provider = make(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    provider: provider as Provider & { generate: NonNullable<Provider['generate']> },
    close: async () => {
      await provider.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

describe('a non-streamed Anthropic-compatible answer with only some usage figures', () => {
  /** Answers every call with "four words of output" and the given usage block. */
  const partialUpstream = (usage: Record<string, number>) =>
    fixedUpstream(
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'text', text: 'four words of output' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      },
      (baseUrl) => new AnthropicProvider({ baseUrl, apiKey: 'k' }),
    );

  it('counts the missing figure and keeps the reported one: an output count without an input count, and the reverse', async () => {
    const outputOnly = await partialUpstream({ output_tokens: 7 });
    try {
      // Before: the missing input was charged as 0.
      expect((await resolveProvider(outputOnly.provider).generate(request, context())).usage).toEqual({
        inputTokens: countRequestTokens(request),
        outputTokens: 7,
      });
      // The provider reports what the upstream reported; the gateway (the resolved provider) counts the rest, once.
      expect((await outputOnly.provider.generate(request, context())).usage).toEqual({ outputTokens: 7 });
    } finally {
      await outputOnly.close();
    }
    const inputOnly = await partialUpstream({ input_tokens: 30, cache_read_input_tokens: 5 });
    try {
      // Before: the reported input was replaced by the tokenizer's count.
      expect((await resolveProvider(inputOnly.provider).generate(request, context())).usage).toEqual({
        inputTokens: 35,
        cacheReadTokens: 5,
        outputTokens: countTextTokens('four words of output'),
      });
    } finally {
      await inputOnly.close();
    }
  });
});

describe('a non-streamed OpenAI-compatible answer with only some usage figures', () => {
  /** Answers every call with "four words of output" and the given usage block. */
  const partialUpstream = (usage: Record<string, unknown>) =>
    fixedUpstream(
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'four words of output' }, finish_reason: 'stop' }],
        usage,
      },
      (baseUrl) => new OpenAIProvider({ baseUrl: `${baseUrl}/v1`, apiKey: 'k' }),
    );

  it('counts the missing figure and keeps the reported one', async () => {
    const inputOnly = await partialUpstream({ prompt_tokens: 30, prompt_tokens_details: { cached_tokens: 5 } });
    try {
      // Before: the missing output was charged as 0.
      expect((await resolveProvider(inputOnly.provider).generate(request, context())).usage).toEqual({
        inputTokens: 30,
        cacheReadTokens: 5,
        outputTokens: countTextTokens('four words of output'),
      });
    } finally {
      await inputOnly.close();
    }
    const outputOnly = await partialUpstream({ completion_tokens: 7 });
    try {
      expect((await resolveProvider(outputOnly.provider).generate(request, context())).usage).toEqual({
        inputTokens: countRequestTokens(request),
        outputTokens: 7,
      });
    } finally {
      await outputOnly.close();
    }
  });
});

/**
 * A host's provider with only `generate`, answering without usage: the gateway counts it, as for the built-in
 * providers.
 */
describe('a generate-only provider whose answer has no usage', () => {
  const text = 'four words of output';
  const bare: Provider = {
    specificationVersion: 'v1',
    name: 'bare',
    generate: (call) => ({
      id: 'r1',
      model: call.model,
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text }], finishReason: { unified: 'stop' } }],
    }),
  };
  const prompt = 'Say something in four words.';
  const input = countRequestTokens({
    model: 'bare-1',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
  });
  const output = countTextTokens(text);

  it.each([false, true])('is charged and shown the counted figures (stream: %s)', async (stream) => {
    const quotaStore = new MemoryQuotaStore();
    const gateway = await serveGateway(
      testOptions({ providers: [bare], models: [{ id: 'bare-1', provider: 'bare' }], quotaStore }),
    );
    try {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'bare-1',
          stream,
          ...(stream ? { stream_options: { include_usage: true } } : {}),
          messages: [{ role: 'user', content: prompt }],
        }),
      });
      expect(response.status).toBe(200);
      const usage = stream ? dataEvents(await response.text()).at(-1)!.usage : ((await response.json()) as Json).usage;
      expect(usage).toMatchObject({ prompt_tokens: input, completion_tokens: output });
      expect(quotaStore.getAccount('rich').spent).toBe(input + output);
    } finally {
      await gateway.close();
    }
  });
});
