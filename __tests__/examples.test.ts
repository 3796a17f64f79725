/** The runnable examples start, print what the README promises, and serve calls. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { readJson } from './helpers/app';
import { startMockOpenAI } from './helpers/mock-openai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = join(__dirname, '..');

async function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; base: string }> {
  const child = spawn(process.execPath, [join(root, script)], { cwd: root, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 10_000);
    child.stdout!.on('data', () => {
      const match = /(http:\/\/localhost:\d+)/.exec(output);
      if (match) { clearTimeout(timer); resolve(match[1]!); }
    });
    child.on('exit', () => reject(new Error(`exited: ${output}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { child, output: () => output, base };
}

function post(url: string, headers: Record<string, string>, body: unknown) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const chat = { model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello!' }] };

describe('examples/server (npm start)', () => {
  it('runs on the demo key and prints the base URL, keys, models and calls for every client', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    try {
      const text = output();
      for (const expected of ['sk-rosetta-demo', 'rosetta-echo', 'rosetta-image', 'curl', 'openai', '@anthropic-ai/sdk', '@google/genai', 'ANTHROPIC_BASE_URL']) expect(text).toContain(expected);
      const response = await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, chat);
      expect(response.status).toBe(200);
      expect((await readJson(response)).choices[0].message.content).toBe('Hello!');
    } finally {
      child.kill();
    }
  });

  it('reads GATEWAY_KEYS: key:balance, a bare key is unmetered, balance 0 is refused; keys are masked in the output', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: 'alpha-key-111111:100000, beta-key-2222222, zero-key-3333333:0' });
    try {
      expect(output()).not.toContain('alpha-key-111111');
      expect(output()).not.toContain('sk-rosetta-demo');
      expect((await post(`${base}/v1/chat/completions`, { authorization: 'Bearer alpha-key-111111' }, chat)).status).toBe(200);
      expect((await post(`${base}/v1/chat/completions`, { authorization: 'Bearer beta-key-2222222' }, chat)).status).toBe(200);
      expect((await post(`${base}/v1/chat/completions`, { authorization: 'Bearer zero-key-3333333' }, chat)).status).toBe(403);
      expect((await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, chat)).status).toBe(401);
    } finally {
      child.kill();
    }
  });
});

describe('examples/server upstreams from the environment', () => {
  it('registers an OpenAI-compatible upstream from OPENAI_API_KEY + OPENAI_BASE_URL and reads MODELS_FILE', async () => {
    const mock = await startMockOpenAI();
    const dir = mkdtempSync(join(tmpdir(), 'rg-models-'));
    const modelsFile = join(dir, 'models.json');
    writeFileSync(modelsFile, JSON.stringify([{ id: 'house-model', provider: 'openai', upstreamModel: 'echo' }, { id: 'rosetta-echo', provider: 'local' }]));
    const env = { GATEWAY_KEYS: '', OPENAI_API_KEY: 'sk-upstream-example-1234567', OPENAI_BASE_URL: mock.url };
    const withDefaults = await start('examples/server/index.mjs', env);
    try {
      expect(withDefaults.output()).toContain('gpt-4o-mini');
      const response = await post(`${withDefaults.base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'via env' }] });
      expect((await readJson(response)).choices[0].message.content).toBe('upstream says: via env');
      expect(mock.requests.at(-1)!.headers.authorization).toBe('Bearer sk-upstream-example-1234567');
      expect(withDefaults.output()).not.toContain('sk-upstream-example-1234567');
    } finally {
      withDefaults.child.kill();
    }
    const withFile = await start('examples/server/index.mjs', { ...env, MODELS_FILE: modelsFile });
    try {
      expect(withFile.output()).toContain('house-model');
      expect(withFile.output()).not.toContain('gpt-4o-mini');
      const response = await post(`${withFile.base}/v1/messages`, { 'x-api-key': 'sk-rosetta-demo' }, { model: 'house-model', max_tokens: 50, messages: [{ role: 'user', content: 'from a file' }] });
      expect((await readJson(response)).content[0].text).toBe('upstream says: from a file');
    } finally {
      withFile.child.kill();
      await mock.close();
    }
  });
});

describe('examples/server demo key', () => {
  /** A Claude Code turn (the recorded-shape fixture), its system prompt padded past 20,000 input tokens, not streamed. */
  function claudeCodeTurn(): Record<string, unknown> {
    const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'claude-code', 'messages-turn-1.json'), 'utf8')) as Record<string, any>;
    const filler = Array.from({ length: 1_300 }, (_, index) => `Rule ${index}: keep the working tree clean and run the tests.`).join('\n');
    return { ...fixture, model: 'rosetta-echo', stream: false, system: [...fixture.system, { type: 'text', text: filler }] };
  }

  it('pays for 100 Claude Code turns of 20,000 input tokens each', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    const headers = { authorization: 'Bearer sk-rosetta-demo', 'anthropic-version': '2023-06-01' };
    try {
      const turn = claudeCodeTurn();
      const { max_tokens: _max, stream: _stream, metadata: _metadata, ...countable } = turn;
      const counted = await readJson(await post(`${base}/v1/messages/count_tokens`, headers, countable));
      expect(counted.input_tokens).toBeGreaterThanOrEqual(20_000);
      const statuses: number[] = [];
      for (let index = 0; index < 100; index++) {
        const response = await post(`${base}/v1/messages`, headers, turn);
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual(Array.from({ length: 100 }, () => 200));
    } finally {
      child.kill();
    }
  }, 120_000);
});

describe('examples/custom-key-store', () => {
  it('serves under /ai with the host key store and charges the host account', async () => {
    const { child, base } = await start('examples/custom-key-store/index.mjs', {});
    try {
      const before = await readJson(await fetch(`${base}/admin/credits/alice`));
      const response = await post(`${base}/ai/v1/chat/completions`, { authorization: 'Bearer alice-secret-key' }, chat);
      expect(response.status).toBe(200);
      const { usage } = await readJson(response);
      const after = await readJson(await fetch(`${base}/admin/credits/alice`));
      expect(before.credits - after.credits).toBe(usage.total_tokens);
      expect((await post(`${base}/ai/v1/chat/completions`, { authorization: 'Bearer bob-secret-key' }, chat)).status).toBe(403);
      expect((await post(`${base}/ai/v1/chat/completions`, { authorization: 'Bearer nobody' }, chat)).status).toBe(401);
    } finally {
      child.kill();
    }
  });
});
