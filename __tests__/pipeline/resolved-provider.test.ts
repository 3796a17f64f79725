/** A provider resolved once at creation: every text provider can generate, stream and count, whatever it implements. */
import type { GenerateRequest, ProviderStreamPart, StreamPart } from '../../lib';
import { GatewayError, type Provider } from '../../lib';
import { countRequestTokens, countTextTokens } from '../../lib/extend';
import { resolveProvider } from '../../lib/resolved-provider';
import { DEFAULT_MAX_IMAGE_TOKENS } from '../../lib/token-bound';

const request: GenerateRequest = {
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
};
const context = { upstreamModel: 'm', signal: new AbortController().signal, requestId: 'req_1' };

async function collect(parts: AsyncIterable<ProviderStreamPart>): Promise<ProviderStreamPart[]> {
  const all: ProviderStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
}

describe('resolveProvider', () => {
  it('gives a stream-only provider a generate that collects its stream and counts the usage it left out', async () => {
    const streamOnly: Provider = {
      specificationVersion: 'v1',
      name: 'streamer',
      async *stream() {
        yield {
          type: 'response-start',
          id: 'r1',
          model: 'm',
          created: 1,
          usage: { inputTokens: 12 },
        } satisfies StreamPart;
        yield { type: 'text-start', id: '0' };
        yield { type: 'text-delta', id: '0', delta: 'Hello there' };
        yield { type: 'text-end', id: '0' };
        yield { type: 'finish', finishReason: { unified: 'stop' } };
      },
    };
    const resolved = resolveProvider(streamOnly);
    expect(resolved.serves).toEqual({ text: true, image: false, embedding: false });
    const response = await resolved.generate(request, context);
    expect(response.choices[0]!.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(response.usage).toEqual({ inputTokens: 12, outputTokens: countTextTokens('Hello there') });
  });

  it('gives a generate-only provider a stream that replays its answer, and counts input with the tokenizer when it has no countTokens', async () => {
    const generateOnly: Provider = {
      specificationVersion: 'v1',
      name: 'plain',
      generate: () => ({
        id: 'r1',
        model: 'm',
        created: 1,
        choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason: { unified: 'stop' } }],
        usage: { inputTokens: 3, outputTokens: 1 },
      }),
    };
    const resolved = resolveProvider(generateOnly);
    const parts = await collect(resolved.stream(request, context));
    expect(parts.map((part) => part.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(parts.at(-1)).toMatchObject({ usage: { inputTokens: 3, outputTokens: 1 } });
    expect(resolved.countsInput).toBe(false);
    expect(await resolved.countInput(request, context)).toBe(countRequestTokens(request));
    expect(resolved.maxImageTokens('m')).toBe(DEFAULT_MAX_IMAGE_TOKENS);
    expect(() =>
      resolved.generateImage({ model: 'm', prompt: 'x', n: 1, width: 1, height: 1 } as never, context),
    ).toThrow(GatewayError);
  });

  it("uses a provider's own countTokens, called on the provider", async () => {
    const counter = {
      specificationVersion: 'v1' as const,
      name: 'counter',
      tokens: 42,
      generate: () => {
        throw new Error('not called');
      },
      countTokens(this: { tokens: number }) {
        return this.tokens;
      },
    };
    const resolved = resolveProvider(counter);
    expect(resolved.countsInput).toBe(true);
    expect(await resolved.countInput(request, context)).toBe(42);
  });
});
