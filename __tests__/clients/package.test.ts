/**
 * The published package: its manifest, what the tarball holds, and the Express peer range (an Express 4 host mounts the
 * built gateway on its own Express).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../helpers/app';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Json;

describe('package.json', () => {
  it('names the repository, the issue tracker and the home page', () => {
    expect(manifest.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/rosetta-gateway/rosetta-gateway.git',
    });
    expect(manifest.bugs).toEqual({ url: 'https://github.com/rosetta-gateway/rosetta-gateway/issues' });
    expect(manifest.homepage).toBe('https://github.com/rosetta-gateway/rosetta-gateway#readme');
  });

  it('takes express as a peer dependency (4.21+ or 5), so a host has one copy of Express', () => {
    expect(manifest.dependencies.express).toBeUndefined();
    expect(manifest.peerDependencies.express).toBe('^4.21.0 || ^5.0.0');
    expect(manifest.peerDependenciesMeta?.express).toBeUndefined();
    expect(manifest.devDependencies.express4).toMatch(/^npm:express@\^4\./);
  });
});

describe('the tarball', () => {
  it('ships no source maps (it ships dist/, not lib/), and no file points at one', () => {
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((file) => file.path);
    expect(files).toContain('dist/cjs/index.js');
    // The dashboard's page is not compiled: the build copies it beside its module.
    for (const page of ['index.html', 'dashboard.js', 'dashboard.css'])
      expect(files).toContain(`dist/cjs/dashboard/page/${page}`);
    expect(files).toContain('dist/esm/dashboard.js');
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(files.filter((path) => path.startsWith('lib/'))).toEqual([]);
    const pointing = files.filter(
      (path) =>
        /\.(c|m)?js$|\.d\.ts$/.test(path) && readFileSync(join(root, path), 'utf8').includes('sourceMappingURL'),
    );
    expect(pointing).toEqual([]);
  });
});

describe('an Express 4 host', () => {
  // A host project under .tmp/: node_modules/express is Express 4 (the express4 devDependency), and
  // node_modules/rosetta-gateway a copy of the built package (a symlink would resolve express from
  // this repository's node_modules, Express 5). Everything else resolves up to this repository's node_modules.
  it("mounts the built gateway, which runs on the host's Express 4, and serves every protocol", () => {
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const host = mkdtempSync(join(root, '.tmp', 'express4-host-'));
    try {
      mkdirSync(join(host, 'node_modules', 'rosetta-gateway'), { recursive: true });
      symlinkSync(join(root, 'node_modules', 'express4'), join(host, 'node_modules', 'express'), 'dir');
      cpSync(join(root, 'dist'), join(host, 'node_modules', 'rosetta-gateway', 'dist'), { recursive: true });
      cpSync(join(root, 'package.json'), join(host, 'node_modules', 'rosetta-gateway', 'package.json'));
      // Its own package.json, or require('rosetta-gateway') would be this repository's self-reference.
      writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'express4-host', private: true }));
      writeFileSync(join(host, 'server.cjs'), HOST_SCRIPT);
      const result = JSON.parse(
        execFileSync(process.execPath, [join(host, 'server.cjs')], { cwd: host, encoding: 'utf8', timeout: 30_000 }),
      ) as Json;
      expect(result.hostExpress).toMatch(/^4\./);
      expect(result.expressCopies).toEqual([result.hostExpress]);
      expect(result.chat).toEqual({ status: 200, content: 'Hello from Express 4' });
      expect(result.stream.status).toBe(200);
      expect(result.stream.text).toContain('data: [DONE]');
      expect(result.messages).toEqual({ status: 200, text: 'Hello from Express 4' });
      expect(result.gemini).toEqual({ status: 200, text: 'Hello from Express 4' });
      expect(result.models).toEqual({ status: 200, ids: ['rosetta-echo', 'rosetta-image', 'rosetta-embed'] });
      expect(result.unauthorized.status).toBe(401);
      expect(result.fallthrough).toEqual({ status: 200, text: 'host route' });
      expect(result.mounted).toEqual({ status: 200, content: 'Hello from Express 4' });
      expect(result.dashboard).toEqual({
        page: 200,
        uplot: 200,
        uplotType: 'text/javascript; charset=utf-8',
        calls: 5,
      });
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });
});

const HOST_SCRIPT = `'use strict';
const express = require('express');
const { createGateway, MemoryUsageLog } = require('rosetta-gateway');
const { createDashboard } = require('rosetta-gateway/dashboard');
const app = express();
const usage = new MemoryUsageLog();
app.use('/ai', createGateway({ keys: [{ key: 'sk-express4-host', id: 'host' }] }));
const gateway = createGateway({ keys: [{ key: 'sk-express4-host', id: 'host' }], observability: { usageSink: usage } });
app.use('/admin', createDashboard({ usage, gateway, allowUnauthenticated: true }));
app.use(gateway);
app.get('/health', (_request, response) => response.send('host route'));
const server = app.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  const post = (path, headers, body) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const bearer = { authorization: 'Bearer sk-express4-host' };
  const user = [{ role: 'user', content: 'Hello from Express 4' }];
  const out = {
    hostExpress: require('express/package.json').version,
    // Every copy of Express loaded in this process (its lib/express.js): the host's only.
    expressCopies: Object.keys(require.cache).filter((path) => /[\\/]lib[\\/]express.js$/.test(path)).map((path) => require(require('path').join(path, '..', '..', 'package.json')).version),
  };
  let response = await post('/v1/chat/completions', bearer, { model: 'rosetta-echo', messages: user });
  out.chat = { status: response.status, content: (await response.json()).choices[0].message.content };
  response = await post('/v1/chat/completions', bearer, { model: 'rosetta-echo', stream: true, messages: user });
  out.stream = { status: response.status, text: await response.text() };
  response = await post('/v1/messages', { 'x-api-key': 'sk-express4-host' }, { model: 'rosetta-echo', max_tokens: 50, messages: user });
  out.messages = { status: response.status, text: (await response.json()).content[0].text };
  response = await post('/v1beta/models/rosetta-echo:generateContent?key=sk-express4-host', {}, { contents: [{ parts: [{ text: 'Hello from Express 4' }] }] });
  out.gemini = { status: response.status, text: (await response.json()).candidates[0].content.parts[0].text };
  response = await fetch(base + '/v1/models', { headers: bearer });
  out.models = { status: response.status, ids: (await response.json()).data.map((model) => model.id) };
  response = await post('/v1/chat/completions', { authorization: 'Bearer wrong' }, { model: 'rosetta-echo', messages: user });
  out.unauthorized = { status: response.status, body: await response.json() };
  response = await fetch(base + '/health');
  out.fallthrough = { status: response.status, text: await response.text() };
  response = await post('/ai/v1/chat/completions', bearer, { model: 'rosetta-echo', messages: user });
  out.mounted = { status: response.status, content: (await response.json()).choices[0].message.content };
  const page = await fetch(base + '/admin/');
  const uplot = await fetch(base + '/admin/assets/uplot.js');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const summary = await (await fetch(base + '/admin/api/summary?window=15m')).json();
  out.dashboard = { page: page.status, uplot: uplot.status, uplotType: uplot.headers.get('content-type'), calls: summary.totals.calls };
  process.stdout.write(JSON.stringify(out));
  server.close();
  process.exit(0);
});
`;
