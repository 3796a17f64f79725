/** Nesting-depth checks for request bodies: on raw JSON bytes before parsing, and on an already-parsed value. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth` (the outermost object is level
 * 1). One pass over the bytes, no allocation: strings are skipped with the native `indexOf` (a
 * quote preceded by an odd number of backslashes is escaped), so brackets inside them do not
 * count. Text that is not valid JSON gives some answer and is refused by the parser after.
 */
export function exceedsJsonDepth(raw: Buffer, maxDepth: number): boolean {
  let depth = 0;
  const length = raw.length;
  for (let index = 0; index < length; index++) {
    const byte = raw[index]!;
    if (byte === QUOTE) {
      index = closingQuote(raw, index);
      if (index === -1) return false;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1 if none does. */
function closingQuote(raw: Buffer, open: number): number {
  let end = open;
  for (;;) {
    end = raw.indexOf(QUOTE, end + 1);
    if (end === -1) return -1;
    let backslashes = 0;
    while (raw[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
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
