/** StreamMeter: the input figure a stream's start shows is never 0, whatever its provider said. */
import type { GenerateRequest } from '../../lib';
import { StreamMeter } from '../../lib/stream/meter';

const request: GenerateRequest = {
  model: 'm',
  stream: true,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
};
const start = (usage?: { inputTokens?: number; cacheReadTokens?: number }) =>
  ({ type: 'response-start', id: 'r', model: 'm', created: 0, ...(usage ? { usage } : {}) }) as const;

describe('StreamMeter and the input figure of response-start', () => {
  it.each([
    ['no usage', undefined],
    ['usage without an input count', { cacheReadTokens: 0 }],
    ['an input count of 0 (some upstreams say 0 until their last chunk)', { inputTokens: 0 }],
  ])('%s: the gateway estimate stands in, and a finish without input is charged the request counted', (_, usage) => {
    const meter = new StreamMeter(request, 17);
    const observed = meter.observe(start(usage));
    expect(observed.type === 'response-start' && observed.usage?.inputTokens).toBe(17);
    const finish = meter.observe({ type: 'finish', usage: { outputTokens: 3 }, finishReason: { unified: 'stop' } });
    expect(finish.type === 'finish' && finish.usage.inputTokens).toBeGreaterThan(0);
  });

  it('a reported count is kept, and is what a finish without input is charged', () => {
    const meter = new StreamMeter(request, 17);
    const observed = meter.observe(start({ inputTokens: 42 }));
    expect(observed.type === 'response-start' && observed.usage?.inputTokens).toBe(42);
    const finish = meter.observe({ type: 'finish', usage: { outputTokens: 3 }, finishReason: { unified: 'stop' } });
    expect(finish.type === 'finish' && finish.usage.inputTokens).toBe(42);
  });
});
