// Turns a request-body JSON Schema into the source of its pre-generated validator module (ajv standalone code),
// so the gateway validates bodies without loading ajv's compiler. Used by generate-validators.cjs and by the
// test that checks the checked-in validators are up to date.
'use strict';

const Ajv = require('ajv').default;
const standaloneCode = require('ajv/dist/standalone').default;

/** Each protocol's schema: the folder of its schema.ts, and the name under which schema.ts exports the schema. */
const VALIDATORS = [
  { dir: 'lib/protocols/openai-chat', schemaExport: 'chatCompletionBodySchema' },
  { dir: 'lib/protocols/anthropic-messages', schemaExport: 'messagesBodySchema' },
  { dir: 'lib/protocols/gemini', schemaExport: 'generateContentBodySchema' },
  { dir: 'lib/protocols/openai-images', schemaExport: 'imageGenerationBodySchema' },
  { dir: 'lib/protocols/openai-responses', schemaExport: 'responsesBodySchema' },
  { dir: 'lib/protocols/openai-embeddings', schemaExport: 'embeddingsBodySchema' },
];

/** Where a protocol's generated validator lives, relative to the repository root. */
function validatorPath(entry) {
  return `${entry.dir}/schema.validator.ts`;
}

// The options the gateway has always validated with. inlineRefs off: a `$ref`'d subschema becomes one function
// however often it is used, not a copy per use (Gemini's parts appear under both spellings).
const AJV_OPTIONS = { allErrors: false, strict: false, coerceTypes: false, useDefaults: false, inlineRefs: false };

/** The source of schema.validator.ts for one schema. A fresh Ajv per schema keeps the generated names stable. */
function validatorSource(schema, entry) {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true, lines: true } });
  const validate = ajv.compile(schema);
  const { code, runtime } = ownRuntime(standaloneCode(ajv, validate));
  return `${header(entry, runtime)}${typedExports(code, String(validate.source.validateName))}`;
}

/** ajv's runtime helpers, each replaced by the gateway's own (lib/protocols/shared/validator-runtime.ts). */
const RUNTIME = { 'ajv/dist/runtime/ucs2length': 'ucs2length' };

/**
 * Takes ajv's `require` of its runtime helpers out of the code, to be imported from the gateway's runtime module
 * instead: the gateway then needs no part of ajv at run time. Throws on a helper it has no replacement for.
 */
function ownRuntime(code) {
  const runtime = [];
  const replaced = code.replace(/^const (\w+) = require\("([^"]+)"\)\.default;\n/gm, (_line, local, module) => {
    const own = RUNTIME[module];
    if (!own) throw new Error(`the generated validator needs ${module}, which validator-runtime.ts does not provide`);
    runtime.push(own === local ? own : `${own} as ${local}`);
    return '';
  });
  if (/require\(/.test(replaced)) throw new Error('the generated validator still requires a module');
  return { code: replaced, runtime };
}

function header(entry, runtime) {
  return [
    `// Generated from ${entry.dir}/schema.ts (${entry.schemaExport}) by scripts/generate-validators.cjs. Do not edit:`,
    '// change the schema, then run `node scripts/generate-validators.cjs`.',
    '// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)',
    "import type { GeneratedValidator } from '../shared/validate';",
    ...(runtime.length > 0 ? [`import { ${runtime.join(', ')} } from '../shared/validator-runtime';`] : []),
    '',
    '',
  ].join('\n');
}

/**
 * Replaces ajv's untyped exports (`export const validate = validateN; export default validateN;`) with one typed
 * export, so schema.ts can import it under the repository's strict settings. Throws if ajv changes that opening,
 * rather than writing a module that silently exports something else.
 */
function typedExports(code, name) {
  const opening = `"use strict";\nexport const validate = ${name};\nexport default ${name};\n`;
  if (!code.startsWith(opening)) throw new Error(`ajv standalone code no longer starts with:\n${opening}`);
  return `export const validate: GeneratedValidator = ${name};\n${code.slice(opening.length)}`;
}

module.exports = { VALIDATORS, validatorPath, validatorSource };
