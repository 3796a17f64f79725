/**
 * Session affinity (docs/routing.md): a session stays on the deployment that served it, moves once when that one
 * fails and stays on the new one; sessions are told apart by header, prompt-cache key, Anthropic user id or the
 * conversation's opening; every inbound protocol, streamed and not, with no upstream key in any answer.
 */
import { MemoryDeploymentStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { type Json, type RunningGateway, serveGateway, TEST_KEY, testOptions } from '../helpers/app';
import { type MockAccounts, startMockAccounts } from '../helpers/mock-accounts';

const KEYS = ['sk-aff-account-0-0123456789', 'sk-aff-account-1-0123456789', 'sk-aff-account-2-0123456789'];

let mock: MockAccounts;
let gateway: RunningGateway;
let records: UsageRecord[];
let store: MemoryDeploymentStore;

beforeAll(async () => {
  mock = await startMockAccounts();
});
afterAll(() => mock.close());
beforeEach(async () => {
  mock.reset();
  records = [];
  store = new MemoryDeploymentStore({ maxSessions: 1000 });
  gateway = await serveGateway(
    testOptions({
      providers: KEYS.map(
        (apiKey, index) =>
          new OpenAIProvider({ name: `acct-${index}`, apiKey, baseUrl: mock.url, retries: { max: 0 } }),
      ),
      models: [
        {
          id: 'pool',
          upstreamModel: 'shared-upstream',
          deployments: KEYS.map((_, index) => ({ provider: `acct-${index}`, name: `d${index}` })),
        },
        { id: 'other', deployments: KEYS.map((_, index) => ({ provider: `acct-${index}`, name: `o${index}` })) },
      ],
      deploymentStore: store,
      usageSink: (record) => {
        records.push(record);
      },
    }),
  );
});
afterEach(() => gateway.close());

/** Which account served each call so far, by its key's index. */
function servedBy(): number[] {
  return KEYS.map((key) => mock.calls.get(key) ?? 0);
}

async function chat(messages: unknown[], headers: Record<string, string> = {}, body: Json = {}): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'pool', messages, ...body }),
  });
  await response.text();
  return response.status;
}

async function settled(count: number): Promise<void> {
  for (let tries = 0; records.length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 5));
}

describe('session affinity', () => {
  it('a 20-turn session lands on one deployment every turn; when it fails the session moves once and stays', async () => {
    const headers = { 'x-session-id': 'session-twenty' };
    const history: unknown[] = [{ role: 'system', content: 'You are terse.' }];
    for (let turn = 0; turn < 20; turn++) {
      history.push({ role: 'user', content: `turn ${turn}` });
      expect(await chat(history, headers)).toBe(200);
      history.push({ role: 'assistant', content: 'ok' });
    }
    const first = servedBy().findIndex((count) => count === 20);
    expect(first).toBeGreaterThanOrEqual(0);
    await settled(20);
    expect(records.map((record) => record.affinity)).toEqual(['new', ...Array(19).fill('held')]);

    mock.setMode(KEYS[first]!, { status: 500 });
    for (let turn = 20; turn < 30; turn++) {
      history.push({ role: 'user', content: `turn ${turn}` });
      expect(await chat(history, headers)).toBe(200);
    }
    const after = servedBy();
    expect(after[first]).toBe(21);
    const second = after.findIndex((count, index) => index !== first && count > 0);
    expect(after[second]).toBe(10);
    expect(after.reduce((sum, count) => sum + count, 0)).toBe(31);
    await settled(30);
    expect(records.slice(20).map((record) => record.affinity)).toEqual(['moved', ...Array(9).fill('held')]);
    expect(records[20]!.attempts.map((attempt) => attempt.error?.status)).toEqual([502, undefined]);
  });

  it('sessions spread over the deployments, each kept on its own', async () => {
    for (let session = 0; session < 60; session++)
      for (let turn = 0; turn < 2; turn++)
        expect(await chat([{ role: 'user', content: `turn ${turn}` }], { 'x-session-id': `s-${session}` })).toBe(200);
    await settled(120);
    const bySession = new Map<string, Set<string>>();
    records.forEach((record, index) => {
      const session = `s-${Math.floor(index / 2)}`;
      if (!bySession.has(session)) bySession.set(session, new Set());
      bySession.get(session)!.add(record.deployment!);
    });
    for (const deployments of bySession.values()) expect(deployments.size).toBe(1);
    for (const count of servedBy()) expect(count).toBeGreaterThan(10);
  });

  it('names a session by Claude Code’s and Codex’s headers, the prompt-cache key, or the conversation’s opening', async () => {
    const ways: Array<[Record<string, string>, Json, () => unknown[]]> = [
      [{ 'x-claude-code-session-id': 'cc-1' }, {}, () => [{ role: 'user', content: `q${Math.random()}` }]],
      [{ session_id: 'codex-1' }, {}, () => [{ role: 'user', content: `q${Math.random()}` }]],
      [{}, { prompt_cache_key: 'cache-1' }, () => [{ role: 'user', content: `q${Math.random()}` }]],
      [
        {},
        {},
        () => [
          { role: 'system', content: 'fixed system' },
          { role: 'user', content: 'fixed opening' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: `q${Math.random()}` },
        ],
      ],
    ];
    for (const [headers, body, messages] of ways) {
      records.length = 0;
      for (let turn = 0; turn < 8; turn++) expect(await chat(messages(), headers, body)).toBe(200);
      await settled(8);
      expect(new Set(records.map((record) => record.deployment)).size).toBe(1);
      expect(records.slice(1).every((record) => record.affinity === 'held')).toBe(true);
    }
  });

  it('the model is part of the session: the same session on two models is two sessions', async () => {
    await chat([{ role: 'user', content: 'x' }], { 'x-session-id': 'shared' });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', 'x-session-id': 'shared' },
      body: JSON.stringify({ model: 'other', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    await settled(2);
    expect(records.map((record) => record.affinity)).toEqual(['new', 'new']);
  });

  it('affinity memory is bounded: the least recently used session is forgotten past maxSessions', () => {
    const small = new MemoryDeploymentStore({ maxSessions: 3 });
    for (let session = 0; session < 5; session++) small.setAffinity(`s${session}`, 'd0', 60_000);
    expect(small.sessionCount).toBe(3);
    expect(small.affinity('s0')).toBeUndefined();
    expect(small.affinity('s4')).toBe('d0');
  });
});

describe('every inbound protocol, streamed and not', () => {
  const calls: Array<[string, string, Record<string, string>, (stream: boolean) => Json]> = [
    [
      'openai-chat',
      '/v1/chat/completions',
      { authorization: `Bearer ${TEST_KEY}` },
      (stream) => ({ model: 'pool', stream, messages: [{ role: 'user', content: 'hello' }] }),
    ],
    [
      'anthropic',
      '/v1/messages',
      { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' },
      (stream) => ({
        model: 'pool',
        stream,
        max_tokens: 50,
        metadata: { user_id: 'user_abc_account__session_1234' },
        messages: [{ role: 'user', content: 'hello' }],
      }),
    ],
    [
      'responses',
      '/v1/responses',
      { authorization: `Bearer ${TEST_KEY}` },
      (stream) => ({ model: 'pool', stream, input: 'hello', prompt_cache_key: 'resp-cache' }),
    ],
    [
      'gemini',
      '/v1beta/models/pool:STREAM',
      { 'x-goog-api-key': TEST_KEY },
      () => ({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
    ],
  ];

  it.each(calls)(
    '%s: served by one deployment per session, no upstream key in any answer',
    async (_, path, auth, body) => {
      for (const stream of [false, true]) {
        records.length = 0;
        const target = path.replace(':STREAM', stream ? ':streamGenerateContent?alt=sse' : ':generateContent');
        for (let turn = 0; turn < 4; turn++) {
          const response = await fetch(`${gateway.url}${target}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-session-id': `proto-${path}-${stream}`, ...auth },
            body: JSON.stringify(body(stream)),
          });
          const text = await response.text();
          expect(response.status).toBe(200);
          expect(text).toContain('served by');
          for (const key of KEYS) expect(text).not.toContain(key);
          for (const value of response.headers.values()) for (const key of KEYS) expect(value).not.toContain(key);
        }
        await settled(4);
        expect(records).toHaveLength(4);
        expect(new Set(records.map((record) => record.deployment)).size).toBe(1);
        expect(records.every((record) => record.outcome === 'ok' && record.stream === stream)).toBe(true);
        for (const key of KEYS) expect(JSON.stringify(records)).not.toContain(key);
      }
    },
  );
});
