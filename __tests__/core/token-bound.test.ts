/**
 * The input bound a text call's hold is sized on: never below what a byte-level BPE tokenizer counts, media at their
 * family's figure.
 */
import { encode } from 'gpt-tokenizer';
import { AnthropicProvider, GeminiProvider, OpenAIProvider, type GenerateRequest } from '../../lib';
import { countRequestTokens, DEFAULT_MAX_IMAGE_TOKENS } from '../../lib/extend';
import { FILE_PAGES_BOUND, inputTokenBound, measureInput, PAGE_TEXT_TOKENS } from '../../lib/token-bound';
import { estimateRequestTokens } from '../../lib/tokenizer';

const user = (text: string): GenerateRequest => ({
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
});

/** Texts a real tokenizer counts at close to (or beyond) one token per three bytes, where bytes / 3 held too little. */
const HARD_TEXTS: Record<string, string> = {
  digits: '0123456789'.repeat(300),
  'random digits': Array.from({ length: 3000 }, (_, index) => String((index * 7919) % 10)).join(''),
  cjk: '数据库连接失败请重试'.repeat(100),
  code: 'for(i=0;i<n;i++){a[i]=b[i]^c[i];}\n'.repeat(100),
  emoji: '🙂🚀🔥✅'.repeat(200),
  base64: Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 131) % 256)).toString('base64'),
  mixed: 'Ünïcödé — ½ € ✓ \u0000\u0001 '.repeat(100),
};

describe('the input bound', () => {
  it.each(Object.keys(HARD_TEXTS))('%s: at or above the o200k count, where bytes / 3 can be below it', (kind) => {
    const request = user(HARD_TEXTS[kind]!);
    const bound = inputTokenBound(measureInput(request), DEFAULT_MAX_IMAGE_TOKENS);
    expect(bound).toBeGreaterThanOrEqual(countRequestTokens(request));
    expect(bound).toBeGreaterThanOrEqual(encode(HARD_TEXTS[kind]!).length);
    expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(HARD_TEXTS[kind]!));
  });

  it('bytes / 3 (the old hold) is below the real count for digits: the case the bound exists for', () => {
    const request = user(HARD_TEXTS['random digits']!);
    expect(estimateRequestTokens(request)).toBeLessThan(countRequestTokens(request));
  });

  it('counts every part the upstream reads: names, tool calls and results, reasoning, tool definitions, a schema', () => {
    const base = measureInput(user('hi')).textTokens;
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', name: 'ann', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think', redactedData: 'xyz' },
            { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}' },
          ],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', content: [{ type: 'text', text: 'ok' }] }],
        },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      responseFormat: { type: 'json-schema', name: 's', schema: { type: 'object' } },
    };
    const size = measureInput(request);
    const parts = [
      'be brief',
      'ann',
      'think',
      'xyz',
      'c1',
      'f',
      '{"a":1}',
      'c1',
      'f',
      'ok',
      JSON.stringify(request.tools),
      's',
      '{"type":"object"}',
    ];
    expect(size.textTokens - base).toBeGreaterThanOrEqual(
      parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0) - 2,
    );
    expect(size.textTokens - base).toBeGreaterThanOrEqual(500);
  });

  it("holds images at the upstream family's figure and files as pages of image and text", () => {
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
            {
              type: 'tool-result',
              toolCallId: 't',
              content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }],
            },
            { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'AAAA' } },
          ],
        },
      ],
    };
    const size = measureInput(request);
    expect(size).toMatchObject({ images: 2, files: 1 });
    expect(inputTokenBound(size, 1_000) - size.textTokens).toBe(
      2 * 1_000 + FILE_PAGES_BOUND * (1_000 + PAGE_TEXT_TOKENS),
    );
  });

  it('each built-in upstream family states its per-image figure', () => {
    expect(new OpenAIProvider({ baseUrl: 'http://127.0.0.1:1/v1' }).maxImageTokens('gpt-4.1')).toBe(3_779);
    expect(new OpenAIProvider({ baseUrl: 'http://127.0.0.1:1/v1' }).maxImageTokens('gpt-4o-mini-2024-07-18')).toBe(
      48_169,
    );
    expect(new AnthropicProvider({ baseUrl: 'http://127.0.0.1:1' }).maxImageTokens()).toBe(1_600);
    expect(new GeminiProvider({ baseUrl: 'http://127.0.0.1:1/v1beta' }).maxImageTokens()).toBe(4_128);
    expect(DEFAULT_MAX_IMAGE_TOKENS).toBe(4_128);
  });
});
