/**
 * Upstream request paths built from caller input: encoded per segment, and checked to stay below the upstream's base
 * path.
 */
import { GatewayError } from '../errors';
import { percentDecode } from '../percent-decode';

/** How many times a segment is percent-decoded when looking for a hidden `.` or `..` (a server may decode twice). */
const DECODE_ROUNDS = 3;

/** Whether a path segment is, or decodes to, `.` or `..` (or to several segments, one of which is). */
function isDotSegment(segment: string): boolean {
  let text = segment;
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (text.split(/[/\\]/).some((piece) => piece === '.' || piece === '..')) return true;
    const decoded = percentDecode(text);
    if (decoded === text) return false;
    text = decoded;
  }
  return true;
}

/**
 * Why a path (the part an upstream client appends to its base path) could lead outside the base
 * path, or undefined when it cannot: it must start with `/`, and hold no `.` or `..` segment (also
 * percent-encoded, once or more), no backslash, no `?` or `#`, no whitespace or control character.
 */
export function pathEscape(path: string): string | undefined {
  if (!path.startsWith('/')) return 'it does not start with /';
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f\\?#]/.test(path))
    return 'it holds a backslash, ?, #, whitespace or a control character';
  // A dot segment needs a '.' or, encoded, a '%': most paths (`/chat/completions`) have neither.
  if ((path.includes('.') || path.includes('%')) && path.split('/').some(isDotSegment))
    return 'it holds a . or .. segment';
  return undefined;
}

/** Throws the 400 a path that could leave the upstream's base path is refused with (see {@link pathEscape}). */
export function assertConfined(path: string, upstream: string): void {
  const problem = pathEscape(path);
  if (problem === undefined) return;
  throw new GatewayError(
    'invalid_request',
    `The request cannot be sent to the upstream ${upstream}: its path could lead outside the upstream's base path (${problem}).`,
    {
      code: 'upstream_path_refused',
    },
  );
}

/** `/a/b%2Fc/…`: each segment percent-encoded (`:` too), so no caller text can add a segment or a query. */
export function encodePath(segments: readonly string[]): string {
  return segments.map((segment) => `/${encodeURIComponent(segment).replace(/:/g, '%3A')}`).join('');
}
