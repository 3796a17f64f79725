/** countTextTokensUpTo: the exact count up to its limit, read a window at a time; past the limit, some figure above it. */
import { countTextTokens } from '../../lib/extend';
import { countTextTokensUpTo } from '../../lib/tokenizer';

const prose = Array.from(
  { length: 4000 },
  (_, index) => `Sentence ${index}: the quick brown fox, jumping over ${index % 7} lazy dogs — naïve café, 東京!`,
).join(' ');

describe('countTextTokensUpTo', () => {
  it('counts ordinary text exactly across its windows, as countTextTokens does', () => {
    expect(prose.length).toBeGreaterThan(100_000);
    const exact = countTextTokens(prose);
    expect(countTextTokensUpTo(prose, Number.POSITIVE_INFINITY)).toBe(exact);
    expect(countTextTokensUpTo(prose, exact)).toBe(exact);
  });

  it('stops past the limit: a figure above it, for a text far longer', () => {
    const counted = countTextTokensUpTo(prose.repeat(50), 1000);
    expect(counted).toBeGreaterThan(1000);
    expect(counted).toBeLessThan(countTextTokens(prose));
    expect(countTextTokensUpTo('', 10)).toBe(0);
  });
});
