/**
 * The overspend bound: text that tokenizes near one token per byte (digits, CJK, code) never makes a
 * call, or ten at once, spend more than the balance; a charge beyond the hold is charged in full and reported.
 */
import { ANTHROPIC_CACHE_PRICE_RATIOS } from '../../lib/providers/anthropic/cache-prices';
import {
  AnthropicProvider,
  GeminiProvider,
  LocalProvider,
  MemoryKeyStore,
  OpenAIProvider,
  type ModelConfig,
} from '../../lib';
import { countRequestTokens } from '../../lib/extend';
import { ANTHROPIC_MAX_IMAGE_TOKENS } from '../../lib/providers/anthropic/image-token-bound';
import { GEMINI_MAX_IMAGE_TOKENS } from '../../lib/providers/gemini/image-token-bound';
import { GPT_4O_MINI_MAX_IMAGE_TOKENS, OPENAI_MAX_IMAGE_TOKENS } from '../../lib/providers/openai/image-token-bound';
import { serveGateway, type Json, type RunningGateway } from '../helpers/app';
import { METERED_KEY, OVER_INPUT_TOKENS, startMockMetered, type MockMetered } from '../helpers/mock-metered';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-overspend-caller-key-1';
const FAMILIES = ['openai', 'anthropic', 'gemini'] as const;
type Family = (typeof FAMILIES)[number];
type Inbound = 'openai-chat' | 'anthropic-messages' | 'gemini';
/** The caller protocol that is the upstream's own (its body passes through). */
const SAME_PROTOCOL: Record<Family, Inbound> = {
  openai: 'openai-chat',
  anthropic: 'anthropic-messages',
  gemini: 'gemini',
};

/**
 * What a hold prices one input token at, per upstream family (docs/operations.md, "Holds"): the dearest way its
 * vendor may bill it, Anthropic's 1-hour cache write for Claude, the input price for the others.
 */
const HOLD_INPUT_PRICE: Record<Family, number> = {
  openai: 1,
  anthropic: ANTHROPIC_CACHE_PRICE_RATIOS.cacheWriteLong,
  gemini: 1,
};

/** About `size` UTF-8 bytes of text a real tokenizer counts at close to one token per byte. */
const TEXTS = {
  digits: (size: number) => '0123456789'.repeat(Math.ceil(size / 10)),
  cjk: (size: number) => '数据库连接失败请重试'.repeat(Math.ceil(size / 30)),
  code: (size: number) => 'for(i=0;i<n;i++){a[i]=b[i]^c[i];}\n'.repeat(Math.ceil(size / 34)),
};

let mock: MockMetered;
let gateway: RunningGateway;
let quotaStore: RecordingQuotaStore;

beforeAll(async () => {
  mock = await startMockMetered();
  quotaStore = new RecordingQuotaStore({ balances: { k: 0 } });
  const models: ModelConfig[] = FAMILIES.flatMap((family) => [
    ...['bytes', 'over'].map((upstream) => ({
      id: `${family}-${upstream}`,
      provider: family,
      upstreamModel: upstream,
      maxOutputTokens: 200,
    })),
  ]);
  models.push({ id: 'openai-4o-mini', provider: 'openai', upstreamModel: 'gpt-4o-mini-bytes' });
  models.push({
    id: 'local-then-anthropic',
    provider: 'local',
    upstreamModel: 'rosetta-echo',
    fallbacks: ['anthropic-bytes'],
  });
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'k' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({ baseUrl: `${mock.origin}/v1`, apiKey: METERED_KEY }),
      new AnthropicProvider({ baseUrl: mock.origin, apiKey: METERED_KEY }),
      new GeminiProvider({ baseUrl: `${mock.origin}/v1beta`, apiKey: METERED_KEY }),
      new LocalProvider(),
    ],
    models,
  });
});
afterAll(async () => {
  await gateway.close();
  await mock.close();
});

/** Sends `content` (a user text, or OpenAI content parts) in the caller protocol `inbound`, non-streamed. */
async function send(
  inbound: Inbound,
  model: string,
  content: string | Json[],
  maxTokens: number,
): Promise<{ status: number; body: Json }> {
  const text = typeof content === 'string' ? content : '';
  let path: string;
  let headers: Record<string, string>;
  let body: Json;
  if (inbound === 'openai-chat') {
    path = '/v1/chat/completions';
    headers = { authorization: `Bearer ${KEY}` };
    body = { model, max_tokens: maxTokens, messages: [{ role: 'user', content }] };
  } else if (inbound === 'anthropic-messages') {
    path = '/v1/messages';
    headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    body = { model, max_tokens: maxTokens, messages: [{ role: 'user', content: text }] };
  } else {
    path = `/v1beta/models/${model}:generateContent`;
    headers = { 'x-goog-api-key': KEY };
    body = { contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { maxOutputTokens: maxTokens } };
  }
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A fresh balance for key `k`; returns what it spends from here on. */
function fund(balance: number): () => number {
  quotaStore.setBalance('k', balance);
  const before = quotaStore.getAccount('k').spent;
  return () => quotaStore.getAccount('k').spent - before;
}

describe('one call on a small balance', () => {
  /**
   * Text of 2,400 bytes is refused (its bound exceeds the balance); 900 bytes with 500 output tokens gets a partial
   * hold that caps the output.
   */
  const SIZES = [
    [2_400, 100],
    [900, 500],
  ] as const;
  const cases = FAMILIES.flatMap((family) =>
    [...new Set(['openai-chat', SAME_PROTOCOL[family]] as const)].flatMap((inbound) =>
      Object.keys(TEXTS).flatMap((kind) =>
        SIZES.map(([size, maxTokens]) => [family, inbound, kind, size, maxTokens] as const),
      ),
    ),
  );

  it.each(cases)(
    '%s upstream, %s caller, %s text of %d bytes (max %d out): refused or capped, never charged beyond the balance',
    async (family, inbound, kind, size, maxTokens) => {
      const balance = 1_000 * HOLD_INPUT_PRICE[family];
      const spent = fund(balance);
      const { status, body } = await send(
        inbound,
        `${family}-bytes`,
        TEXTS[kind as keyof typeof TEXTS](size),
        maxTokens,
      );
      expect(status).toBe(size === 900 ? 200 : 403);
      if (status === 403 && inbound === 'openai-chat') expect(body.error.code).toBe('insufficient_quota');
      expect(spent()).toBeLessThanOrEqual(balance);
      expect(quotaStore.getAccount('k')).toMatchObject({ reserved: 0, overrun: 0 });
      expect(quotaStore.getAccount('k').balance).toBeGreaterThanOrEqual(0);
    },
  );

  it('a call whose bound fits the balance is served, and its charge stays within its hold', async () => {
    for (const family of FAMILIES) {
      const spent = fund(1_000);
      const { status } = await send('openai-chat', `${family}-bytes`, TEXTS.digits(300), 100);
      expect(status).toBe(200);
      const settle = quotaStore.settles.at(-1)!;
      expect(settle.actual).toBe(spent());
      expect(settle.actual).toBeGreaterThanOrEqual(300);
      expect(settle.actual).toBeLessThanOrEqual(settle.reservation.amount);
      expect(settle.info).toEqual({ settlement: 'completed', overrun: 0 });
    }
  });
});

describe('ten concurrent calls on a balance of 10,000', () => {
  it.each(FAMILIES)('%s upstream: never spend more than the balance in total', async (family) => {
    const spent = fund(10_000);
    const kinds = Object.keys(TEXTS) as Array<keyof typeof TEXTS>;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        send('openai-chat', `${family}-bytes`, TEXTS[kinds[index % kinds.length]!](1_500), 200),
      ),
    );
    const served = results.filter((result) => result.status === 200);
    expect(served.length + results.filter((result) => result.status === 403).length).toBe(10);
    expect(served.length).toBeGreaterThan(0);
    expect(spent()).toBe(served.reduce((sum, result) => sum + result.body.usage.total_tokens, 0));
    expect(spent()).toBeLessThanOrEqual(10_000);
    expect(quotaStore.getAccount('k')).toMatchObject({ reserved: 0, overrun: 0 });
  });
});

describe('a fallback chain', () => {
  it('is held at the largest bound of its models: an exact local count does not cover an upstream fallback', async () => {
    fund(1_000_000);
    const text = TEXTS.digits(900);
    const { status } = await send('openai-chat', 'local-then-anthropic', text, 10);
    expect(status).toBe(200);
    const local = countRequestTokens({
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    });
    expect(local).toBeLessThan(900);
    expect(quotaStore.reserves.at(-1)).toBeGreaterThanOrEqual(Buffer.byteLength(text) + 10);
  });
});

describe('images are held at their upstream family’s per-image bound', () => {
  const image = [
    { type: 'text', text: 'What is this?' },
    {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}` },
    },
  ];
  it.each([
    ['openai-bytes', OPENAI_MAX_IMAGE_TOKENS, HOLD_INPUT_PRICE.openai],
    ['openai-4o-mini', GPT_4O_MINI_MAX_IMAGE_TOKENS, HOLD_INPUT_PRICE.openai],
    ['anthropic-bytes', ANTHROPIC_MAX_IMAGE_TOKENS, HOLD_INPUT_PRICE.anthropic],
    ['gemini-bytes', GEMINI_MAX_IMAGE_TOKENS, HOLD_INPUT_PRICE.gemini],
  ])('%s: at least %d input tokens held for one image', async (model, perImage, price) => {
    fund(1_000_000);
    const { status } = await send('openai-chat', model, image, 10);
    expect(status).toBe(200);
    const input = perImage + Buffer.byteLength('What is this?');
    expect(quotaStore.reserves.at(-1)).toBeGreaterThanOrEqual(input * price + 10);
    expect(quotaStore.reserves.at(-1)).toBeLessThan((perImage + 1_000) * price);
  });
});

describe('an upstream that reports more than the bound', () => {
  it.each(FAMILIES)(
    '%s upstream: the overrun is charged in full, reported to the store, and the key is refused until funded',
    async (family) => {
      const spent = fund(50_000);
      const { status, body } = await send('openai-chat', `${family}-over`, 'hello', 10);
      expect(status).toBe(200);
      expect(body.usage.prompt_tokens).toBe(OVER_INPUT_TOKENS);
      expect(spent()).toBe(OVER_INPUT_TOKENS + 1);
      const settle = quotaStore.settles.at(-1)!;
      expect(settle.actual).toBe(OVER_INPUT_TOKENS + 1);
      expect(settle.info).toEqual({
        settlement: 'completed',
        overrun: OVER_INPUT_TOKENS + 1 - settle.reservation.amount,
      });
      expect(settle.info!.overrun).toBeGreaterThan(0);
      const account = quotaStore.getAccount('k');
      expect(account.balance).toBe(50_000 - OVER_INPUT_TOKENS - 1);
      expect(account.overrun).toBeGreaterThanOrEqual(settle.info!.overrun);
      expect((await send('openai-chat', `${family}-bytes`, 'again', 10)).status).toBe(403);
    },
  );
});
