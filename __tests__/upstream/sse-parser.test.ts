/**
 * The upstream server-sent-events parser: the format's rules, and event for event the same as eventsource-parser behind
 * a streaming TextDecoder (what it replaced).
 */
import { isDeepStrictEqual } from 'node:util';
import { createParser } from 'eventsource-parser';
import { SseParser, type SseEvent } from '../../lib/upstream/sse-parser';

type Read = string | Buffer;

const bytes = (read: Read) => (typeof read === 'string' ? Buffer.from(read, 'utf8') : read);

/** The events each read gives (copies: the parser reuses its event object). */
function eventsPerRead(reads: Read[]): SseEvent[][] {
  let current: SseEvent[] = [];
  const parser = new SseParser((event) => current.push({ ...event }));
  return reads.map((read) => {
    current = [];
    parser.push(bytes(read));
    return current;
  });
}

const parse = (...reads: Read[]) => eventsPerRead(reads).flat();

/** An event as both parsers give it: `id` and `event` present, undefined when absent. */
const ev = (data: string, event?: string, id?: string): SseEvent => ({ id, event, data });

describe('SseParser', () => {
  it('ends lines with LF, CRLF or CR', () => {
    expect(parse('data: a\n\n')).toStrictEqual([ev('a')]);
    expect(parse('data: a\r\n\r\n')).toStrictEqual([ev('a')]);
    expect(parse('data: a\r\r')).toStrictEqual([]); // the last CR may be half a CRLF: it waits for the next read
    expect(parse('data: a\r\r', 'data: b\r\r')).toStrictEqual([ev('a')]);
    expect(parse('data: a\r\rdata: b\n\rdata: c\r\n\n')).toStrictEqual([ev('a'), ev('b'), ev('c')]);
  });

  it('takes a CR at the end of one read and an LF at the start of the next as one line break', () => {
    expect(eventsPerRead(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toStrictEqual([[], [], [], [ev('a\nb')]]);
    expect(eventsPerRead(['data: a\r\r', '\n'])).toStrictEqual([[], [ev('a')]]);
    // A CR with more after it in the same read is a line break at once.
    expect(eventsPerRead(['data: a\r\rx', '\n'])).toStrictEqual([[ev('a')], []]);
  });

  it('keeps a final CR waiting until a read with a line break comes (as eventsource-parser)', () => {
    expect(eventsPerRead(['data: a\r', '\r', 'x', 'y'])).toStrictEqual([[], [], [], []]);
    expect(eventsPerRead(['data: a\r', '\r', 'x', '\n'])).toStrictEqual([[], [], [], [ev('a')]]);
  });

  it('skips a byte-order mark at the start of the stream only, even split across reads', () => {
    expect(parse('\uFEFFdata: a\n\n')).toStrictEqual([ev('a')]);
    expect(parse(Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from([0xbf]), 'data: a\n\n')).toStrictEqual([
      ev('a'),
    ]);
    // A second one is a character of the first line: here the name of an unknown field.
    expect(parse('\uFEFF\uFEFFdata: a\n\ndata: b\n\n')).toStrictEqual([ev('b')]);
    expect(parse('data: a\n\n', '\uFEFFdata: b\n\n')).toStrictEqual([ev('a')]);
    expect(parse('data: \uFEFFa\n\n')).toStrictEqual([ev('\uFEFFa')]);
  });

  it('ignores comments, retry and unknown fields', () => {
    expect(
      parse(': keep-alive\n:\n\ndata: a\n: between\nretry: 10\nfoo: bar\nData: no\n data: no\ndatum: no\n\n'),
    ).toStrictEqual([ev('a')]);
    expect(parse(': only a comment\n\n')).toStrictEqual([]);
  });

  it('joins data lines with a newline, and dispatches an event whose data is empty but not one without data', () => {
    expect(parse('data: a\ndata: b\ndata:\ndata: c\n\n')).toStrictEqual([ev('a\nb\n\nc')]);
    expect(parse('data:\n\n')).toStrictEqual([ev('')]);
    expect(parse('event: ping\nid: 7\n\n')).toStrictEqual([]);
  });

  it('reads event and id, each for its own event only', () => {
    expect(parse('event: delta\nid: 1\ndata: a\n\ndata: b\n\n')).toStrictEqual([ev('a', 'delta', '1'), ev('b')]);
    expect(parse('event:\nid:\ndata: a\n\n')).toStrictEqual([ev('a', undefined, '')]);
    expect(parse('id: 1\nid: 2\nevent: x\nevent: y\ndata: a\n\n')).toStrictEqual([ev('a', 'y', '2')]);
    expect(parse('id: 1\nid: 2\u00003\ndata: a\n\n')).toStrictEqual([ev('a', undefined, '1')]);
  });

  it('takes a line without a colon as the field with an empty value', () => {
    expect(parse('data\n\n')).toStrictEqual([ev('')]);
    expect(parse('data: a\ndata\ndata\n\n')).toStrictEqual([ev('a\n\n')]);
    expect(parse('event: x\nevent\nid: 1\nid\ndata: a\n\n')).toStrictEqual([ev('a', undefined, '')]);
  });

  it('removes one space after the colon, and only one', () => {
    expect(parse('data:a\n\n')).toStrictEqual([ev('a')]);
    expect(parse('data:  a \n\n')).toStrictEqual([ev(' a ')]);
    expect(parse('event:x\nid:9\ndata:{"a": 1}\n\n')).toStrictEqual([ev('{"a": 1}', 'x', '9')]);
    expect(parse('data: a: b\n\n')).toStrictEqual([ev('a: b')]);
  });

  it('does not dispatch an event the stream ends in', () => {
    expect(parse('data: a\n\ndata: b\n')).toStrictEqual([ev('a')]);
    expect(parse('data: a\n\ndata: b')).toStrictEqual([ev('a')]);
    expect(parse('data: a')).toStrictEqual([]);
  });

  it('decodes characters split between reads at any byte', () => {
    for (const character of ['é', '中', '😀']) {
      const stream = Buffer.from(`data: a${character}b\n\n`, 'utf8');
      for (let cut = 1; cut < stream.length; cut++) {
        expect(parse(stream.subarray(0, cut), stream.subarray(cut))).toStrictEqual([ev(`a${character}b`)]);
      }
    }
  });

  it('decodes invalid UTF-8 as U+FFFD', () => {
    expect(parse(Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0xe4, 0xb8, 0x0a, 0x0a]))).toStrictEqual([
      ev('\uFFFD\uFFFD'),
    ]);
  });

  it('gives the events of each read as they complete, a line split over many reads included', () => {
    const long = 'x'.repeat(100_000);
    const stream = Buffer.from(`data: a\n\ndata: ${long}\n\ndata: c\n`, 'utf8');
    const reads: Buffer[] = [];
    for (let offset = 0; offset < stream.length; offset += 1000) reads.push(stream.subarray(offset, offset + 1000));
    const perRead = eventsPerRead(reads);
    expect(perRead[0]).toStrictEqual([ev('a')]);
    expect(perRead.flat()).toStrictEqual([ev('a'), ev(long)]);
    expect(perRead.findIndex((events) => events.some((event) => event.data === long))).toBe(
      Math.floor(('data: a\n\ndata: '.length + long.length + 1) / 1000),
    ); // the read with the blank line after it
  });

  it('reuses its event object and lets go of the values after the call', () => {
    const seen: SseEvent[] = [];
    const parser = new SseParser((event) => {
      expect(event.data).toBe(seen.length === 0 ? 'a' : 'b');
      seen.push(event);
    });
    parser.push(Buffer.from('event: e\nid: 1\ndata: a\n\ndata: b\n\n'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toStrictEqual(ev(''));
  });

  it('drops the rest of a read when onEvent throws, and goes on with the next read', () => {
    let calls = 0;
    const parser = new SseParser(() => {
      calls++;
      if (calls === 1) throw new Error('refused');
    });
    expect(() => parser.push(Buffer.from('data: a\n\ndata: b\n\n'))).toThrow('refused');
    parser.push(Buffer.from('data: c\n\n'));
    expect(calls).toBe(2);
  });
});

/** mulberry32: a small seeded PRNG, so every run makes the same streams. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  return { next, below, pick };
}

// No 'ï', '»' or '¿': eventsource-parser drops those three from the start of its first text (see sse-parser.ts).
const PIECES = [
  'a',
  'z',
  'Q',
  '0',
  ' ',
  '  ',
  ':',
  ': ',
  '{"k":[1,"v"]}',
  'é',
  'ñ',
  '中',
  '文',
  '😀',
  '🇫🇷',
  '\u2028',
  '\uFEFF',
  '\u0000',
  '\t',
  'data',
  'event',
  'id',
];
// Bad bytes, among them starts of characters (whole, or cut off by what follows), valid or not.
const INVALID = [
  [0xff],
  [0x80],
  [0xc1],
  [0xc3],
  [0xe4, 0xb8],
  [0xe0],
  [0xe0, 0x80],
  [0xe0, 0xa0],
  [0xed, 0x9f],
  [0xed, 0xa0, 0x80],
  [0xc0, 0x80],
  [0xe4],
  [0xf0],
  [0xf0, 0x80],
  [0xf0, 0x9f],
  [0xf0, 0x9f, 0x98],
  [0xf4],
  [0xf4, 0x8f],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5],
];
const NAMES = [
  'data',
  'data',
  'data',
  'data',
  'data',
  'data',
  'data',
  'data',
  'data',
  'event',
  'event',
  'id',
  'id',
  'retry',
  'foo',
  'dat',
  'datax',
  'Data',
  ' data',
  'data ',
  'ev',
  'eventx',
  'i',
  'idx',
  '\uFEFFdata',
  'é',
  '中',
  '😀',
  '',
  '',
];
const SEPARATORS = [':', ': ', ': ', ':  ', ''];
const BREAK_STYLES = [['\n'], ['\n'], ['\r\n'], ['\r'], ['\n', '\r\n', '\r']];

/** A random event stream, as byte pieces. */
function randomStream(random: ReturnType<typeof prng>): Buffer {
  const pieces: Buffer[] = [];
  const add = (text: string) => pieces.push(Buffer.from(text, 'utf8'));
  const breaks = random.pick(BREAK_STYLES);
  const value = (invalid = 0.04) => {
    const length = random.below(6);
    for (let index = 0; index < length; index++) {
      if (random.next() < invalid) pieces.push(Buffer.from(random.pick(INVALID)));
      else add(random.pick(PIECES));
    }
  };
  const bom = random.next();
  if (bom < 0.1) add('\uFEFF');
  else if (bom < 0.13) add('\uFEFF\uFEFF');
  const lines = random.below(40);
  for (let line = 0; line < lines; line++) {
    const kind = random.next();
    if (kind < 0.25) {
      // a blank line: dispatch
    } else if (kind < 0.32) {
      add(':');
      value();
    } else if (kind < 0.4) {
      // a line of anything, bad bytes first of all
      value(0.4);
    } else {
      add(random.pick(NAMES));
      add(random.pick(SEPARATORS));
      value();
    }
    if (line < lines - 1 || random.next() < 0.7) add(random.pick(breaks));
  }
  if (random.next() < 0.1) add('\r');
  return Buffer.concat(pieces);
}

/**
 * Cuts a stream into reads: whole, a byte at a time, or at random places (often right after a CR, or 1–3 bytes after).
 */
function randomReads(stream: Buffer, random: ReturnType<typeof prng>, mode: number): Buffer[] {
  if (mode === 0 || stream.length === 0) return [stream];
  if (mode === 1) return [...stream].map((byte) => Buffer.from([byte]));
  const cuts = new Set<number>();
  const count = 1 + random.below(Math.min(8, stream.length));
  for (let index = 0; index < count; index++) cuts.add(random.below(stream.length + 1));
  for (let index = 0; index < stream.length; index++)
    if (stream[index] === 0x0d && random.next() < 0.6) cuts.add(index + 1 + random.below(4));
  const sorted = [...cuts].sort((a, b) => a - b);
  const reads: Buffer[] = [];
  let start = 0;
  for (const cut of [...sorted, stream.length]) {
    reads.push(stream.subarray(start, cut)); // empty reads included
    start = cut;
  }
  return reads;
}

/**
 * The events each read gives with eventsource-parser behind a streaming TextDecoder, as sse.ts used them; the last
 * entry is the body's end.
 */
function referencePerRead(reads: Buffer[]): SseEvent[][] {
  let current: SseEvent[] = [];
  const parser = createParser({ onEvent: (event) => current.push(event) });
  const text = new TextDecoder();
  const perRead = reads.map((read) => {
    current = [];
    parser.feed(text.decode(read, { stream: true }));
    return current;
  });
  current = [];
  parser.feed(text.decode());
  perRead.push(current);
  return perRead;
}

/** The streams compared, and the same for every run. */
const STREAMS = (() => {
  const random = prng(20240611);
  return Array.from({ length: 3000 }, () => randomStream(random));
})();

describe('SseParser against eventsource-parser', () => {
  it('gives the same events at the same reads for 3,000 random streams, each cut four ways', () => {
    const random = prng(7);
    let events = 0;
    let cases = 0;
    let crThenLf = 0;
    let crThenPartial = 0;
    STREAMS.forEach((body, stream) => {
      for (let mode = 0; mode < 4; mode++) {
        const reads = randomReads(body, random, mode);
        const expected = referencePerRead(reads);
        const actual = [...eventsPerRead(reads), []];
        if (!isDeepStrictEqual(actual, expected)) {
          const replay = reads.map((read) => read.toString('hex'));
          throw new Error(
            `stream ${stream}, cut ${mode}: reads ${JSON.stringify(replay)}\nexpected ${JSON.stringify(expected)}\nactual ${JSON.stringify(actual)}`,
          );
        }
        cases++;
        events += expected.flat().length;
        for (let index = 1; index < reads.length; index++) {
          const before = reads[index - 1]!;
          const after = reads[index]!;
          if (before[before.length - 1] !== 0x0d) continue;
          if (after[0] === 0x0a) crThenLf++;
          else if (after.length > 0 && after.length < 4 && after[0]! >= 0xc2) crThenPartial++;
        }
      }
    });
    expect(cases).toBe(12_000);
    expect(events).toBeGreaterThan(15_000);
    // Reads that cut a CRLF in two, and reads that end with a CR and then just the start of a character.
    expect(crThenLf).toBeGreaterThan(1000);
    expect(crThenPartial).toBeGreaterThan(50);
  });

  it('keeps a CR waiting when the start of a character, and nothing more, follows it in the read, as the TextDecoder did', () => {
    const seconds = [0x61, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    const tails: number[][] = [];
    for (let lead = 0x80; lead <= 0xff; lead++) {
      tails.push([lead]);
      for (const second of seconds) {
        tails.push([lead, second]);
        for (const third of seconds) tails.push([lead, second, third]);
      }
    }
    let waited = 0;
    for (const tail of tails) {
      const reads = [Buffer.concat([Buffer.from('data: a\r\r'), Buffer.from(tail)]), Buffer.from('\n')];
      const expected = referencePerRead(reads);
      const actual = [...eventsPerRead(reads), []];
      if (!isDeepStrictEqual(actual, expected)) expect({ tail, actual }).toStrictEqual({ tail, actual: expected });
      if (expected[1]!.length > 0) waited++;
    }
    // The valid starts of characters among the tails: 51 lead bytes alone, 114 with a second byte, 144 with a third.
    expect(waited).toBe(51 + 114 + 144);
  });

  it('compares streams that hold what the format allows', () => {
    const events = STREAMS.flatMap((body) => referencePerRead([body]).flat());
    expect(events.some((event) => event.event !== undefined)).toBe(true);
    expect(events.some((event) => event.id !== undefined && event.id !== '')).toBe(true);
    expect(events.some((event) => event.id === '')).toBe(true);
    expect(events.some((event) => event.data === '')).toBe(true);
    expect(events.some((event) => event.data.includes('\n'))).toBe(true);
    expect(events.some((event) => event.data.includes('\uFFFD'))).toBe(true);
    expect(events.some((event) => event.data.includes('😀'))).toBe(true);
    expect(STREAMS.filter((body) => body.includes('\r\n')).length).toBeGreaterThan(300);
    expect(STREAMS.filter((body) => body.includes('\r') && !body.includes('\n')).length).toBeGreaterThan(300);
    expect(STREAMS.filter((body) => body[0] === 0xef).length).toBeGreaterThan(200);
  });
});
