/** Array steps for request-sized data: no spread of a caller's items as function arguments. */
import { appendAll, maxOf } from '../../lib/arrays';

it('appendAll appends 300,000 items, where a spread push throws', () => {
  const items = Array.from({ length: 300_000 }, (_, index) => index);
  expect(() => [].push(...(items as never[]))).toThrow(RangeError);
  const target = [-1];
  expect(appendAll(target, items)).toBe(target);
  expect(target).toHaveLength(300_001);
  expect(target.at(-1)).toBe(299_999);
});

it('maxOf takes the largest of 300,000 numbers, and -Infinity of none', () => {
  const numbers = Array.from({ length: 300_000 }, (_, index) => index);
  numbers[123_456] = 1_000_000;
  expect(maxOf(numbers)).toBe(1_000_000);
  expect(maxOf([3, 9, 2])).toBe(9);
  expect(maxOf([])).toBe(Number.NEGATIVE_INFINITY);
});
