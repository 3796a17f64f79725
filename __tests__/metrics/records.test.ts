/** The metrics fed by real calls: each finished call's usage record reaches the gateway's metrics. */
import express from 'express';
import request from 'supertest';
import { createGateway } from '../../lib';
import { EMPTY_KEY, TEST_KEY, testOptions } from '../helpers/app';
import { sampleValue } from '../helpers/prometheus';

function served() {
  const app = express();
  const gateway = createGateway(testOptions());
  app.get('/metrics', gateway.metrics);
  app.use(gateway);
  return { app, gateway };
}

async function scrape(app: express.Express): Promise<string> {
  const response = await request(app).get('/metrics');
  expect(response.status).toBe(200);
  return response.text;
}

/** Scrapes until `name` with `labels` reads `expected` (a record is emitted once the response has ended). */
async function waitFor(app: express.Express, name: string, labels: Record<string, string>, expected: number) {
  let value: number | undefined;
  for (let attempt = 0; attempt < 100; attempt++) {
    value = sampleValue(await scrape(app), name, labels);
    if (value === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(value).toBe(expected);
}

describe('metrics from real calls', () => {
  it('counts an answered call, its tokens and credits, and a refusal for lack of credits', async () => {
    const { app, gateway } = served();
    try {
      const answered = await request(app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${TEST_KEY}`)
        .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'count me' }] });
      expect(answered.status).toBe(200);
      const calls = {
        protocol: 'openai-chat',
        operation: 'generate',
        model: 'rosetta-echo',
        provider: 'local',
        outcome: 'ok',
        status_class: '2xx',
      };
      await waitFor(app, 'rosetta_calls_total', calls, 1);
      const text = await scrape(app);
      const { prompt_tokens, completion_tokens } = answered.body.usage;
      const tokens = (kind: string) =>
        sampleValue(text, 'rosetta_tokens_total', { model: 'rosetta-echo', provider: 'local', kind });
      expect(tokens('input')).toBe(prompt_tokens);
      expect(tokens('output')).toBe(completion_tokens);
      expect(sampleValue(text, 'rosetta_credits_charged_total', { model: 'rosetta-echo' })).toBeGreaterThan(0);

      const refused = await request(app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${EMPTY_KEY}`)
        .send({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'no credits' }] });
      expect(refused.status).toBe(403);
      const reason = { protocol: 'openai-chat', model: 'rosetta-echo', reason: 'insufficient_quota' };
      await waitFor(app, 'rosetta_refusals_total', reason, 1);
    } finally {
      await gateway.close();
    }
  });
});
