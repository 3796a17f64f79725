/** The runnable examples start, print what the README promises, and serve calls. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { type Json, readJson } from '../helpers/app';
import { startMockAccounts } from '../helpers/mock-accounts';
import { startMockOpenAI } from '../helpers/mock-openai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';

const root = join(__dirname, '..', '..');

async function start(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; output: () => string; base: string }> {
  const child = spawn(process.execPath, [join(root, script)], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 10_000);
    child.stdout!.on('data', () => {
      const match = /(http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', () => reject(new Error(`exited: ${output}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { child, output: () => output, base };
}

/** Runs a script to its exit (at most `deadlineMs`; a process still running then is killed and reported as such). */
function runToExit(
  script: string,
  env: Record<string, string>,
  deadlineMs = 10_000,
): Promise<{ code: number | null; output: string; killed: boolean }> {
  const child = spawn(process.execPath, [join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  return waitForExit(child, deadlineMs).then(({ code, killed }) => ({ code, output, killed }));
}

/** Waits for a child to exit; after `deadlineMs` kills it (SIGKILL) and says so. */
function waitForExit(child: ChildProcess, deadlineMs: number): Promise<{ code: number | null; killed: boolean }> {
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed });
    });
  });
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function freePort(): Promise<number> {
  const { server, port } = await listening();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function post(url: string, headers: Record<string, string>, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const chat = { model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello!' }] };

describe('examples/server (npm start)', () => {
  it('runs on the demo key and prints the base URL, keys, models and calls for every client', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    try {
      const text = output();
      for (const expected of [
        'sk-rosetta-demo',
        'rosetta-echo',
        'rosetta-image',
        'curl',
        'openai',
        '@anthropic-ai/sdk',
        '@google/genai',
        'ANTHROPIC_BASE_URL',
        '/v1/responses',
        '@ai-sdk/openai',
      ])
        expect(text).toContain(expected);
      const response = await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, chat);
      expect(response.status).toBe(200);
      expect((await readJson(response)).choices[0].message.content).toBe('Hello!');
    } finally {
      child.kill();
    }
  });

  it('prints a Codex CLI config.toml that works as printed: codex exec answers through the Responses API', async () => {
    const { child, output } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    const dir = mkdtempSync(join(tmpdir(), 'rg-example-codex-'));
    try {
      const lines = output().split('\n');
      const header = lines.findIndex((line) => line.startsWith('Codex CLI ('));
      expect(lines[header]).toContain('GATEWAY_KEY=sk-rosetta-demo codex exec --skip-git-repo-check');
      const config: string[] = [];
      for (const line of lines.slice(header + 1)) {
        if (!line.startsWith('  ')) break;
        config.push(line.trim());
      }
      expect(config).toContain('wire_api = "responses"');
      const home = join(dir, 'codex-home');
      mkdirSync(home);
      writeFileSync(join(home, 'config.toml'), `${config.join('\n')}\n`);
      const codex = spawn(
        join(root, 'node_modules', '.bin', 'codex'),
        ['exec', '--skip-git-repo-check', '-s', 'read-only', 'Hello from the banner'],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: dir,
            CODEX_HOME: home,
            GATEWAY_KEY: 'sk-rosetta-demo',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let said = '';
      codex.stdout!.on('data', (chunk) => {
        said += chunk;
      });
      codex.stderr!.on('data', (chunk) => {
        said += chunk;
      });
      const { code } = await waitForExit(codex, 60_000);
      expect({ code, said: code === 0 ? '' : said }).toEqual({ code: 0, said: '' });
      expect(said).toContain('Hello from the banner');
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('reads GATEWAY_KEYS: key:balance, a bare key is unmetered, balance 0 is refused; keys are masked in the output', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: 'alpha-key-111111:100000, beta-key-2222222, zero-key-3333333:0',
    });
    try {
      expect(output()).not.toContain('alpha-key-111111');
      expect(output()).not.toContain('sk-rosetta-demo');
      expect(output()).not.toContain("'$GATEWAY_KEY'");
      expect(output()).toContain('apiKey: process.env.GATEWAY_KEY');
      expect(
        (await post(`${base}/v1/chat/completions`, { authorization: 'Bearer alpha-key-111111' }, chat)).status,
      ).toBe(200);
      expect(
        (await post(`${base}/v1/chat/completions`, { authorization: 'Bearer beta-key-2222222' }, chat)).status,
      ).toBe(200);
      expect(
        (await post(`${base}/v1/chat/completions`, { authorization: 'Bearer zero-key-3333333' }, chat)).status,
      ).toBe(403);
      expect(
        (await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, chat)).status,
      ).toBe(401);
    } finally {
      child.kill();
    }
  });

  it('masks keys that share a beginning so that they can be told apart, and reveals neither', async () => {
    const { child, output } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: 'team-a-key:500000,team-b-key',
    });
    try {
      const keyLines = output()
        .split('\n')
        .filter((line) => /balance:/.test(line));
      expect(keyLines).toHaveLength(2);
      const [a, b] = keyLines.map((line) => line.trim().split(/\s+/)[0]);
      expect(a).not.toBe(b);
      for (const line of keyLines) expect(line).not.toMatch(/team-[ab]-key|-key/);
    } finally {
      child.kill();
    }
  });

  it('on a busy port says so and exits non-zero (no TypeError)', async () => {
    const { server, port } = await listening();
    try {
      const { code, output } = await runToExit('examples/server/index.mjs', { PORT: String(port), GATEWAY_KEYS: '' });
      expect(output).toContain(`port ${port} is in use; set PORT`);
      expect(output).not.toContain('TypeError');
      expect(code).toBe(1);
    } finally {
      server.close();
    }
  });

  it('stops on SIGTERM while a stream is open (the connection is closed after a short grace) and exits 0', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '', LOCAL_TOKEN_DELAY_MS: '500' });
    const words = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
    const response = await post(
      `${base}/v1/chat/completions`,
      { authorization: 'Bearer sk-rosetta-demo' },
      { ...chat, stream: true, messages: [{ role: 'user', content: words }] },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    const exited = waitForExit(child, 15_000);
    child.kill('SIGTERM');
    const drained = (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        /* the connection was closed */
      }
    })();
    expect(await exited).toEqual({ code: 0, killed: false });
    await drained;
  });

  it('answers paths the gateway does not serve with a JSON 404 in the OpenAI envelope, not an HTML page', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    try {
      for (const [method, path] of [
        ['POST', '/v1/audio/speech'],
        ['GET', '/v1/files'],
        ['POST', '/v1beta/cachedContents'],
        ['POST', '/nothing/here'],
      ] as const) {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: 'Bearer sk-rosetta-demo', 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await readJson(response)).toEqual({
          error: {
            message: expect.stringContaining(path),
            type: 'invalid_request_error',
            param: null,
            code: 'not_found',
          },
        });
      }
    } finally {
      child.kill();
    }
  });

  it('cuts a request whose body trickles in slower than REQUEST_TIMEOUT_MS allows (408, connection closed)', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '', REQUEST_TIMEOUT_MS: '1500' });
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('x');
    }, 200);
    try {
      socket.write(
        'POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer sk-rosetta-demo\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
      );
      const deadline = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 12_000));
      expect(await Promise.race([closed.then(() => 'closed' as const), deadline])).toBe('closed');
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
      socket.destroy();
      child.kill();
    }
  });
});

describe('examples/server upstreams from the environment', () => {
  it('registers an OpenAI-compatible upstream from OPENAI_API_KEY + ROSETTA_OPENAI_BASE_URL and reads MODELS_FILE', async () => {
    const mock = await startMockOpenAI();
    const dir = mkdtempSync(join(tmpdir(), 'rg-models-'));
    const modelsFile = join(dir, 'models.json');
    writeFileSync(
      modelsFile,
      JSON.stringify([
        { id: 'house-model', provider: 'openai', upstreamModel: 'echo' },
        { id: 'rosetta-echo', provider: 'local' },
      ]),
    );
    const env = { GATEWAY_KEYS: '', OPENAI_API_KEY: 'sk-upstream-example-1234567', ROSETTA_OPENAI_BASE_URL: mock.url };
    const withDefaults = await start('examples/server/index.mjs', env);
    try {
      expect(withDefaults.output()).toContain('gpt-4o-mini');
      const response = await post(
        `${withDefaults.base}/v1/chat/completions`,
        { authorization: 'Bearer sk-rosetta-demo' },
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'via env' }] },
      );
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
      const response = await post(
        `${withFile.base}/v1/messages`,
        { 'x-api-key': 'sk-rosetta-demo' },
        { model: 'house-model', max_tokens: 50, messages: [{ role: 'user', content: 'from a file' }] },
      );
      expect((await readJson(response)).content[0].text).toBe('upstream says: from a file');
    } finally {
      withFile.child.kill();
      await mock.close();
    }
  });
});

describe('examples/server UPSTREAMS_FILE', () => {
  const KEYS = { a: 'sk-example-account-a-0123456789', b: 'sk-example-account-b-0123456789' };

  it('serves a model over two accounts named in UPSTREAMS_FILE, keys read from the environment, health at /admin/deployments', async () => {
    const mock = await startMockAccounts();
    const dir = mkdtempSync(join(tmpdir(), 'rg-upstreams-'));
    const upstreamsFile = join(dir, 'upstreams.json');
    const modelsFile = join(dir, 'models.json');
    writeFileSync(
      upstreamsFile,
      JSON.stringify([
        { name: 'acct-a', protocol: 'openai', baseUrl: mock.url, key: 'env:ACCOUNT_A_KEY' },
        { name: 'acct-b', protocol: 'openai', baseUrl: mock.url, key: 'env:ACCOUNT_B_KEY' },
      ]),
    );
    writeFileSync(
      modelsFile,
      JSON.stringify([
        {
          id: 'pool',
          upstreamModel: 'pooled',
          deployments: [
            { provider: 'acct-a', name: 'a' },
            { provider: 'acct-b', name: 'b' },
          ],
        },
      ]),
    );
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: '',
      ADMIN_KEY: 'admin-deployments-key-000001',
      UPSTREAMS_FILE: upstreamsFile,
      MODELS_FILE: modelsFile,
      ACCOUNT_A_KEY: KEYS.a,
      ACCOUNT_B_KEY: KEYS.b,
    });
    try {
      expect(output()).toContain('acct-a (openai at');
      for (let call = 0; call < 20; call++) {
        // A fresh conversation each call (no session to keep): the weights spread them over both accounts.
        const response = await post(
          `${base}/v1/chat/completions`,
          { authorization: 'Bearer sk-rosetta-demo' },
          { model: 'pool', messages: [{ role: 'user', content: `call ${call}` }] },
        );
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(text).not.toContain(KEYS.a);
        expect(text).not.toContain(KEYS.b);
      }
      expect(mock.calls.get(KEYS.a)).toBeGreaterThan(0);
      expect(mock.calls.get(KEYS.b)).toBeGreaterThan(0);
      expect((mock.calls.get(KEYS.a) ?? 0) + (mock.calls.get(KEYS.b) ?? 0)).toBe(20);
      const health = await fetch(`${base}/admin/deployments`, {
        headers: { authorization: 'Bearer admin-deployments-key-000001' },
      });
      expect(health.status).toBe(200);
      const view = await health.text();
      expect(view).toContain('"a"');
      expect(view).not.toContain(KEYS.a);
      expect(output()).not.toContain(KEYS.a);
      expect(output()).not.toContain(KEYS.b);
    } finally {
      child.kill();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start with one line naming what is wrong: a bad protocol, an unset key variable, a file that is not JSON, a deployment of no provider', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-upstreams-bad-'));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const cases: Array<[Record<string, string>, string]> = [
      [
        { UPSTREAMS_FILE: file('protocol.json', '[{"name":"x","protocol":"smtp","key":"env:X_KEY"}]'), X_KEY: KEYS.a },
        'entry 0: protocol must be one of openai, openai-responses, anthropic, gemini, not smtp',
      ],
      [
        { UPSTREAMS_FILE: file('unset.json', '[{"name":"x","key":"env:ROSETTA_TEST_UNSET_KEY"}]') },
        'the environment variable ROSETTA_TEST_UNSET_KEY is not set',
      ],
      [{ UPSTREAMS_FILE: file('garbage.json', 'not json') }, 'garbage.json is not JSON'],
      [{ UPSTREAMS_FILE: join(dir, 'missing.json') }, 'missing.json cannot be read: ENOENT'],
      [
        { MODELS_FILE: file('models.json', '[{"id":"m","deployments":[{"provider":"nowhere"}]}]') },
        "names 'nowhere', which is not among the providers",
      ],
    ];
    try {
      for (const [env, message] of cases) {
        const { code, output } = await runToExit('examples/server/index.mjs', { GATEWAY_KEYS: '', PORT: '0', ...env });
        expect({ code, output }).toEqual({ code: 1, output: expect.stringContaining(`cannot start: `) });
        expect(output).toContain(message);
        // One line, no stack trace, no key.
        expect(output.trim().split('\n')).toHaveLength(1);
        expect(output).not.toContain(KEYS.a);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes an entry’s provider options to its provider: reasoningReplay, cacheControl, timeouts, retries and headers take effect', async () => {
    const mock = await startMockOpenAI();
    const dir = mkdtempSync(join(tmpdir(), 'rg-upstreams-options-'));
    const upstreamsFile = join(dir, 'upstreams.json');
    writeFileSync(
      upstreamsFile,
      JSON.stringify([
        {
          name: 'tuned',
          protocol: 'openai',
          baseUrl: mock.url,
          key: 'env:TUNED_KEY',
          reasoningReplay: 'reasoning_content',
          cacheControl: 'send',
          timeouts: { responseMs: 400 },
          retries: { max: 0 },
          headers: { 'x-team': 'blue', 'api-key': 'env:TUNED_KEY' },
        },
        // The same upstream with the defaults of a loopback host, to compare with.
        { name: 'plain', protocol: 'openai', baseUrl: mock.url, key: 'env:TUNED_KEY' },
      ]),
    );
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: '',
      UPSTREAMS_FILE: upstreamsFile,
      TUNED_KEY: KEYS.a,
    });
    const auth = { authorization: 'Bearer sk-rosetta-demo' };
    // An Anthropic caller's tool loop with a cache breakpoint: the assistant turn made a call and has no reasoning.
    const toolLoop = (model: string) =>
      post(
        `${base}/v1/messages`,
        { 'x-api-key': 'sk-rosetta-demo', 'anthropic-version': '2023-06-01' },
        {
          model,
          max_tokens: 100,
          tools: [
            {
              name: 'get_weather',
              input_schema: { type: 'object', properties: { city: { type: 'string' } } },
            },
          ],
          messages: [
            { role: 'user', content: 'Weather in Oslo?' },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'toolu_01Oslo', name: 'get_weather', input: { city: 'Oslo' } }],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_01Oslo', content: 'Sunny, 21 C' },
                { type: 'text', text: 'Thanks.', cache_control: { type: 'ephemeral' } },
              ],
            },
          ],
        },
      );
    const callsOf = (model: string) => mock.requests.filter((request) => request.body.model === model).length;
    try {
      expect(output()).toContain('tuned (openai at');

      expect((await toolLoop('tuned/echo')).status).toBe(200);
      const tuned = mock.requests.at(-1)!.body as Json;
      const tunedAssistant = tuned.messages.find((message: Json) => message.role === 'assistant');
      expect(tunedAssistant).toMatchObject({ reasoning_content: '', tool_calls: [{ id: 'toolu_01Oslo' }] });
      expect(JSON.stringify(tuned.messages)).toContain('"cache_control":{"type":"ephemeral"}');
      expect(mock.requests.at(-1)!.headers).toMatchObject({ 'x-team': 'blue', 'api-key': KEYS.a });

      expect((await toolLoop('plain/echo')).status).toBe(200);
      const plain = mock.requests.at(-1)!.body as Json;
      expect(plain.messages.find((message: Json) => message.role === 'assistant')).not.toHaveProperty(
        'reasoning_content',
      );
      expect(JSON.stringify(plain.messages)).not.toContain('cache_control');
      expect(mock.requests.at(-1)!.headers).not.toHaveProperty('x-team');

      // timeouts.responseMs: the mock's `slow` model answers after 2 s; the gateway gives up after 0.4 s (504).
      const startedAt = Date.now();
      const slow = await post(`${base}/v1/chat/completions`, auth, { model: 'tuned/slow', messages: chat.messages });
      expect(slow.status).toBe(504);
      expect(Date.now() - startedAt).toBeLessThan(1_800);

      // retries.max 0: a 500 is tried once; the default (2 retries) tries three times.
      const failOnce = await post(`${base}/v1/chat/completions`, auth, {
        model: 'tuned/fail-500',
        messages: chat.messages,
      });
      expect(failOnce.status).toBe(502);
      expect(callsOf('fail-500')).toBe(1);
      expect(
        (await post(`${base}/v1/chat/completions`, auth, { model: 'plain/fail-500', messages: chat.messages })).status,
      ).toBe(502);
      expect(callsOf('fail-500')).toBe(4);
      expect(output()).not.toContain(KEYS.a);
    } finally {
      child.kill();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown option or a bad option value at start with one line naming the entry and the option', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-upstreams-bad-options-'));
    const file = (name: string, entry: Record<string, unknown>) => {
      const path = join(dir, name);
      writeFileSync(
        path,
        JSON.stringify([{ name: 'x', key: 'env:X_KEY', baseUrl: 'http://127.0.0.1:9/v1', ...entry }]),
      );
      return path;
    };
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      [
        'typo.json',
        { reasoningReplai: 'reasoning_content' },
        [
          "entry 0: unknown option 'reasoningReplai' for protocol openai (accepted: name, protocol, baseUrl, key, headers, timeouts, retries,",
          'reasoningReplay, cacheControl',
        ],
      ],
      [
        'other-protocol.json',
        { protocol: 'openai', promptCaching: 'auto' },
        ["entry 0: unknown option 'promptCaching' for protocol openai"],
      ],
      [
        'replay.json',
        { reasoningReplay: 'thoughts' },
        ["entry 0: OpenAIProvider: option 'reasoningReplay' must be one of 'none', 'reasoning_content'"],
      ],
      ['cache.json', { cacheControl: true }, ["entry 0: OpenAIProvider: option 'cacheControl' must be 'send', 'drop'"]],
      [
        'timeout.json',
        { timeouts: { responseMs: '30s' } },
        ['entry 0: timeouts.responseMs must be a whole number >= 1, not "30s"'],
      ],
      [
        'timeout-name.json',
        { timeouts: { totalMs: 1000 } },
        ["entry 0: timeouts has no field 'totalMs' (accepted: connectMs, responseMs, streamResponseMs, idleMs)"],
      ],
      ['retries.json', { retries: { max: -1 } }, ['entry 0: retries.max must be a whole number >= 0, not -1']],
      [
        'header-key.json',
        { headers: { 'api-key': 'sk-literal-in-the-file-0000' } },
        ["entry 0: headers.api-key is a credential: write it 'env:VARIABLE'"],
      ],
      [
        'anthropic.json',
        { protocol: 'anthropic', promptCaching: 'always' },
        ["entry 0: promptCaching must be 'caller' or 'auto', not \"always\""],
      ],
      [
        'base-url.json',
        { baseUrl: 'api.example.com' },
        ['entry 0: baseUrl must be an http(s) URL, not "api.example.com"'],
      ],
    ];
    try {
      for (const [name, entry, messages] of cases) {
        const { code, output, killed } = await runToExit('examples/server/index.mjs', {
          GATEWAY_KEYS: '',
          PORT: '0',
          UPSTREAMS_FILE: file(name, entry),
          X_KEY: KEYS.a,
        });
        expect({ name, code, killed, output }).toEqual({
          name,
          code: 1,
          killed: false,
          output: expect.stringContaining(`cannot start: UPSTREAMS_FILE ${join(dir, name)}, entry 0: `),
        });
        for (const message of messages) expect(output).toContain(message);
        // One line, no stack trace, no key.
        expect(output.trim().split('\n')).toHaveLength(1);
        expect(output).not.toMatch(/\n\s+at /);
        expect(output).not.toContain(KEYS.a);
        expect(output).not.toContain('sk-literal-in-the-file');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('examples/server Responses API', () => {
  it('keeps answers in memory by default: a second call continues the first by previous_response_id', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '' });
    const auth = { authorization: 'Bearer sk-rosetta-demo' };
    const respond = async (body: Record<string, unknown>) => {
      const response = await post(`${base}/v1/responses`, auth, { model: 'rosetta-echo', ...body });
      const json = await readJson(response);
      expect({ status: response.status, error: json.error ?? null }).toEqual({ status: 200, error: null });
      return json;
    };
    try {
      const first = await respond({ input: 'The harbour light is green.' });
      expect(first.store).toBe(true);
      expect(first.output_text ?? JSON.stringify(first.output)).toContain('The harbour light is green.');

      const second = await respond({ input: 'What colour was it?', previous_response_id: first.id });
      expect(second.previous_response_id).toBe(first.id);
      // The model saw the first turn too: more input than the same question alone.
      const alone = await respond({ input: 'What colour was it?', store: false });
      expect(second.usage.input_tokens).toBeGreaterThan(alone.usage.input_tokens);

      // The conversation is kept: the second answer's input items hold both turns, and GET finds the first.
      const items = await fetch(`${base}/v1/responses/${second.id}/input_items`, { headers: auth });
      expect(items.status).toBe(200);
      const listed = JSON.stringify(await readJson(items));
      expect(listed).toContain('The harbour light is green.');
      expect(listed).toContain('What colour was it?');
      const stored = await fetch(`${base}/v1/responses/${first.id}`, { headers: auth });
      expect(stored.status).toBe(200);
      expect((await readJson(stored)).id).toBe(first.id);
    } finally {
      child.kill();
    }
  });
});

describe('examples/server usage records', () => {
  const ADMIN_KEY = 'admin-usage-key-0000001';
  const CALLER = 'alpha-key-111111';

  /** Waits until the output has a line with `text`, and returns it. */
  async function lineWith(output: () => string, text: string): Promise<string> {
    for (let waited = 0; waited < 5_000; waited += 20) {
      const line = output()
        .split('\n')
        .find((candidate) => candidate.includes(text));
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no line with ${text}: ${output()}`);
  }

  it('prints one line per call on stderr (no key in it), and GET /admin/usage answers the log behind ADMIN_KEY', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: `${CALLER}:100000`,
      ADMIN_KEY,
      DEBUG: '',
    });
    try {
      const answered = await post(`${base}/v1/chat/completions`, { authorization: `Bearer ${CALLER}` }, chat);
      expect(answered.status).toBe(200);
      const requestId = answered.headers.get('x-request-id')!;
      const refused = await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-wrong-key-000000' }, chat);
      expect(refused.status).toBe(401);
      const line = await lineWith(output, requestId);
      expect(line).toMatch(
        new RegExp(
          `^usage ${requestId} key=key1 openai-chat rosetta-echo ok/200 tokens=\\d+/\\d+ credits=\\d+ latency=\\d+ms ttft=\\d+ms$`,
        ),
      );
      expect(await lineWith(output, refused.headers.get('x-request-id')!)).toContain('key=- openai-chat - error/401');
      expect(output()).not.toContain(CALLER);
      expect(output()).not.toContain('sk-wrong-key-000000');
      expect(output()).not.toContain(ADMIN_KEY);

      const admin = (query: string, key?: string) =>
        fetch(`${base}/admin/usage${query}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
      const listed = await admin('?key=key1&limit=10', ADMIN_KEY);
      expect(listed.status).toBe(200);
      const { records } = await readJson(listed);
      expect(records.map((record: Json) => record.requestId)).toEqual([requestId]);
      expect(records[0]).toMatchObject({ keyId: 'key1', outcome: 'ok', status: 200, model: 'rosetta-echo' });
      const all = await readJson(await admin(`?since=${records[0].timings.received}`, ADMIN_KEY));
      expect(all.records).toHaveLength(2);
      expect((await readJson(await admin('?until=2000-01-01T00:00:00Z', ADMIN_KEY))).records).toEqual([]);
      expect((await admin('?limit=0', ADMIN_KEY)).status).toBe(400);
      expect((await admin('?since=yesterday', ADMIN_KEY)).status).toBe(400);
      expect((await admin('', 'admin-usage-key-0000002')).status).toBe(401);
      expect((await admin('', CALLER)).status).toBe(401);
      expect((await admin('')).status).toBe(401);
    } finally {
      child.kill();
    }
  });

  it("serves the dashboard at /admin/ behind ADMIN_KEY (Bearer, or a browser's Basic auth with it as the password)", async () => {
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: `${CALLER}:100000`,
      ADMIN_KEY,
    });
    try {
      expect((await post(`${base}/v1/chat/completions`, { authorization: `Bearer ${CALLER}` }, chat)).status).toBe(200);
      await lineWith(output, 'usage req_');
      const denied = await fetch(`${base}/admin/`);
      expect(denied.status).toBe(401);
      expect(denied.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      const wrong = `Basic ${Buffer.from('admin:not-the-key').toString('base64')}`;
      expect((await fetch(`${base}/admin/api/summary`, { headers: { authorization: wrong } })).status).toBe(401);
      const basic = `Basic ${Buffer.from(`anyone:${ADMIN_KEY}`).toString('base64')}`;
      const page = await fetch(`${base}/admin/`, { headers: { authorization: basic } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('assets/uplot.js');
      const summary = await fetch(`${base}/admin/api/summary?window=15m`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      const body = await readJson(summary);
      expect(body.totals.calls).toBe(1);
      expect(body.topKeys[0].name).toBe('key1');
      expect(JSON.stringify(body)).not.toContain(CALLER);
      // The dashboard was given its auth: no warning on the console.
      expect(output()).not.toContain('rosetta-gateway dashboard');
    } finally {
      child.kill();
    }
  });

  it('has no admin route without ADMIN_KEY (a JSON 404)', async () => {
    const { child, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '', ADMIN_KEY: '' });
    try {
      const response = await fetch(`${base}/admin/usage`, { headers: { authorization: 'Bearer ' } });
      expect(response.status).toBe(404);
      expect((await readJson(response)).error.code).toBe('not_found');
    } finally {
      child.kill();
    }
  });
});

describe('examples/server rate limits and metrics', () => {
  const ADMIN_KEY = 'admin-metrics-key-000001';

  it('reads rate limits from GATEWAY_KEYS (;rpm=;tpm=;concurrent=), shows them, and refuses the call beyond them with 429', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: 'limited-key-1111111:100000;rpm=2;concurrent=3, free-key-22222222',
    });
    try {
      expect(output()).toContain('rpm=2 concurrent=3');
      expect(output()).toContain('no rate limit');
      const call = (key: string) => post(`${base}/v1/chat/completions`, { authorization: `Bearer ${key}` }, chat);
      const statuses = [];
      for (let index = 0; index < 3; index++) statuses.push((await call('limited-key-1111111')).status);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await call('limited-key-1111111');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('2');
      expect((await readJson(refused)).error.type).toBeDefined();
      for (let index = 0; index < 3; index++) expect((await call('free-key-22222222')).status).toBe(200);
    } finally {
      child.kill();
    }
  });

  it('refuses a GATEWAY_KEYS limit it does not know, naming it', async () => {
    const { code, output } = await runToExit('examples/server/index.mjs', { GATEWAY_KEYS: 'some-key-1111111;rps=3' });
    expect(code).not.toBe(0);
    expect(output).toContain("'rps' is not a limit (use rpm, tpm or concurrent)");
  });

  it('serves /metrics behind ADMIN_KEY, counting the calls made', async () => {
    const { child, output, base } = await start('examples/server/index.mjs', { GATEWAY_KEYS: '', ADMIN_KEY });
    try {
      expect(output()).toContain(`${base}/metrics (Prometheus)`);
      const answered = await post(`${base}/v1/chat/completions`, { authorization: 'Bearer sk-rosetta-demo' }, chat);
      expect(answered.status).toBe(200);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      let text = '';
      for (let attempt = 0; attempt < 50 && !text.includes('rosetta_calls_total{'); attempt++) {
        const scraped = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
        expect(scraped.status).toBe(200);
        expect(scraped.headers.get('content-type')).toContain('text/plain');
        text = await scraped.text();
        if (!text.includes('rosetta_calls_total{')) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(text).toMatch(/rosetta_calls_total\{[^}]*model="rosetta-echo"[^}]*\} 1/);
    } finally {
      child.kill();
    }
  });
});

describe('examples/server demo key', () => {
  /**
   * A Claude Code turn (the recorded-shape fixture), its system prompt padded past 20,000 input tokens, not streamed.
   */
  function claudeCodeTurn(): Record<string, unknown> {
    const fixture = JSON.parse(
      readFileSync(join(__dirname, '..', 'fixtures', 'claude-code', 'messages-turn-1.json'), 'utf8'),
    ) as Json;
    const filler = Array.from(
      { length: 1_300 },
      (_, index) => `Rule ${index}: keep the working tree clean and run the tests.`,
    ).join('\n');
    return {
      ...fixture,
      model: 'rosetta-echo',
      stream: false,
      system: [...fixture.system, { type: 'text', text: filler }],
    };
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

describe('examples/server never calls itself', () => {
  it("ignores the clients' ANTHROPIC_BASE_URL (Claude Code points it at the gateway): the upstream base URL is ROSETTA_ANTHROPIC_BASE_URL", async () => {
    const port = await freePort();
    const self = `http://localhost:${port}`;
    const { child, output } = await start('examples/server/index.mjs', {
      GATEWAY_KEYS: '',
      PORT: String(port),
      ANTHROPIC_API_KEY: 'sk-ant-example-0123456789',
      ANTHROPIC_BASE_URL: self,
      OPENAI_BASE_URL: self,
      GEMINI_BASE_URL: self,
    });
    try {
      expect(output()).toMatch(/Upstreams: local, anthropic\n/);
    } finally {
      child.kill();
    }
  });

  it('refuses to start when a ROSETTA_*_BASE_URL points at its own port', async () => {
    const port = await freePort();
    const { code, output } = await runToExit('examples/server/index.mjs', {
      GATEWAY_KEYS: '',
      PORT: String(port),
      ANTHROPIC_API_KEY: 'sk-ant-example-0123456789',
      ROSETTA_ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(output).toContain(`ROSETTA_ANTHROPIC_BASE_URL=http://127.0.0.1:${port} points at this server itself`);
    expect(output).not.toContain('sk-ant-example-0123456789');
    expect(code).toBe(1);
  });
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
      expect(
        (await post(`${base}/ai/v1/chat/completions`, { authorization: 'Bearer bob-secret-key' }, chat)).status,
      ).toBe(403);
      expect((await post(`${base}/ai/v1/chat/completions`, { authorization: 'Bearer nobody' }, chat)).status).toBe(401);
    } finally {
      child.kill();
    }
  });
});
