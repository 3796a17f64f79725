/**
 * A call's quota hold as one object: reserved at the bound over the fallback chain (priced at its
 * priciest model), output capped by a partial hold, settled with overruns reported, released on failure.
 */
import type { GenerateRequest, Provider } from '../../lib';
import { GatewayError } from '../../lib';
import { resolveProvider } from '../../lib/resolved-provider';
import type { ResolvedModel } from '../../lib/models';
import { QuotaHold, requireBalance, TextHold } from '../../lib/pipeline/quota-hold';
import { inputTokenBound, measureInput, DEFAULT_MAX_IMAGE_TOKENS } from '../../lib/token-bound';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const principal = { id: 'caller' };
const request: GenerateRequest = {
  model: 'cheap',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello there, how are you?' }] }],
};
const bound = inputTokenBound(measureInput(request), DEFAULT_MAX_IMAGE_TOKENS);

function provider(countTokens?: number): Provider {
  return {
    specificationVersion: 'v1',
    name: 'fake',
    ...(countTokens === undefined ? {} : { countTokens: () => countTokens }),
  };
}

/** A model whose chain is itself and then `fallbacks`. */
function model(
  id: string,
  pricing: { input: number; output: number },
  fallbacks: ResolvedModel[] = [],
  counts?: number,
): ResolvedModel {
  const resolvedProvider = resolveProvider(provider(counts));
  const resolved = {
    id,
    type: 'text',
    provider: resolvedProvider,
    upstreamModel: `${id}-upstream`,
    deployments: [
      {
        name: id,
        provider: resolvedProvider,
        upstreamModel: `${id}-upstream`,
        weight: 1,
        priority: 0,
        scopes: undefined,
      },
    ],
    deploymentNames: [id],
    router: undefined,
    maxOutputTokens: 100,
    pricing: {
      ...pricing,
      image: 0,
      cacheRead: pricing.input,
      cacheWrite: pricing.input,
      cacheWriteLong: pricing.input,
    },
    info: { id, type: 'text', ownedBy: 'fake', displayName: id, created: 0 },
    chain: [] as ResolvedModel[],
  } satisfies ResolvedModel;
  resolved.chain = [resolved, ...fallbacks];
  return resolved;
}

describe('TextHold.reserveText', () => {
  it('holds the input bound and the full output at the priciest model of the chain, and gives the provider the model id and output cap', async () => {
    const store = new RecordingQuotaStore();
    const requested = model('cheap', { input: 1, output: 2 }, [model('dear', { input: 3, output: 5 })]);
    const hold = await TextHold.reserveText(store, request, requested, principal, 'req_1');
    expect(store.reserves).toEqual([bound * 3 + 100 * 5]);
    expect(hold.reservation.amount).toBe(bound * 3 + 100 * 5);
    expect(hold.request).toMatchObject({ model: 'cheap', maxOutputTokens: 100 });
    expect(hold.countedInput).toBeUndefined();
  });

  it('holds the largest estimate of the chain, each model at its own prices (dear input beats dear output)', async () => {
    const store = new RecordingQuotaStore();
    const dearOutput = model('dear-output', { input: 1, output: 10 }, [model('dear-input', { input: 50, output: 9 })]);
    await TextHold.reserveText(store, request, dearOutput, principal, 'req_5');
    expect(store.reserves).toEqual([Math.max(bound * 1 + 100 * 10, bound * 50 + 100 * 9)]);
  });

  it('a partial hold caps the output so that every model of the chain stays within it', async () => {
    const held = bound * 4 + 40;
    const store = new RecordingQuotaStore({ balances: { caller: held } });
    const chain = model('cheap-input', { input: 1, output: 2 }, [model('dear-input', { input: 4, output: 1 })]);
    const hold = await TextHold.reserveText(store, { ...request, maxOutputTokens: 50 }, chain, principal, 'req_6');
    expect(hold.reservation.amount).toBe(held);
    // cheap-input could pay (held − bound) / 2 output tokens; dear-input only (held − 4 × bound) / 1 = 40.
    expect(hold.request.maxOutputTokens).toBe(Math.min(40, Math.floor((held - bound) / 2)));
  });

  it('a partial hold caps the output at what it pays for', async () => {
    const held = bound + 10 * 2 + 1;
    const store = new RecordingQuotaStore({ balances: { caller: held } });
    const hold = await TextHold.reserveText(
      store,
      { ...request, maxOutputTokens: 50 },
      model('cheap', { input: 1, output: 2 }),
      principal,
      'req_2',
    );
    expect(hold.reservation.amount).toBe(held);
    expect(hold.request.maxOutputTokens).toBe(10);
  });

  it("sizes the hold on the largest count of the chain, and keeps the requested model's own count", async () => {
    const store = new RecordingQuotaStore();
    const requested = model(
      'counted',
      { input: 1, output: 1 },
      [model('counts-more', { input: 1, output: 1 }, [], bound * 4)],
      7,
    );
    const hold = await TextHold.reserveText(store, request, requested, principal, 'req_3');
    expect(store.reserves).toEqual([bound * 4 + 100]);
    expect(hold.countedInput).toBe(7);
  });

  it('refuses a key that cannot pay the minimum with insufficient_quota', async () => {
    const store = new RecordingQuotaStore({ balances: { caller: 1 } });
    await expect(
      TextHold.reserveText(store, request, model('cheap', { input: 1, output: 1 }), principal, 'req_4'),
    ).rejects.toMatchObject({ kind: 'insufficient_quota' });
  });
});

describe('QuotaHold settle and release', () => {
  const image = model('image', { input: 1, output: 1 });

  it('settles with the settlement and no overrun within the hold, and an overrun beyond it, charged in full', async () => {
    const store = new RecordingQuotaStore({ balances: { caller: 1_000 } });
    const within = await QuotaHold.reserve(store, principal, { amount: 100, minimum: 100 }, image, 'image', 'req_5');
    await within.settle(60, 'completed');
    const beyond = await QuotaHold.reserve(store, principal, { amount: 100, minimum: 100 }, image, 'image', 'req_6');
    await beyond.settle(130, 'completed');
    expect(store.settles.map(({ actual, info }) => ({ actual, info }))).toEqual([
      { actual: 60, info: { settlement: 'completed', overrun: 0 } },
      { actual: 130, info: { settlement: 'completed', overrun: 30 } },
    ]);
    expect(store.getAccount('caller')).toMatchObject({ balance: 1_000 - 190, reserved: 0, overrun: 30 });
  });

  it('a store that fails to settle is a 503; the hold can then be released', async () => {
    const store = new RecordingQuotaStore({ balances: { caller: 1_000 } });
    store.settle = () => {
      throw new Error('store down');
    };
    const hold = await QuotaHold.reserve(store, principal, { amount: 100, minimum: 100 }, image, 'image', 'req_7');
    const failure = await hold.settle(10, 'completed').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'unavailable', retryAfter: 1 });
    await hold.release();
    expect(store.releases).toHaveLength(1);
    expect(store.getAccount('caller')).toMatchObject({ balance: 1_000, reserved: 0 });
  });

  it('settleQuietly logs a failing store instead of throwing', async () => {
    const store = new RecordingQuotaStore();
    store.settle = () => {
      throw new Error('store down');
    };
    const hold = await QuotaHold.reserve(store, principal, { amount: 100, minimum: 100 }, image, 'image', 'req_8');
    await expect(hold.settleQuietly(10, 'completed')).resolves.toBeUndefined();
  });

  it.each([
    ['completed', false, false, 'completed', 7 + 2 * 5],
    [undefined, true, false, 'cancelled', 7 + 2 * 5],
    ['failed', false, false, 'failed-free', 0],
    ['failed', false, true, 'failed-charged', 7 + 2 * 5],
    [undefined, false, false, 'failed-free', 0],
  ] as const)(
    'a stream that ended %s (aborted: %s, chargeFailedStreams: %s) settles %s for %d',
    async (ended, aborted, chargeFailed, settlement, charge) => {
      const store = new RecordingQuotaStore();
      const text = model('text', { input: 1, output: 2 });
      const hold = await TextHold.reserveText(store, request, text, principal, 'req_9');
      await hold.settleStream(ended, aborted, { inputTokens: 7, outputTokens: 5 }, text, chargeFailed);
      expect(store.settles.map(({ actual, info }) => ({ actual, settlement: info?.settlement }))).toEqual([
        { actual: charge, settlement },
      ]);
    },
  );
});

describe('requireBalance', () => {
  it('refuses a key with nothing to spend, and leaves no hold open for one that has', async () => {
    const store = new RecordingQuotaStore({ balances: { caller: 0, rich: 10 } });
    const text = model('text', { input: 1, output: 1 });
    await expect(
      requireBalance(store, principal, { model: text.id, operation: 'count-tokens', requestId: 'req_10' }),
    ).rejects.toMatchObject({
      kind: 'insufficient_quota',
    });
    await requireBalance(store, { id: 'rich' }, { model: text.id, operation: 'count-tokens', requestId: 'req_11' });
    expect(store.releases).toHaveLength(1);
    expect(store.getAccount('rich')).toMatchObject({ balance: 10, reserved: 0 });
  });
});
