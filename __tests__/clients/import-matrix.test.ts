/** The built package (npm test builds it first) loads from CommonJS and ESM, JavaScript and TypeScript. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const run = (args: string[], cwd = root) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8' });

const probe = `
  const gateway = createGateway({ keys: [{ key: 'k-123456789' }] });
  if (typeof gateway !== 'function' || typeof gateway.close !== 'function') throw new Error('not a router');
  if (typeof MemoryKeyStore !== 'function' || typeof GatewayError !== 'function') throw new Error('missing exports');
  console.log('ok');
`;

describe('import matrix', () => {
  it('CommonJS require from JavaScript', () => {
    expect(
      run(['-e', `const { createGateway, MemoryKeyStore, GatewayError } = require('rosetta-gateway');${probe}`]).trim(),
    ).toBe('ok');
  });

  it('ESM import from JavaScript', () => {
    expect(
      run([
        '--input-type=module',
        '-e',
        `import { createGateway, MemoryKeyStore, GatewayError } from 'rosetta-gateway';${probe}`,
      ]).trim(),
    ).toBe('ok');
  });

  it("the main entry is what a host calls (25 runtime values at most); authors' helpers are in /extend", () => {
    const names = run(['-e', "console.log(Object.keys(require('rosetta-gateway')).join(','))"]).trim().split(',');
    expect(names.length).toBeLessThanOrEqual(25);
    expect(names).toEqual(
      expect.arrayContaining(['createGateway', 'GatewayError', 'MemoryKeyStore', 'OpenAIProvider']),
    );
    const extend = run([
      '--input-type=module',
      '-e',
      "import { collectStream, builtinCodecs, countTextTokens } from 'rosetta-gateway/extend'; console.log(typeof collectStream, typeof builtinCodecs, typeof countTextTokens);",
    ]).trim();
    expect(extend).toBe('function function function');
    const cjsExtend = run(['-e', "console.log(typeof require('rosetta-gateway/extend').replayResponse)"]).trim();
    expect(cjsExtend).toBe('function');
  });

  it('rosetta-gateway/dashboard loads from CommonJS and ESM', () => {
    expect(run(['-e', "console.log(typeof require('rosetta-gateway/dashboard').createDashboard)"]).trim()).toBe(
      'function',
    );
    const esm = "import { createDashboard } from 'rosetta-gateway/dashboard'; console.log(typeof createDashboard);";
    expect(run(['--input-type=module', '-e', esm]).trim()).toBe('function');
  });

  it('ESM and CJS share one implementation (instanceof works across both)', () => {
    const script = `import { createRequire } from 'node:module'; import { GatewayError } from 'rosetta-gateway';
      const cjs = createRequire(import.meta.url)('rosetta-gateway');
      console.log(new cjs.GatewayError('internal', 'x') instanceof GatewayError);`;
    expect(run(['--input-type=module', '-e', script]).trim()).toBe('true');
  });

  it('TypeScript consumers type-check against the published types, as ESM (.mts) and CommonJS (.cts)', () => {
    // Inside the package, so 'rosetta-gateway' resolves by self-reference through package.json "exports".
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, '.tmp', 'types-'));
    const source = `import { createGateway, MemoryQuotaStore, type GatewayOptions, type Provider, type KeyStore } from 'rosetta-gateway';
      const keyStore: KeyStore = { authenticate: (key: string) => (key === 'x' ? { id: 'x' } : undefined) };
      const options: GatewayOptions = { keyStore, quotaStore: new MemoryQuotaStore() };
      const provider: Provider | undefined = undefined;
      export const gateway = createGateway(options);
      export const ready: Promise<void> = gateway.ready;
      void provider;\n`;
    writeFileSync(join(dir, 'esm.mts'), source);
    writeFileSync(join(dir, 'cjs.cts'), source);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    try {
      expect(() =>
        run([join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], root),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
