/**
 * Who pays for a stream that did not finish: the caller who cancels pays for what was produced; a
 * stream the upstream broke is free unless `chargeFailedStreams` is on. For every upstream family.
 */
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type ModelConfig } from '../../lib';
import { countTextTokens } from '../../lib/tokenizer';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { METERED_KEY, STREAM_TEXT, startMockMetered, type MockMetered } from '../helpers/mock-metered';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const KEY = 'sk-failed-streams-caller-1';
const BALANCE = 1_000_000;
const FAMILIES = ['openai', 'anthropic', 'gemini'] as const;

let mock: MockMetered;
beforeAll(async () => {
  mock = await startMockMetered();
});
afterAll(() => mock.close());

/** A gateway over the mock, each family's models named `<family>-<behaviour>`, on a fresh balance. */
async function start(
  chargeFailedStreams?: boolean,
): Promise<{ gateway: RunningGateway; quotaStore: RecordingQuotaStore }> {
  const quotaStore = new RecordingQuotaStore({ balances: { k: BALANCE } });
  const models: ModelConfig[] = FAMILIES.flatMap((family) =>
    ['fail', 'cut', 'hang'].map((upstream) => ({
      id: `${family}-${upstream}`,
      provider: family,
      upstreamModel: upstream,
    })),
  );
  const gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'k' }]),
    quotaStore,
    providers: [
      new OpenAIProvider({ baseUrl: `${mock.origin}/v1`, apiKey: METERED_KEY, retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: mock.origin, apiKey: METERED_KEY, retries: { max: 0 } }),
      new GeminiProvider({ baseUrl: `${mock.origin}/v1beta`, apiKey: METERED_KEY, retries: { max: 0 } }),
    ],
    models,
    ...(chargeFailedStreams === undefined ? {} : { chargeFailedStreams }),
  });
  return { gateway, quotaStore };
}

const chat = (gateway: RunningGateway, model: string, stream: boolean, signal?: AbortSignal) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      stream,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Tell me a long story.' }],
    }),
    ...(signal ? { signal } : {}),
  });

/** Waits until the store has seen `count` settles and nothing is held. */
async function settled(quotaStore: RecordingQuotaStore, count: number): Promise<void> {
  for (let waited = 0; waited < 3_000; waited += 10) {
    if (quotaStore.settles.length >= count && quotaStore.getAccount('k').reserved === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`expected ${count} settles, saw ${quotaStore.settles.length}`);
}

describe.each(FAMILIES)('%s upstream', (family) => {
  describe('by default (chargeFailedStreams off)', () => {
    let gateway: RunningGateway;
    let quotaStore: RecordingQuotaStore;
    beforeAll(async () => ({ gateway, quotaStore } = await start()));
    afterAll(() => gateway.close());

    it.each(['fail', 'cut'])(
      'a stream that breaks mid-way (%s) reaches the caller as an error, and the balance is unchanged',
      async (behaviour) => {
        const settles = quotaStore.settles.length;
        const response = await chat(gateway, `${family}-${behaviour}`, true);
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(text).toContain(STREAM_TEXT[1]);
        expect(text).toMatch(/"error"/);
        await settled(quotaStore, settles + 1);
        expect(quotaStore.settles.at(-1)).toMatchObject({ actual: 0, info: { settlement: 'failed-free', overrun: 0 } });
        expect(quotaStore.getAccount('k')).toMatchObject({ balance: BALANCE, spent: 0, reserved: 0 });
      },
    );

    it('a caller that cancels mid-stream pays for the input and the output it was sent', async () => {
      const settles = quotaStore.settles.length;
      const controller = new AbortController();
      const response = await chat(gateway, `${family}-hang`, true, controller.signal);
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes(STREAM_TEXT[1])) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended before the second delta');
        text += decoder.decode(value, { stream: true });
      }
      controller.abort();
      await settled(quotaStore, settles + 1);
      const settle = quotaStore.settles.at(-1)!;
      expect(settle.info).toEqual({ settlement: 'cancelled', overrun: 0 });
      expect(settle.actual).toBeGreaterThan(countTextTokens(STREAM_TEXT.join('')));
      expect(quotaStore.getAccount('k').spent).toBe(settle.actual);
      expect(quotaStore.getAccount('k').balance).toBe(BALANCE - settle.actual);
      quotaStore.setBalance('k', BALANCE);
    });

    it('a non-streamed call the upstream fails is released, not charged', async () => {
      const releases = quotaStore.releases.length;
      const { balance, spent } = quotaStore.getAccount('k');
      const response = await chat(gateway, `${family}-fail`, false);
      expect(response.status).toBe(502);
      expect(quotaStore.releases.length).toBe(releases + 1);
      expect(quotaStore.getAccount('k')).toMatchObject({ balance, spent, reserved: 0 });
    });
  });

  describe('with chargeFailedStreams: true', () => {
    let gateway: RunningGateway;
    let quotaStore: RecordingQuotaStore;
    beforeAll(async () => ({ gateway, quotaStore } = await start(true)));
    afterAll(() => gateway.close());

    it.each(['fail', 'cut'])(
      'a stream that breaks mid-way (%s) is charged its input and the output produced',
      async (behaviour) => {
        const settles = quotaStore.settles.length;
        const before = quotaStore.getAccount('k').spent;
        const response = await chat(gateway, `${family}-${behaviour}`, true);
        expect(await response.text()).toContain(STREAM_TEXT[1]);
        await settled(quotaStore, settles + 1);
        const settle = quotaStore.settles.at(-1)!;
        expect(settle.info).toEqual({ settlement: 'failed-charged', overrun: 0 });
        expect(settle.actual).toBeGreaterThan(countTextTokens(STREAM_TEXT.join('')));
        expect(quotaStore.getAccount('k').spent - before).toBe(settle.actual);
      },
    );
  });
});
