/**
 * The layer check `npm run lint` runs (.dependency-cruiser.cjs over lib/, docs/architecture.md "Layers") fails on what
 * it is for: each case plants an import in a small tree of lib/ paths and runs dependency-cruiser on it with the
 * project's configuration. A clean tree passes, so a failure is the planted import's. The rank table the doc draws is
 * the one the configuration checks.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..', '..');
const { RANKS } = require('../../scripts/layer-ranks.cjs') as { RANKS: Array<[number, string, string]> };

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the check on a tree of files (path → source) as `npm run lint` does, or for its JSON report. */
function run(files: Record<string, string>, outputType: 'err' | 'json'): { stdout: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'rosetta-layers-'));
  try {
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), source);
    }
    const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
    const config = join(root, '.dependency-cruiser.cjs');
    const result = spawnSync(process.execPath, [bin, 'lib', '--config', config, '--output-type', outputType], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (!result.stdout) throw new Error(`dependency-cruiser gave no output: ${result.stderr}`);
    return { stdout: result.stdout, status: result.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The violations the check finds in a tree of files. */
function violations(files: Record<string, string>): Violation[] {
  const report = JSON.parse(run(files, 'json').stdout) as {
    summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
  };
  return report.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}

/** A tree that imports only downwards: the core, the model table above it, the pipeline above that. */
const CLEAN: Record<string, string> = {
  'lib/json.ts': 'export type JsonObject = Record<string, unknown>;\n',
  'lib/canonical/index.ts': "import type { JsonObject } from '../json';\nexport type Extensions = JsonObject;\n",
  'lib/models.ts':
    "import type { Extensions } from './canonical';\nexport type ModelTable = { extensions: Extensions };\n",
  'lib/pipeline/call.ts': "import type { ModelTable } from '../models';\nexport type Call = { models: ModelTable };\n",
  'lib/upstream/sse.ts': 'export const SSE = 1;\n',
  'lib/protocols/gemini/index.ts':
    "import type { Extensions } from '../../canonical';\nexport type Codec = Extensions;\n",
  'lib/providers/openai/index.ts': "import { SSE } from '../../upstream/sse';\nexport const provider = SSE;\n",
};

describe('layer check', () => {
  it('passes a tree that imports only downwards, and exits non-zero once one import goes up', () => {
    expect(violations(CLEAN)).toEqual([]);
    expect(run(CLEAN, 'err').status).toBe(0);
    const upward = run(
      { ...CLEAN, 'lib/json.ts': "import type { Call } from './pipeline/call';\nexport type J = Call;\n" },
      'err',
    );
    expect(upward.status).not.toBe(0);
    expect(upward.stdout).toContain('error rank: lib/json.ts → lib/pipeline/call.ts');
  });

  it.each<[string, Record<string, string>, Violation[]]>([
    [
      'an upward import, type-only',
      { 'lib/errors.ts': "import type { ModelTable } from './models';\nexport type E = ModelTable;\n" },
      [{ rule: 'rank', from: 'lib/errors.ts', to: 'lib/models.ts' }],
    ],
    [
      'a type-only cycle inside one unit',
      {
        'lib/routing/router.ts': "import type { B } from './health';\nexport type A = { b?: B };\n",
        'lib/routing/health.ts': "import type { A } from './router';\nexport type B = { a?: A };\n",
      },
      [{ rule: 'no-circular', from: 'lib/routing/health.ts', to: 'lib/routing/router.ts' }],
    ],
    [
      'a provider importing a codec (siblings of one rank)',
      {
        'lib/providers/openai/decode.ts':
          "import type { Codec } from '../../protocols/gemini';\nexport type D = Codec;\n",
      },
      [{ rule: 'rank', from: 'lib/providers/openai/decode.ts', to: 'lib/protocols/gemini/index.ts' }],
    ],
    [
      "a provider importing another provider's folder",
      { 'lib/providers/gemini/decode.ts': "import { provider } from '../openai';\nexport const d = provider;\n" },
      [{ rule: 'sibling-folder', from: 'lib/providers/gemini/decode.ts', to: 'lib/providers/openai/index.ts' }],
    ],
    [
      'a codec importing the outbound HTTP client',
      { 'lib/protocols/gemini/stream.ts': "import { SSE } from '../../upstream/sse';\nexport const s = SSE;\n" },
      [{ rule: 'codec-to-upstream', from: 'lib/protocols/gemini/stream.ts', to: 'lib/upstream/sse.ts' }],
    ],
    [
      "a store importing the gateway's options",
      {
        'lib/options/index.ts': 'export type GatewayOptions = object;\n',
        'lib/stores/redis/connection.ts':
          "import type { GatewayOptions } from '../../options';\nexport type C = GatewayOptions;\n",
      },
      [{ rule: 'rank', from: 'lib/stores/redis/connection.ts', to: 'lib/options/index.ts' }],
    ],
    [
      'a module in no unit of the rank table',
      {
        'lib/novel.ts': 'export const novel = 1;\n',
        'lib/pipeline/uses-novel.ts': "import { novel } from '../novel';\nexport const n = novel;\n",
      },
      [{ rule: 'unranked', from: 'lib/pipeline/uses-novel.ts', to: 'lib/novel.ts' }],
    ],
    [
      'an import it cannot resolve',
      { 'lib/pipeline/typo.ts': "import { gone } from '../modles';\nexport const t = gone;\n" },
      [{ rule: 'unresolvable', from: 'lib/pipeline/typo.ts', to: '../modles' }],
    ],
  ])('fails on %s', (_name, planted, expected) => {
    expect(violations({ ...CLEAN, ...planted })).toEqual(expected);
  });

  it('checks the rank table docs/architecture.md draws', () => {
    const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
    const drawn = [...section.matchAll(/^\| (\d+) \| ([^|]+?) \|/gm)].map(([, rank, unit]) => [Number(rank), unit]);
    expect(drawn).toEqual(RANKS.map(([rank, unit]) => [rank, unit]));
  });
});
