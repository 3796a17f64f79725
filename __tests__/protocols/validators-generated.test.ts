/** The pre-generated request validators match their schemas, and the gateway validates without ajv's compiler. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

interface ValidatorEntry {
  dir: string;
  schemaExport: string;
}

// The same table and function scripts/generate-validators.cjs writes the files with.
const { VALIDATORS, validatorPath, validatorSource } = require('../../scripts/validator-source.cjs') as {
  VALIDATORS: ValidatorEntry[];
  validatorPath(entry: ValidatorEntry): string;
  validatorSource(schema: unknown, entry: ValidatorEntry): string;
};

describe('generated validators', () => {
  it.each(VALIDATORS.map((entry) => [entry.dir, entry]))(
    '%s/schema.validator.ts is up to date with schema.ts',
    (_dir, entry) => {
      const schema = (require(join(root, entry.dir, 'schema')) as Record<string, unknown>)[entry.schemaExport];
      expect(schema).toBeDefined();
      const checkedIn = readFileSync(join(root, validatorPath(entry)), 'utf8');
      if (checkedIn !== validatorSource(schema, entry)) {
        throw new Error(
          `${validatorPath(entry)} is stale: run \`node scripts/generate-validators.cjs\` and commit the result.`,
        );
      }
    },
  );

  it('the built gateway validates a chat body without loading ajv or any other protocol validator', () => {
    const built = join(root, 'dist/cjs/protocols/openai-chat/schema.validator.js');
    if (!existsSync(built))
      throw new Error('dist/ has no generated validators: run `npm run build` first (npm test does).');
    const script = `
      const express = require('express');
      const { createGateway } = require('./dist/cjs/index.js');
      const gateway = createGateway({ keys: [{ key: 'sk-test-key-0123456789', id: 'rich', balance: 1000000 }] });
      const app = express().use(gateway);
      const server = app.listen(0, '127.0.0.1', async () => {
        const post = (body) => fetch('http://127.0.0.1:' + server.address().port + '/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: 'Bearer sk-test-key-0123456789', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const good = await post({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'hi' }] });
        const bad = await post({ model: 'rosetta-echo', messages: [{ role: 'robot', content: 'hi' }] });
        const loaded = Object.keys(require.cache).map((file) => file.split(require('node:path').sep).join('/'));
        console.log(JSON.stringify({
          statuses: [good.status, bad.status],
          error: (await bad.json()).error,
          ajv: loaded.filter((file) => file.includes('/node_modules/ajv/')).map((file) => file.split('/node_modules/')[1]),
          validators: loaded.filter((file) => file.endsWith('/schema.validator.js')).map((file) => file.split('/dist/cjs/')[1]),
        }));
        server.closeAllConnections();
        server.close();
        await gateway.close();
      });`;
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as {
      statuses: number[];
      error: { message: string; param: string };
      ajv: string[];
      validators: string[];
    };
    expect(result.statuses).toEqual([200, 400]);
    expect(result.error).toMatchObject({
      message: 'messages[0].role: must be one of "system", "developer", "user", "assistant", "tool", "function"',
      param: 'messages[0].role',
    });
    // The generated code needs only ajv's small runtime helpers (ucs2length for minLength/maxLength), never the
    // compiler.
    expect(result.ajv.filter((file) => !file.startsWith('ajv/dist/runtime/'))).toEqual([]);
    expect(result.validators).toEqual(['protocols/openai-chat/schema.validator.js']);
  });
});
