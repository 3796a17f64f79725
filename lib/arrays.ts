/**
 * Array steps for request-sized data. `target.push(...items)` passes every item as an argument, and past about
 * 120,000 of them V8 throws "Maximum call stack size exceeded": a turn's tool results, a message's parts and a
 * caller's items are as many as the caller sends, so they are appended in a loop.
 */

/** Appends `items` to `target` in order; returns `target`. */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (let index = 0; index < items.length; index++) target.push(items[index]!);
  return target;
}

/** The largest of `numbers` (`-Infinity` for none), without spreading them as arguments. */
export function maxOf(numbers: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of numbers) if (value > max) max = value;
  return max;
}
