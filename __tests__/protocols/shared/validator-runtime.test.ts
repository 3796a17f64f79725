/** The generated validators' run-time helpers are the gateway's own and agree with ajv's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ajvUcs2length from 'ajv/dist/runtime/ucs2length';
import { ucs2length } from '../../../lib/protocols/shared/validator-runtime';

it('ucs2length counts code points as ajv does', () => {
  for (const text of ['', 'a', 'héllo', '😀', 'a😀b', '\ud83d', '\ude00x', '\ud83d\ud83d\ude00', '漢字🚀🚀']) {
    expect(ucs2length(text)).toBe(ajvUcs2length(text));
  }
});

it('no generated validator requires ajv at run time', () => {
  const protocols = [
    'openai-chat',
    'anthropic-messages',
    'gemini',
    'openai-images',
    'openai-responses',
    'openai-embeddings',
  ];
  for (const protocol of protocols) {
    const source = readFileSync(join(__dirname, '../../../lib/protocols', protocol, 'schema.validator.ts'), 'utf8');
    expect(source).not.toMatch(/require\(|from ["']ajv/);
  }
});
