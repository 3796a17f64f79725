import { appendAll } from '../../arrays';
/** Word-wrapping of the local renderer's caption: lines of whole code points, an ellipsis when it does not fit. */

/** The character {@link wrapText} appends when the prompt does not fit. */
export const ELLIPSIS = '\u2026';

/**
 * Greedily word-wraps text into at most `maxLines` lines of at most `maxChars` characters.
 * Runs of whitespace collapse to one space, words longer than a line are split, and when the
 * text does not fit the last line is cut short and ends with {@link ELLIPSIS}. Characters are
 * counted as code points, matching one font cell each.
 *
 * @param text - Text to wrap.
 * @param maxChars - Line width in characters.
 * @param maxLines - Line count limit.
 * @returns The lines; empty when the text has no visible characters or the limits are below 1.
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  if (!(maxChars >= 1 && maxLines >= 1)) return [];
  maxChars = Math.floor(maxChars);
  maxLines = Math.floor(maxLines);
  const lines: string[][] = [];
  let current: string[] = [];
  let overflow = false;
  for (const piece of wordPieces(text, maxChars)) {
    if (current.length > 0 && current.length + 1 + piece.length > maxChars) {
      lines.push(current);
      current = [];
      if (lines.length === maxLines) {
        overflow = true;
        break;
      }
    }
    if (current.length > 0) current.push(' ');
    appendAll(current, piece);
  }
  if (overflow) {
    const last = lines[maxLines - 1].slice(0, maxChars - 1);
    while (last.length > 0 && last[last.length - 1] === ' ') last.pop();
    lines[maxLines - 1] = [...last, ELLIPSIS];
  } else if (current.length > 0) {
    lines.push(current);
  }
  return lines.map((line) => line.join(''));
}

/**
 * Yields the words of `text` as code-point arrays, splitting words longer than `maxChars`; lazy so
 * huge prompts stop early.
 */
function* wordPieces(text: string, maxChars: number): Generator<string[]> {
  for (const match of text.matchAll(/\S+/g)) {
    const chars = Array.from(match[0]);
    for (let start = 0; start < chars.length; start += maxChars) yield chars.slice(start, start + maxChars);
  }
}
