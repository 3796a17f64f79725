/**
 * Gemini 3's streamed function-call arguments (`toolConfig.functionCallingConfig.streamFunctionCallArguments`) as
 * JSON text, a fragment at a time, for the canonical `tool-call-delta`s.
 *
 * Wire facts (Google's `FunctionCall` and `PartialArg` reference, googleapis/googleapis 286c66a, which says "not
 * supported in Gemini API": Vertex AI only): a call streams as several `functionCall` parts, the first with `name` and
 * `willContinue: true`, then parts with `partialArgs` (each a `jsonPath` (RFC 9535, e.g. `$.foo.bar[0].data`) and one
 * of `stringValue`, `numberValue`, `boolValue`, `nullValue`; a `stringValue` with `willContinue: true` continues in
 * the next `PartialArg` of the same path), and a last part without `willContinue` (often an empty `functionCall: {}`;
 * the Vercel AI SDK's Vertex provider reads it so, vercel/ai 5036db8). Values are written in the order they arrive,
 * which the documented examples give in document order; a path that went back into a member already closed would
 * repeat its key (**unverified** whether Vertex ever does that).
 */
import { logProvider } from './log';

/** One streamed argument value. */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

/** A member name or an array index. */
type Segment = string | number;

/** The segments of a JSON path (`$.a.b[0]`, `$['a']`), or undefined when it is not one the writer reads. */
export function parseJsonPath(path: string): Segment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Segment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const match =
      /^\.([^.[\]]+)/.exec(rest) ??
      /^\[(\d+)\]/.exec(rest) ??
      /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest) ??
      /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
    if (!match) return undefined;
    const [whole, name] = match;
    segments.push(whole.startsWith('[') && /^\d+$/.test(name!) ? Number(name) : name!.replace(/\\(.)/g, '$1'));
    rest = rest.slice(whole.length);
  }
  return segments.length > 0 ? segments : undefined;
}

/** An open object or array: the segment it stands under and how many members it has so far. */
interface Level {
  segment: Segment | undefined;
  array: boolean;
  members: number;
}

const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * Writes one call's arguments as JSON text in the order they stream: each {@link write} gives the text that extends
 * what was written (keys, commas and brackets as the paths need them), {@link finish} the text that closes it.
 */
export class PartialArgsWriter {
  private readonly levels: Level[] = [];
  /** The path of a string value still open (its closing quote not written). */
  private openString: string | undefined;
  /** Whether anything was written. */
  get started(): boolean {
    return this.levels.length > 0;
  }

  write(arg: GeminiPartialArg): string {
    const segments = typeof arg.jsonPath === 'string' ? parseJsonPath(arg.jsonPath) : undefined;
    if (!segments || typeof segments[0] !== 'string') {
      logProvider('gemini: a streamed argument with an unreadable jsonPath %s dropped', arg.jsonPath);
      return '';
    }
    const key = JSON.stringify(segments);
    let text = '';
    if (this.openString === key && typeof arg.stringValue === 'string') {
      text += escaped(arg.stringValue);
      if (arg.willContinue !== true) {
        text += '"';
        this.openString = undefined;
      }
      return text;
    }
    if (!this.started) {
      text += '{';
      this.levels.push({ segment: undefined, array: false, members: 0 });
    }
    if (this.openString !== undefined) {
      text += '"';
      this.openString = undefined;
    }
    const value = valueText(arg);
    if (value === undefined) return text;
    text += this.reach(segments) + this.member(segments.at(-1)!);
    if (typeof arg.stringValue === 'string' && arg.willContinue === true) {
      this.openString = key;
      return `${text}"${escaped(arg.stringValue)}`;
    }
    return text + value;
  }

  /** The text that closes what is open: the last string, every object and array, the arguments (`{}` if none came). */
  finish(): string {
    if (!this.started) return '{}';
    let text = this.openString === undefined ? '' : '"';
    this.openString = undefined;
    while (this.levels.length > 0) text += this.levels.pop()!.array ? ']' : '}';
    return text;
  }

  /** The text that closes the open containers off the path and opens those on it, up to the value's container. */
  private reach(segments: Segment[]): string {
    const parents = segments.slice(0, -1);
    let common = 0;
    while (common < parents.length && common + 1 < this.levels.length) {
      if (this.levels[common + 1]!.segment !== parents[common]) break;
      common++;
    }
    let text = '';
    while (this.levels.length > common + 1) text += this.levels.pop()!.array ? ']' : '}';
    for (let depth = common; depth < parents.length; depth++) {
      const array = typeof segments[depth + 1] === 'number';
      text += this.member(parents[depth]!) + (array ? '[' : '{');
      this.levels.push({ segment: parents[depth], array, members: 0 });
    }
    return text;
  }

  /** The text before a member's value in the open container: a comma after another member, the key in an object. */
  private member(segment: Segment): string {
    const level = this.levels.at(-1)!;
    const comma = level.members++ > 0 ? ',' : '';
    return level.array ? comma : `${comma}${JSON.stringify(String(segment))}:`;
  }
}

/** A partial argument's value as JSON text, or undefined when it carries none. */
function valueText(arg: GeminiPartialArg): string | undefined {
  if (typeof arg.stringValue === 'string') return JSON.stringify(arg.stringValue);
  if (typeof arg.numberValue === 'number' && Number.isFinite(arg.numberValue)) return JSON.stringify(arg.numberValue);
  if (typeof arg.boolValue === 'boolean') return String(arg.boolValue);
  if (arg.nullValue !== undefined) return 'null';
  return undefined;
}
