/** What a held stream keeps alive: its prompt once, not once per copy made on the way upstream. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

describe('memory of a held stream', () => {
  it('a stream relayed to an upstream holds its prompt about once while it is open (no string copy of the upstream body)', () => {
    // npm test builds dist first. A child process with --expose-gc, so the live heap can be measured.
    const script = join(__dirname, 'fixtures/memory/held-streams.cjs');
    const promptKb = 200;
    const output = execFileSync(process.execPath, ['--expose-gc', script, '16', String(promptKb)], { cwd: join(__dirname, '..'), encoding: 'utf8' });
    const { perStream, open } = JSON.parse(output) as { perStream: number; open: number };
    expect(open).toBe(16);
    // The prompt itself (the decoded request lives until the stream ends: a provider may need to count
    // it) plus the client's, gateway's and upstream's per-connection state: ~1.36 × the prompt here.
    // The JSON string sent upstream used to be kept as well: ~2.3 × the prompt.
    expect(perStream).toBeGreaterThan(promptKb * 1024 * 0.9);
    expect(perStream).toBeLessThan(promptKb * 1024 * 1.7);
  });
});
