/**
 * The layers of lib/ import only downwards (docs/architecture.md, "Layers"): a provider never imports
 * a codec or another provider, a codec never imports a provider or the outbound HTTP client, that client
 * and the vendor wire facts import neither, and a store never imports the gateway's options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..');

/** A path relative to the repository root, with `/` separators. */
const fromRoot = (path: string): string => relative(root, path).split(sep).join('/');

/** Every TypeScript file under a folder of the repository. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** What a file imports by relative path (imports, re-exports, dynamic imports, require), resolved from the root. */
function localImports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => fromRoot(resolve(dirname(join(root, file)), specifier)));
}

/** The provider folder a path lies in (`lib/providers/<name>/…` → `<name>`); undefined for the contract files. */
function providerFolder(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'lib' && parts[1] === 'providers' && parts.length > 3 ? parts[2] : undefined;
}

const isUnder = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);
const isOptions = (path: string): boolean => path === 'lib/options' || path === 'lib/options.ts';

/** Why an import from `file` of `target` breaks the layering, or undefined when it does not. */
function violation(file: string, target: string): string | undefined {
  if (isUnder(file, 'lib/providers')) {
    if (isUnder(target, 'lib/protocols')) return 'a provider imports a codec';
    const own = providerFolder(file);
    const other = providerFolder(target);
    if (other !== undefined && own !== undefined && other !== own) {
      return "a provider imports another provider's folder";
    }
  }
  if (isUnder(file, 'lib/protocols')) {
    if (isUnder(target, 'lib/providers')) return 'a codec imports a provider';
    if (isUnder(target, 'lib/upstream')) return 'a codec imports the outbound HTTP client';
  }
  if (isUnder(file, 'lib/stores') && isOptions(target)) return "a store imports the gateway's options";
  if (isUnder(file, 'lib/upstream') && (isUnder(target, 'lib/protocols') || providerFolder(target) !== undefined)) {
    return 'the outbound HTTP client imports a codec or a provider';
  }
  const above = ['lib/protocols', 'lib/providers', 'lib/upstream'];
  if (isUnder(file, 'lib/wire') && above.some((folder) => isUnder(target, folder))) {
    return 'a vendor wire fact imports a codec, a provider or the HTTP client';
  }
  return undefined;
}

describe('layers', () => {
  const files = sourceFiles('lib');

  it('reads the imports it checks (a provider index imports its own files and the HTTP client)', () => {
    expect(files).toContain('lib/providers/openai/index.ts');
    expect(localImports('lib/providers/openai/index.ts')).toEqual(
      expect.arrayContaining(['lib/providers/openai/decode-stream', 'lib/upstream/sse']),
    );
  });

  it.each([
    ['lib/providers/gemini/encode-request.ts', 'lib/protocols/gemini/field-names', 'a provider imports a codec'],
    [
      'lib/providers/anthropic/encode-thinking.ts',
      'lib/providers/openai/map-reasoning',
      "a provider imports another provider's folder",
    ],
    ['lib/protocols/openai-chat/decode-request.ts', 'lib/providers/openai/map-reasoning', 'a codec imports a provider'],
    ['lib/protocols/gemini/index.ts', 'lib/upstream/sse', 'a codec imports the outbound HTTP client'],
    ['lib/stores/redis/connection.ts', 'lib/options', "a store imports the gateway's options"],
    [
      'lib/upstream/sse.ts',
      'lib/providers/openai/decode-stream',
      'the outbound HTTP client imports a codec or a provider',
    ],
    [
      'lib/wire/media.ts',
      'lib/protocols/shared/validate',
      'a vendor wire fact imports a codec, a provider or the HTTP client',
    ],
  ])('names the crossing %s → %s', (file, target, reason) => {
    expect(violation(file, target)).toBe(reason);
  });

  it('lets a provider import its own folder, the provider contract, the HTTP client and the wire facts', () => {
    const allowed = ['lib/providers/openai/decode-stream', 'lib/providers/types', 'lib/upstream/sse', 'lib/wire/media'];
    for (const target of allowed) {
      expect(violation('lib/providers/openai/index.ts', target)).toBeUndefined();
    }
  });

  it('no file under lib/ imports across a layer', () => {
    const crossings = files.flatMap((file) =>
      localImports(file).flatMap((target) => {
        const reason = violation(file, target);
        return reason ? [`${file} → ${target}: ${reason}`] : [];
      }),
    );
    expect(crossings).toEqual([]);
  });
});
