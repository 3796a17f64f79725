/**
 * The tallies' latency histogram (lib/usage/tally.ts): every duration's bin stands for a value within the error the docs
 * state (exact whole ms below 32 ms, within 1/32 above), bins are in the order of their durations, and a histogram's
 * percentiles are those of the durations within that error.
 */
import { addDuration, emptyTally, histogramBin, histogramPercentile, histogramValue } from '../../lib/usage/tally';

it('gives each duration a bin whose value is exact below 32 ms and within 1/32 above', () => {
  let previous = -1;
  for (let ms = 0; ms <= 2_000_000; ms += ms < 5_000 ? 1 : 97) {
    const bin = histogramBin(ms);
    expect(bin).toBeGreaterThanOrEqual(previous);
    previous = bin;
    const value = histogramValue(bin);
    if (ms < 32) expect(value).toBe(ms);
    else expect(Math.abs(value - ms)).toBeLessThanOrEqual(ms / 32);
  }
  for (const power of [32, 64, 1024, 2 ** 20]) expect(histogramValue(histogramBin(power))).toBeGreaterThan(power);
});

it('answers nearest-rank percentiles within a bin, never above the largest duration', () => {
  const { latency } = emptyTally();
  const durations = Array.from({ length: 1_000 }, (_, index) => Math.floor(5 + index * index * 0.37));
  for (const ms of durations) addDuration(latency, ms);
  const sorted = [...durations].sort((a, b) => a - b);
  for (const q of [0.5, 0.9, 0.95, 0.99, 1]) {
    const exact = sorted[Math.ceil(q * sorted.length) - 1]!;
    expect(Math.abs(histogramPercentile(latency, q)! - exact)).toBeLessThanOrEqual(exact / 32);
  }
  expect(histogramPercentile(latency, 1)).toBeLessThanOrEqual(latency.max!);
  expect(latency.max).toBe(sorted[sorted.length - 1]);
  expect(histogramPercentile(emptyTally().latency, 0.5)).toBeNull();
});
