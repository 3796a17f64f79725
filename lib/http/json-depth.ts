/** Nesting-depth checks for request bodies: on raw JSON bytes before parsing, and on an already-parsed value. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth` (the outermost object is level
 * 1). One pass over the bytes, no allocation: brackets inside strings (escapes included) do not
 * count. Text that is not valid JSON gives some answer and is refused by the parser after.
 */
export function exceedsJsonDepth(raw: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  const length = raw.length;
  for (let index = 0; index < length; index++) {
    const byte = raw[index]!;
    if (byte === QUOTE) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (index++; index < length; index++) {
        const inner = raw[index]!;
        if (inner === BACKSLASH) index++;
        else if (inner === QUOTE) break;
      }
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether a parsed value (a host parser's `request.body`) nests arrays and objects deeper than
 * `maxDepth`. Iterative, with an explicit stack, so no depth of input can overflow the call stack.
 */
export function exceedsValueDepth(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
