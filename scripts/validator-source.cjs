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
  return `${header(entry)}${typedExports(standaloneCode(ajv, validate), String(validate.source.validateName))}`;
}

function header(entry) {
  return [
    `// Generated from ${entry.dir}/schema.ts (${entry.schemaExport}) by scripts/generate-validators.cjs. Do not edit:`,
    '// change the schema, then run `node scripts/generate-validators.cjs`.',
    '// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)',
    "import type { GeneratedValidator } from '../shared/validate';",
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
