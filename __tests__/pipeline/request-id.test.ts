/**
 * Request ids: `req_` and 32 hex digits, unique, drawn from a pool of random bytes that each gateway keeps to itself.
 */
import crypto from 'node:crypto';
import request from 'supertest';
import { RequestIds } from '../../lib/pipeline/request-id';
import { buildApp } from '../helpers/app';

/** Makes `randomBytes` return the same bytes (0, 1, 2, …) on every call while `body` runs. */
async function withFixedRandomBytes<T>(body: () => Promise<T>): Promise<T> {
  const spy = jest
    .spyOn(crypto, 'randomBytes')
    .mockImplementation(((size: number) =>
      Buffer.from(Array.from({ length: size }, (_, index) => index & 0xff))) as never);
  try {
    return await body();
  } finally {
    spy.mockRestore();
  }
}

describe('request ids', () => {
  it('are req_ and 32 hex digits, unique across several refills of the pool', () => {
    const ids = new RequestIds();
    const made = Array.from({ length: 1_000 }, () => ids.next());
    for (const id of made) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(made).size).toBe(made.length);
  });

  it('each RequestIds draws from its own pool: one drawing does not move another', async () => {
    const [first, second] = await withFixedRandomBytes(async () => {
      const a = new RequestIds();
      const b = new RequestIds();
      a.next();
      a.next();
      return [a.next(), b.next()];
    });
    expect(first).toBe(`req_${Buffer.from(Array.from({ length: 16 }, (_, index) => 32 + index)).toString('hex')}`);
    expect(second).toBe(`req_${Buffer.from(Array.from({ length: 16 }, (_, index) => index)).toString('hex')}`);
  });

  it('two gateways in one process share no id pool: the second gateway starts its own', async () => {
    const [fromA, fromB] = await withFixedRandomBytes(async () => {
      const a = buildApp().app;
      const b = buildApp().app;
      const answerA = await request(a).post('/v1/chat/completions').send({});
      const answerB = await request(b).post('/v1/chat/completions').send({});
      expect(answerA.status).toBe(401);
      expect(answerB.status).toBe(401);
      return [answerA.headers['x-request-id'], answerB.headers['x-request-id']];
    });
    expect(fromA).toMatch(/^req_[0-9a-f]{32}$/);
    // With the same random bytes, each gateway's first id is the first slice of a pool of its own.
    expect(fromB).toBe(fromA);
  });
});
