import { encode } from 'gpt-tokenizer';
import { countRequestTokens, countTextTokens } from '../../lib/extend';
import { estimateRequestTokens, tokenizerPieces } from '../../lib/tokenizer';

describe('token counting', () => {
  it('matches the o200k_base tokenizer exactly on ordinary text, however long', () => {
    const text = Array.from(
      { length: 3000 },
      (_, index) => `Sentence ${index}: the quick brown fox, jumping over the lazy dog.\n`,
    ).join('');
    expect(tokenizerPieces(text).length).toBeGreaterThan(1);
    expect(countTextTokens(text)).toBe(encode(text).length);
    expect(countTextTokens('Hello world')).toBe(encode('Hello world').length);
    expect(countTextTokens('')).toBe(0);
  });

  it('pieces always re-join to the original text', () => {
    const samples = [
      '',
      'a',
      'x'.repeat(10_000),
      `${'ab '.repeat(2000)}${'y'.repeat(300)} tail`,
      '\n\n\t  mixed   spaces '.repeat(500),
    ];
    for (const sample of samples) expect(tokenizerPieces(sample).join('')).toBe(sample);
  });

  it('counts a pathological run (a megabyte without white space) in linear time, close to exact', () => {
    const run = 'x'.repeat(1_000_000);
    expect(countTextTokens(run)).toBe(125_000);
    const small = 'z'.repeat(6400);
    expect(Math.abs(countTextTokens(small) - encode(small).length)).toBeLessThanOrEqual(100);
  });

  it('counts a request: framing per message, images at a fixed estimate, tools as JSON', () => {
    const base = countRequestTokens({
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(base).toBe(3 + 3 + countTextTokens('hi'));
    const withImage = countRequestTokens({
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', source: { kind: 'url', url: 'https://x' } },
          ],
        },
      ],
    });
    expect(withImage - base).toBe(765);
    const withTools = countRequestTokens({
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
    });
    expect(withTools).toBeGreaterThan(base);
  });

  it('the quick estimate a stream shows until its provider reports input (no tokenizer) is bytes / 3: at or above the real count for ordinary text', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    const request = {
      model: 'm',
      stream: false,
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }],
    };
    expect(estimateRequestTokens(request)).toBe(3 + 3 + Math.ceil(Buffer.byteLength(text) / 3));
    expect(estimateRequestTokens(request)).toBeGreaterThanOrEqual(countRequestTokens(request));
  });
});
