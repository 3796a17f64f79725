/** A value a contract lets be synchronous or a promise (a store's answer, a sink's delivery). */

/** Whether `value` is a promise (anything with a `then`), so a synchronous answer is used without an await. */
export function isPromiseLike<T, P extends PromiseLike<T> = PromiseLike<T>>(value: T | P): value is P {
  return typeof (value as P | undefined)?.then === 'function';
}
