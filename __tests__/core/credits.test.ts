/**
 * The credit split of a call (lib/quota.ts) and what feeds it: the prices a model resolves to (its own,
 * else its vendor's cache ratios), each provider's cache figures decoded so no token is charged twice or
 * missed, and the hold priced so it never falls below the charge.
 */
import type { GenerateRequest, Provider, Usage } from '../../lib';
import type { ModelConfig } from '../../lib/model-config';
import { ModelTable, type ResolvedModel } from '../../lib/models';
import { resolveProvider, type ResolvedProvider } from '../../lib/resolved-provider';
import { decodeAnthropicUsage } from '../../lib/providers/anthropic/decode-response';
import { MessageStreamDecoder } from '../../lib/providers/anthropic/decode-stream';
import { ANTHROPIC_CACHE_PRICE_RATIOS } from '../../lib/providers/anthropic/cache-prices';
import { geminiCachePriceRatios } from '../../lib/providers/gemini/cache-prices';
import { openAICachePriceRatios } from '../../lib/providers/openai/cache-prices';
import { decodeResponsesUsage } from '../../lib/providers/openai/responses/decode-output';
import { encodeUsage } from '../../lib/protocols/anthropic-messages/encode-response';
import { affordableOutputTokens, creditsForImage, creditsForUsage, estimateGenerate } from '../../lib/quota';
import { StreamMeter } from '../../lib/stream/meter';
import { AnthropicProvider, createGateway, GeminiProvider, LocalProvider, OpenAIProvider } from '../../lib';

const fake = (ratios?: Provider['cachePriceRatios']): ResolvedProvider =>
  resolveProvider({
    specificationVersion: 'v1',
    name: 'fake',
    generate: () => ({}) as never,
    cachePriceRatios: ratios,
  });

function table(configs: ModelConfig[], provider: ResolvedProvider = fake()): ModelTable {
  return new ModelTable(configs, new Map([[provider.name, provider]]), { maxOutputTokens: 100, created: 0 });
}

function model(pricing: ModelConfig['pricing'], provider?: ResolvedProvider): ResolvedModel {
  return table([{ id: 'm', provider: provider?.name ?? 'fake', pricing }], provider).resolve('m', { id: 'k' }, 'text');
}

const anthropicLike = fake(() => ANTHROPIC_CACHE_PRICE_RATIOS);

describe('model pricing', () => {
  it('defaults the cache prices to the input price times the vendor ratios', () => {
    expect(model({ input: 3, output: 15 }, anthropicLike).pricing).toEqual({
      input: 3,
      output: 15,
      image: 1000,
      cacheRead: expect.closeTo(0.3, 10),
      cacheWrite: 3.75,
      cacheWriteLong: 6,
    });
  });

  it('takes a model’s own cache prices over the ratios', () => {
    const pricing = model({ input: 3, cacheRead: 1, cacheWrite: 4, cacheWriteLong: 5 }, anthropicLike).pricing;
    expect(pricing).toMatchObject({ cacheRead: 1, cacheWrite: 4, cacheWriteLong: 5 });
  });

  it('charges a cached token at the input price for a provider that declares no ratios', () => {
    expect(model({ input: 2 }).pricing).toMatchObject({ cacheRead: 2, cacheWrite: 2, cacheWriteLong: 2 });
  });

  it('prices a provider/model id at its vendor’s ratios too', () => {
    const models = new ModelTable([], new Map([['fake', anthropicLike]]), {
      maxOutputTokens: 100,
      created: 0,
      providerModelIds: true,
    });
    expect(models.resolve('fake/any', { id: 'k' }, 'text').pricing).toMatchObject({
      input: 1,
      cacheRead: 0.1,
      cacheWrite: 1.25,
      cacheWriteLong: 2,
    });
  });

  it('refuses a price that is not a finite number of credits, 0 or more', () => {
    const refusal = (pricing: unknown) => {
      try {
        createGateway({
          keys: [{ key: 'sk-pricing-key-0123456789' }],
          providers: [new LocalProvider()],
          models: [{ id: 'm', provider: 'local', upstreamModel: 'rosetta-echo', pricing: pricing as never }],
        });
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      return undefined;
    };
    expect(refusal({ cacheRead: -1 })).toEqual({
      code: 'ERR_GATEWAY_INVALID_OPTION',
      message: expect.stringContaining("'models[0].pricing.cacheRead' must be a finite number of credits"),
    });
    expect(refusal({ input: Number.NaN })?.message).toContain("'models[0].pricing.input'");
    expect(refusal({ cacheWriteLong: '2' })?.message).toContain("'models[0].pricing.cacheWriteLong'");
    expect(refusal('cheap')?.message).toContain("'models[0].pricing' must be an object");
    expect(refusal({ input: 0, cacheRead: 0.25 })).toBeUndefined();
  });

  it('declares each built-in provider’s ratios', () => {
    expect(new AnthropicProvider({ apiKey: 'k' }).cachePriceRatios()).toEqual({
      cacheRead: 0.1,
      cacheWrite: 1.25,
      cacheWriteLong: 2,
    });
    const openai = new OpenAIProvider({ apiKey: 'k' });
    expect(openai.cachePriceRatios('gpt-4o-2024-08-06').cacheRead).toBe(0.5);
    expect(openai.cachePriceRatios('o1').cacheRead).toBe(0.5);
    expect(openai.cachePriceRatios('o3-mini').cacheRead).toBe(0.5);
    expect(openai.cachePriceRatios('gpt-4.1-mini').cacheRead).toBe(0.25);
    expect(openai.cachePriceRatios('o4-mini').cacheRead).toBe(0.25);
    expect(openai.cachePriceRatios('gpt-5-mini')).toEqual({ cacheRead: 0.1, cacheWrite: 1, cacheWriteLong: 1 });
    expect(openai.cachePriceRatios('gpt-5.6-sol')).toEqual({ cacheRead: 0.1, cacheWrite: 1.25, cacheWriteLong: 1.25 });
    expect(openAICachePriceRatios('openai/gpt-4o-mini').cacheRead).toBe(0.5);
    expect(openAICachePriceRatios('deepseek-chat')).toEqual({ cacheRead: 0.1, cacheWrite: 1, cacheWriteLong: 1 });
    const gemini = new GeminiProvider({ apiKey: 'k' });
    expect(gemini.cachePriceRatios('gemini-2.5-pro')).toEqual({ cacheRead: 0.1, cacheWrite: 1, cacheWriteLong: 1 });
    expect(geminiCachePriceRatios('models/gemini-3-flash-preview').cacheRead).toBe(0.1);
    expect(geminiCachePriceRatios('gemini-2.0-flash').cacheRead).toBe(0.25);
    expect(geminiCachePriceRatios('gemini-flash-latest').cacheRead).toBe(0.1);
    expect((new LocalProvider() as Provider).cachePriceRatios).toBeUndefined();
  });
});

describe('creditsForUsage', () => {
  const claude = model({ input: 3, output: 15 }, anthropicLike);

  it('splits the input into uncached, cache reads and cache writes by TTL, each token charged once', () => {
    const usage: Usage = {
      inputTokens: 93_012,
      outputTokens: 400,
      cacheReadTokens: 90_000,
      cacheWriteTokens: 3_000,
      cacheWriteLongTokens: 1_000,
    };
    const split = creditsForUsage(usage, claude);
    expect(split.input).toBe(12 * 3);
    expect(split.cacheRead).toBeCloseTo(27_000, 6);
    expect(split.cacheWrite).toBe(2_000 * 3.75 + 1_000 * 6);
    expect(split.output).toBe(400 * 15);
    expect(split.image).toBe(0);
    expect(split.total).toBeCloseTo(split.input + split.cacheRead + split.cacheWrite + split.output, 6);
  });

  it('charges reasoning tokens once, inside the output', () => {
    const plain = creditsForUsage({ inputTokens: 10, outputTokens: 500 }, claude);
    const reasoning = creditsForUsage({ inputTokens: 10, outputTokens: 500, reasoningTokens: 300 }, claude);
    expect(reasoning).toEqual(plain);
    expect(reasoning.output).toBe(500 * 15);
  });

  it('charges an uncached call as before', () => {
    expect(creditsForUsage({ inputTokens: 100, outputTokens: 10 }, claude).total).toBe(100 * 3 + 10 * 15);
  });

  it('charges cache figures larger than the input as reported, never a negative uncached input', () => {
    const split = creditsForUsage({ inputTokens: 50, outputTokens: 0, cacheReadTokens: 80 }, claude);
    expect(split.input).toBe(0);
    expect(split.cacheRead).toBeCloseTo(24, 6);
  });

  it('splits an image call into its images', () => {
    const images = model({ image: 250 });
    const response = { created: 0, images: [{ b64Json: 'a' }, { b64Json: 'b' }] } as never;
    expect(creditsForImage(response, images)).toEqual({
      input: 0,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0,
      image: 500,
      total: 500,
    });
    expect(creditsForImage(response, images).total).toBe(500);
  });
});

describe('holds', () => {
  const request: GenerateRequest = { model: 'm', stream: false, messages: [] };

  it('hold input at its dearest price, so an input written whole to the 1-hour cache stays within the hold', () => {
    const claude = model({ input: 3, output: 15 }, anthropicLike);
    const estimate = estimateGenerate(request, claude, 1_000);
    expect(estimate).toEqual({ amount: 1_000 * 6 + 100 * 15, minimum: 1_000 * 6 + 15 });
    const dearest: Usage = {
      inputTokens: 1_000,
      outputTokens: 100,
      cacheWriteTokens: 1_000,
      cacheWriteLongTokens: 1_000,
    };
    expect(creditsForUsage(dearest, claude).total).toBeLessThanOrEqual(estimate.amount);
    const held = 1_000 * 6 + 10 * 15;
    const allowed = affordableOutputTokens(request, claude, 1_000, held)!;
    expect(allowed).toBe(10);
    expect(creditsForUsage({ ...dearest, outputTokens: allowed }, claude).total).toBeLessThanOrEqual(held);
  });

  it('hold input at the input price when no cache price is above it', () => {
    expect(estimateGenerate(request, model({ input: 2, output: 4 }), 10).amount).toBe(10 * 2 + 100 * 4);
  });
});

describe('cache figures decoded and encoded', () => {
  const usage = {
    input_tokens: 12,
    cache_read_input_tokens: 90_000,
    cache_creation_input_tokens: 3_000,
    cache_creation: { ephemeral_5m_input_tokens: 2_000, ephemeral_1h_input_tokens: 1_000 },
    output_tokens: 400,
  };

  it('Anthropic: input is the sum of the uncached, read and written tokens; the 1-hour writes a part of the writes', () => {
    expect(decodeAnthropicUsage(usage)).toEqual({
      inputTokens: 93_012,
      outputTokens: 400,
      cacheReadTokens: 90_000,
      cacheWriteTokens: 3_000,
      cacheWriteLongTokens: 1_000,
    });
    const { cache_creation_input_tokens: _total, ...withoutTotal } = usage;
    expect(decodeAnthropicUsage(withoutTotal)).toMatchObject({ inputTokens: 93_012, cacheWriteTokens: 3_000 });
  });

  it('Anthropic stream: message_start carries the 1-hour writes', () => {
    const decoder = new MessageStreamDecoder('anthropic');
    const out: unknown[] = [];
    const { output_tokens: _output, ...input } = usage;
    const message = { id: 'msg_1', model: 'claude', content: [], usage: { ...input, output_tokens: 1 } };
    decoder.accept({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message }) }, out as never);
    expect(out[0]).toMatchObject({
      type: 'response-start',
      usage: { cacheWriteTokens: 3_000, cacheWriteLongTokens: 1_000 },
    });
  });

  it('Anthropic codec: writes the TTL split back, and input_tokens without the cache', () => {
    expect(encodeUsage(decodeAnthropicUsage(usage))).toMatchObject({
      input_tokens: 12,
      cache_read_input_tokens: 90_000,
      cache_creation_input_tokens: 3_000,
      cache_creation: { ephemeral_5m_input_tokens: 2_000, ephemeral_1h_input_tokens: 1_000 },
    });
  });

  it('OpenAI Responses: cached and written tokens are inside input_tokens', () => {
    expect(
      decodeResponsesUsage({
        input_tokens: 5_000,
        output_tokens: 10,
        input_tokens_details: { cached_tokens: 3_000, cache_write_tokens: 1_500 },
      }),
    ).toEqual({ inputTokens: 5_000, outputTokens: 10, cacheReadTokens: 3_000, cacheWriteTokens: 1_500 });
  });

  it('a stream cut before its finish is charged the cache figures of its start', () => {
    const request: GenerateRequest = { model: 'm', stream: true, messages: [] };
    const meter = new StreamMeter(request, 50);
    meter.observe({
      type: 'response-start',
      id: 'r',
      model: 'm',
      created: 0,
      usage: { inputTokens: 93_012, cacheReadTokens: 90_000, cacheWriteTokens: 3_000, cacheWriteLongTokens: 1_000 },
    });
    expect(meter.usage()).toMatchObject({
      inputTokens: 93_012,
      cacheReadTokens: 90_000,
      cacheWriteTokens: 3_000,
      cacheWriteLongTokens: 1_000,
    });
  });
});
