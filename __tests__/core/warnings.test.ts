/** lib/warnings.ts: a drop is logged and recorded once; the header form names only safe names, capped. */
import createDebug from 'debug';
import type { CallWarning } from '../../lib';
import {
  CallWarnings,
  describeWarning,
  MAX_WARNINGS_HEADER_LENGTH,
  mergeWarnings,
  reportDrop,
  warningsHeader,
} from '../../lib/warnings';

const topK: CallWarning = { type: 'unsupported-setting', setting: 'top_k', details: 'chat completions has no top_k' };

describe('reportDrop', () => {
  it('logs the drop as one debug line and records it as a warning', () => {
    const log = createDebug('rosetta:test-warnings');
    log.enabled = true;
    const lines: string[] = [];
    log.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    const warnings = new CallWarnings();
    reportDrop(log, (warning) => warnings.add(warning), topK);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('top_k dropped: chat completions has no top_k');
    expect(warnings.list).toEqual([topK]);
  });

  it('without a sink only logs (a pure encoder called on its own)', () => {
    expect(() => reportDrop(createDebug('rosetta:test-warnings'), undefined, topK)).not.toThrow();
  });
});

it('describes each kind of warning as the debug line said it', () => {
  expect(describeWarning(topK)).toBe('top_k dropped: chat completions has no top_k');
  expect(describeWarning({ type: 'unsupported-tool', tool: 'web_search' })).toBe('tool web_search dropped');
  expect(describeWarning({ type: 'other', message: 'something else' })).toBe('something else');
});

it('a collector keeps each warning once, and none allocates no list', () => {
  const warnings = new CallWarnings();
  expect(warnings.list).toBeUndefined();
  warnings.add(topK);
  warnings.add({ ...topK });
  warnings.add({ type: 'unsupported-setting', setting: 'seed' });
  expect(warnings.list).toEqual([topK, { type: 'unsupported-setting', setting: 'seed' }]);
  expect(mergeWarnings([topK], undefined, [{ ...topK }])).toEqual([topK]);
  expect(mergeWarnings(undefined, [])).toBeUndefined();
});

describe('warningsHeader', () => {
  it('names each warning by type and name, never details or messages', () => {
    const header = warningsHeader([
      topK,
      { type: 'unsupported-tool', tool: 'web_search', details: 'secret detail' },
      { type: 'other', message: 'secret message' },
    ]);
    expect(header).toBe('unsupported-setting=top_k; unsupported-tool=web_search; other');
  });

  it('is undefined without warnings', () => {
    expect(warningsHeader(undefined)).toBeUndefined();
    expect(warningsHeader([])).toBeUndefined();
  });

  it('restricts a name to safe characters and 64 of them', () => {
    const header = warningsHeader([{ type: 'unsupported-tool', tool: `evil\r\nset-cookie: x=1; ${'a'.repeat(100)}` }])!;
    expect(header).toMatch(/^unsupported-tool=[\w.:/-]{64}$/);
  });

  it('is capped, the rest counted', () => {
    const many: CallWarning[] = Array.from({ length: 40 }, (_, index) => ({
      type: 'unsupported-setting',
      setting: `setting_number_${index}`,
    }));
    const header = warningsHeader(many)!;
    expect(header.length).toBeLessThanOrEqual(MAX_WARNINGS_HEADER_LENGTH);
    const named = header.split('; ').filter((entry) => entry.startsWith('unsupported-setting='));
    expect(header.endsWith(`; more=${40 - named.length}`)).toBe(true);
    expect(named.length).toBeGreaterThan(5);
  });
});
