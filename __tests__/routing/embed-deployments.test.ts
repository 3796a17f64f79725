/**
 * Embeddings take the same routes as text (docs/routing.md): an embedding model's deployments share its calls by
 * weight, a failing account's call is retried on another deployment (and that account cooled down), and a model's
 * fallbacks answer when every deployment fails, charged at the prices of the model that answered.
 */
import OpenAI from 'openai';
import {
  LocalProvider,
  MemoryDeploymentStore,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type GatewayOptions,
  type UsageRecord,
} from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { type MockEmbeddings, startMockOpenAIEmbeddings } from '../helpers/mock-embeddings';

const KEY = 'sk-embed-deployments-caller';
const UPSTREAM_KEYS = { a: 'sk-embed-account-a-0123456789', b: 'sk-embed-account-b-0123456789' };

let accounts: { a: MockEmbeddings; b: MockEmbeddings };
beforeAll(async () => {
  const [a, b] = await Promise.all([
    startMockOpenAIEmbeddings({ apiKey: UPSTREAM_KEYS.a }),
    startMockOpenAIEmbeddings({ apiKey: UPSTREAM_KEYS.b }),
  ]);
  accounts = { a, b };
});
afterAll(async () => {
  await Promise.all([accounts.a.close(), accounts.b.close()]);
});
beforeEach(() => {
  for (const account of [accounts.a, accounts.b]) {
    account.bodies.length = 0;
    account.failing = false;
  }
});

async function gateway(records: UsageRecord[], quota: MemoryQuotaStore): Promise<RunningGateway> {
  const options: GatewayOptions = {
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ name: 'acct-a', baseUrl: accounts.a.url, apiKey: UPSTREAM_KEYS.a, retries: { max: 0 } }),
      new OpenAIProvider({ name: 'acct-b', baseUrl: accounts.b.url, apiKey: UPSTREAM_KEYS.b, retries: { max: 0 } }),
    ],
    models: [
      {
        id: 'embed-pool',
        type: 'embedding',
        deployments: [
          { provider: 'acct-a', upstreamModel: 'text-embedding-3-small', name: 'a' },
          { provider: 'acct-b', upstreamModel: 'text-embedding-3-small', name: 'b', weight: 3 },
        ],
        pricing: { input: 2 },
        fallbacks: ['embed-local'],
      },
      {
        id: 'embed-local',
        provider: 'local',
        upstreamModel: 'rosetta-embed',
        type: 'embedding',
        pricing: { input: 5 },
      },
    ],
    deploymentStore: new MemoryDeploymentStore(),
    routing: { affinity: false },
    usageSink: (record) => {
      records.push(record);
    },
  };
  return serveGateway(options);
}

const client = (server: RunningGateway) => new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
const settled = async (records: UsageRecord[], count: number) => {
  for (let spin = 0; records.length < count && spin < 200; spin++)
    await new Promise((resolve) => setImmediate(resolve));
};

describe('embeddings over deployments', () => {
  it('spreads calls by weight over the deployments, and names the one that served each', async () => {
    const records: UsageRecord[] = [];
    const server = await gateway(records, new MemoryQuotaStore({ balances: { caller: 1e9 } }));
    try {
      for (let call = 0; call < 200; call++)
        await client(server).embeddings.create({ model: 'embed-pool', input: `text ${call}` });
      await settled(records, 200);
      const onA = accounts.a.bodies.length;
      const onB = accounts.b.bodies.length;
      expect(onA + onB).toBe(200);
      // Weights 1:3: a quarter on a (binomial, 200 draws: well within 25 ± 12 %).
      expect(onA).toBeGreaterThan(200 * 0.13);
      expect(onA).toBeLessThan(200 * 0.37);
      expect(records.every((record) => record.operation === 'embed')).toBe(true);
      expect(records.filter((record) => record.deployment === 'a')).toHaveLength(onA);
    } finally {
      await server.close();
    }
  });

  it('retries a failing account’s call on the other deployment: the caller sees no error', async () => {
    const records: UsageRecord[] = [];
    const server = await gateway(records, new MemoryQuotaStore({ balances: { caller: 1e9 } }));
    accounts.b.failing = true;
    try {
      for (let call = 0; call < 12; call++) {
        const answer = await client(server).embeddings.create({ model: 'embed-pool', input: ['one', 'two'] });
        expect(answer.data).toHaveLength(2);
      }
      await settled(records, 12);
      expect(accounts.a.bodies).toHaveLength(12);
      // b was tried until it cooled down (3 failures by default), then left alone.
      expect(accounts.b.bodies).toHaveLength(3);
      const retried = records.filter((record) => record.attempts.some((attempt) => attempt.error));
      expect(retried).toHaveLength(3);
      // Once b has failed three times it is passed over while it cools down.
      const cooled = records.indexOf(retried[2]!) + 1;
      expect(cooled).toBeLessThan(records.length);
      expect(records.slice(cooled).every((record) => record.attempts[0]!.skipped === 'cooldown')).toBe(true);
      expect(retried[0]!.attempts.map((attempt) => [attempt.deployment, attempt.error?.status])).toEqual([
        ['b', 503],
        ['a', undefined],
      ]);
    } finally {
      await server.close();
    }
  });

  it('falls back to the next model when every deployment fails, charged at that model’s price', async () => {
    const records: UsageRecord[] = [];
    const quota = new MemoryQuotaStore({ balances: { caller: 1e9 } });
    const server = await gateway(records, quota);
    accounts.a.failing = true;
    accounts.b.failing = true;
    try {
      const answer = await client(server).embeddings.create({ model: 'embed-pool', input: 'a lighthouse' });
      expect(answer.data).toHaveLength(1);
      expect(answer.model).toBe('embed-local');
      await settled(records, 1);
      const [record] = records;
      expect(record!.attempts.map((attempt) => attempt.model)).toEqual(['embed-pool', 'embed-pool', 'embed-local']);
      expect(record!.credits.charged).toBe(record!.usage!.inputTokens * 5);
    } finally {
      await server.close();
    }
  });
});

describe('embedding model options', () => {
  it('an image model still takes one plain deployment; an embedding model takes several', async () => {
    const base = {
      keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
      providers: [
        new OpenAIProvider({ name: 'acct-a', apiKey: 'sk-x' }),
        new OpenAIProvider({ name: 'acct-b', apiKey: 'sk-y' }),
      ],
    };
    const deployments = [
      { provider: 'acct-a', name: 'a' },
      { provider: 'acct-b', name: 'b' },
    ];
    const { createGateway } = await import('../../lib');
    expect(() => createGateway({ ...base, models: [{ id: 'img', type: 'image', deployments }] })).toThrow(
      /image model/,
    );
    expect(() => createGateway({ ...base, models: [{ id: 'emb', type: 'embedding', deployments }] })).not.toThrow();
  });
});
