// Writes each protocol's schema.validator.ts from the schema in its schema.ts: `node scripts/generate-validators.cjs`.
// The schema.ts files (and the lib/ modules they import) are transpiled in memory, so no build is needed; schema.ts
// loads its generated validator only on first use, so a missing or stale one never stands in the way of regenerating
// it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire, wrap } = require('node:module');
const ts = require('typescript');
const { VALIDATORS, validatorPath, validatorSource } = require('./validator-source.cjs');

const root = path.join(__dirname, '..');
const requirePackage = createRequire(path.join(root, 'package.json'));

/** A TypeScript file of lib/ (one of `file`, `file.ts`, `file/index.ts`). */
function resolveTs(file) {
  for (const candidate of [file, `${file}.ts`, path.join(file, 'index.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot find ${file}.ts`);
}

/** Loads a lib/ TypeScript module and the lib/ modules it imports, transpiled to CommonJS in memory. */
function loadTs(file, loaded = new Map()) {
  if (loaded.has(file)) return loaded.get(file).exports;
  const module = { exports: {} };
  loaded.set(file, module);
  const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const requireFrom = (specifier) => {
    if (!specifier.startsWith('.')) return requirePackage(specifier);
    const target = path.resolve(path.dirname(file), specifier);
    return loadTs(resolveTs(target), loaded);
  };
  vm.runInThisContext(wrap(outputText), { filename: file })(
    module.exports,
    requireFrom,
    module,
    file,
    path.dirname(file),
  );
  return module.exports;
}

for (const entry of VALIDATORS) {
  const schema = loadTs(path.join(root, entry.dir, 'schema.ts'))[entry.schemaExport];
  if (!schema) throw new Error(`${entry.dir}/schema.ts does not export ${entry.schemaExport}`);
  const source = validatorSource(schema, entry);
  fs.writeFileSync(path.join(root, validatorPath(entry)), source);
  console.log(`${validatorPath(entry)}: ${source.length} characters`);
}
