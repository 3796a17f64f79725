/**
 * Work no hold pays for: counting tokens. A key with nothing to spend is refused before its request
 * is counted, and the exact tokenizer never runs on more than EXACT_COUNT_MAX_CHARS of text.
 */
import { createRequire } from 'node:module';
import request from 'supertest';
import { MemoryKeyStore, MemoryQuotaStore } from '../../lib';
import { countRequestTokens } from '../../lib/extend';
import type { GenerateRequest } from '../../lib/canonical';
import { EXACT_COUNT_MAX_CHARS, requestTokenUpperBound } from '../../lib/tokenizer';
import { buildApp, EMPTY_KEY, TEST_KEY } from '../helpers/app';

const tokenizer = createRequire(__filename)('gpt-tokenizer') as {
  countTokens(text: string): number;
  encode(text: string): number[];
};
const quotaStore = new MemoryQuotaStore({ balances: { rich: 1_000_000_000, empty: 0 } });
const { app } = buildApp({
  keyStore: new MemoryKeyStore([
    { key: TEST_KEY, id: 'rich' },
    { key: EMPTY_KEY, id: 'empty' },
  ]),
  quotaStore,
  maxBodyBytes: 16 * 1024 * 1024,
});

/** How many times the tokenizer was asked to count or encode while `run` ran. */
async function tokenizerCalls(run: () => Promise<void>): Promise<number> {
  const count = jest.spyOn(tokenizer, 'countTokens');
  const encode = jest.spyOn(tokenizer, 'encode');
  try {
    await run();
    return count.mock.calls.length + encode.mock.calls.length;
  } finally {
    count.mockRestore();
    encode.mockRestore();
  }
}

const text = (chars: number) => 'lorem ipsum dolor sit amet, '.repeat(Math.ceil(chars / 28)).slice(0, chars);
const canonical = (content: string): GenerateRequest => ({
  model: 'rosetta-echo',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: content }] }],
});

describe('a key with zero balance, counting', () => {
  it('Anthropic count_tokens: 403 billing_error before the tokenizer runs, and no hold left', async () => {
    const body = { model: 'rosetta-echo', messages: [{ role: 'user', content: text(500_000) }] };
    let res: request.Response | undefined;
    expect(
      await tokenizerCalls(async () => {
        res = await request(app).post('/v1/messages/count_tokens').set('x-api-key', EMPTY_KEY).send(body);
      }),
    ).toBe(0);
    expect(res!.status).toBe(403);
    expect(res!.body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(quotaStore.getAccount('empty')).toMatchObject({ reserved: 0, spent: 0 });
  });

  it('Gemini countTokens: 403 in the Gemini envelope', async () => {
    const res = await request(app)
      .post('/v1beta/models/rosetta-echo:countTokens')
      .set('x-goog-api-key', EMPTY_KEY)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 403 });
  });

  it('a local-model call: refused without running the tokenizer on a large prompt', async () => {
    let status = 0;
    expect(
      await tokenizerCalls(async () => {
        status = (
          await request(app)
            .post('/v1/chat/completions')
            .set('authorization', `Bearer ${EMPTY_KEY}`)
            .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: text(EXACT_COUNT_MAX_CHARS + 10) }] })
        ).status;
      }),
    ).toBe(0);
    expect(status).toBe(403);
  });

  it('a funded key still counts, and its hold is released', async () => {
    const res = await request(app)
      .post('/v1/messages/count_tokens')
      .set('x-api-key', TEST_KEY)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'How many tokens is this?' }] });
    expect(res.status).toBe(200);
    expect(res.body.input_tokens).toBe(countRequestTokens(canonical('How many tokens is this?')));
    expect(quotaStore.getAccount('rich')).toMatchObject({ reserved: 0, spent: 0 });
  });
});

describe('the exact count has a size cap', () => {
  it('up to EXACT_COUNT_MAX_CHARS of text is counted exactly', async () => {
    const request = canonical(text(EXACT_COUNT_MAX_CHARS - 100));
    const exact = countRequestTokens(request);
    expect(exact).toBeLessThan(requestTokenUpperBound(request) / 3);
  });

  it('over it, the count is the byte upper bound, without the tokenizer', async () => {
    const big = canonical(`${text(EXACT_COUNT_MAX_CHARS + 1)} 数字`);
    let counted = 0;
    expect(
      await tokenizerCalls(async () => {
        counted = countRequestTokens(big);
      }),
    ).toBe(0);
    expect(counted).toBe(requestTokenUpperBound(big));
    expect(counted).toBe(
      3 +
        3 +
        Buffer.byteLength(
          big.messages[0]!.content[0]!.type === 'text' ? (big.messages[0]!.content[0] as { text: string }).text : '',
        ),
    );
  });

  it('count_tokens of a 2 MB request answers the upper bound', async () => {
    const content = text(2 * 1024 * 1024);
    const res = await request(app)
      .post('/v1/messages/count_tokens')
      .set('x-api-key', TEST_KEY)
      .send({ model: 'rosetta-echo', messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    expect(res.body.input_tokens).toBe(requestTokenUpperBound(canonical(content)));
  });

  it('the upper bound is never below the exact count (digits, CJK, code)', () => {
    for (const sample of [
      '1234567890'.repeat(50),
      '数据库连接失败，请重试。'.repeat(30),
      'const x = {a: [1, 2, 3]};\n'.repeat(20),
      text(5000),
    ]) {
      const request = canonical(sample);
      expect(requestTokenUpperBound(request)).toBeGreaterThanOrEqual(countRequestTokens(request));
    }
  });
});
