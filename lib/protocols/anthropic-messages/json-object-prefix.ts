/** An incremental check that streamed tool arguments are still a prefix of one JSON object. */

type Container = 'object' | 'array';

/** What may come next outside a string, number or literal. */
type Expect = 'start' | 'key-or-close' | 'key' | 'colon' | 'value' | 'value-or-close' | 'after-value' | 'done';

/** Where a number is in the JSON number grammar `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
type NumberState = 'minus' | 'zero' | 'int' | 'dot' | 'frac' | 'e' | 'e-sign' | 'exp';

/** A token being read: a string (a key or a value), a number, or the rest of `true`/`false`/`null`. */
type Token =
  | { kind: 'string'; key: boolean; escape: 'none' | 'backslash' | number }
  | { kind: 'number'; state: NumberState }
  | { kind: 'literal'; rest: string };

const WHITESPACE = ' \t\n\r';
const DIGITS = '0123456789';
const HEX = '0123456789abcdefABCDEF';
const SIMPLE_ESCAPES = '"\\/bfnrt';
const NUMBER_ENDS: ReadonlySet<NumberState> = new Set(['zero', 'int', 'frac', 'exp']);
const LITERALS: Readonly<Record<string, string>> = { t: 'rue', f: 'alse', n: 'ull' };

/** The next number state after `char`, or undefined when `char` does not continue the number. */
function nextNumberState(state: NumberState, char: string): NumberState | undefined {
  const digit = DIGITS.includes(char);
  switch (state) {
    case 'minus':
      return char === '0' ? 'zero' : digit ? 'int' : undefined;
    case 'zero':
      return char === '.' ? 'dot' : char === 'e' || char === 'E' ? 'e' : undefined;
    case 'int':
      return digit ? 'int' : char === '.' ? 'dot' : char === 'e' || char === 'E' ? 'e' : undefined;
    case 'dot':
      return digit ? 'frac' : undefined;
    case 'frac':
      return digit ? 'frac' : char === 'e' || char === 'E' ? 'e' : undefined;
    case 'e':
      return char === '+' || char === '-' ? 'e-sign' : digit ? 'exp' : undefined;
    case 'e-sign':
    case 'exp':
      return digit ? 'exp' : undefined;
  }
}

/**
 * Feeds text piece by piece and says how much of each piece keeps the whole a valid prefix of a
 * single JSON object (leading and trailing whitespace allowed). Once a character breaks it, the
 * scanner accepts nothing more.
 */
export class JsonObjectPrefix {
  private readonly stack: Container[] = [];
  private expect: Expect = 'start';
  private token: Token | undefined;
  private seenBrace = false;
  private isBroken = false;

  /** How many leading characters of `text` keep the text fed so far a valid object prefix. */
  accept(text: string): number {
    if (this.isBroken) return 0;
    for (let index = 0; index < text.length; index++) {
      if (!this.step(text[index]!)) {
        this.isBroken = true;
        return index;
      }
    }
    return text.length;
  }

  /** Whether the top-level `{` has been accepted. */
  get opened(): boolean {
    return this.seenBrace;
  }

  /** Whether the accepted text is one complete JSON object. */
  get complete(): boolean {
    return this.expect === 'done';
  }

  /** Whether a character broke the prefix. */
  get broken(): boolean {
    return this.isBroken;
  }

  private step(char: string): boolean {
    if (this.token) return this.stepToken(this.token, char);
    if (WHITESPACE.includes(char)) return true;
    switch (this.expect) {
      case 'start':
        return char === '{' && this.open('object');
      case 'key-or-close':
        return char === '}' ? this.close('object') : this.beginKey(char);
      case 'key':
        return this.beginKey(char);
      case 'colon':
        if (char !== ':') return false;
        this.expect = 'value';
        return true;
      case 'value':
        return this.beginValue(char);
      case 'value-or-close':
        return char === ']' ? this.close('array') : this.beginValue(char);
      case 'after-value':
        if (char === ',') {
          this.expect = this.stack[this.stack.length - 1] === 'object' ? 'key' : 'value';
          return true;
        }
        return char === '}' ? this.close('object') : char === ']' && this.close('array');
      case 'done':
        return false;
    }
  }

  private stepToken(token: Token, char: string): boolean {
    switch (token.kind) {
      case 'string':
        return this.stepString(token, char);
      case 'literal':
        if (char !== token.rest[0]) return false;
        token.rest = token.rest.slice(1);
        if (token.rest.length === 0) this.endValue();
        return true;
      case 'number': {
        const next = nextNumberState(token.state, char);
        if (next) {
          token.state = next;
          return true;
        }
        if (!NUMBER_ENDS.has(token.state)) return false;
        this.endValue();
        return this.step(char);
      }
    }
  }

  private stepString(token: Extract<Token, { kind: 'string' }>, char: string): boolean {
    if (typeof token.escape === 'number') {
      if (!HEX.includes(char)) return false;
      token.escape = token.escape === 1 ? 'none' : token.escape - 1;
      return true;
    }
    if (token.escape === 'backslash') {
      if (char === 'u') token.escape = 4;
      else if (SIMPLE_ESCAPES.includes(char)) token.escape = 'none';
      else return false;
      return true;
    }
    if (char === '\\') token.escape = 'backslash';
    else if (char === '"') {
      this.token = undefined;
      if (token.key) this.expect = 'colon';
      else this.endValue();
    } else if (char < ' ') return false;
    return true;
  }

  private beginKey(char: string): boolean {
    if (char !== '"') return false;
    this.token = { kind: 'string', key: true, escape: 'none' };
    return true;
  }

  private beginValue(char: string): boolean {
    if (char === '{') return this.open('object');
    if (char === '[') return this.open('array');
    if (char === '"') this.token = { kind: 'string', key: false, escape: 'none' };
    else if (char === '-') this.token = { kind: 'number', state: 'minus' };
    else if (DIGITS.includes(char)) this.token = { kind: 'number', state: char === '0' ? 'zero' : 'int' };
    else if (LITERALS[char] !== undefined) this.token = { kind: 'literal', rest: LITERALS[char] };
    else return false;
    return true;
  }

  private open(container: Container): boolean {
    this.seenBrace = true;
    this.stack.push(container);
    this.expect = container === 'object' ? 'key-or-close' : 'value-or-close';
    return true;
  }

  private close(container: Container): boolean {
    if (this.stack[this.stack.length - 1] !== container) return false;
    this.stack.pop();
    this.endValue();
    return true;
  }

  private endValue(): void {
    this.token = undefined;
    this.expect = this.stack.length === 0 ? 'done' : 'after-value';
  }
}
