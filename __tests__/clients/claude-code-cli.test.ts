/**
 * The real Claude Code CLI (`claude -p`) against the gateway's local model, offline: one tool turn, and the same
 * tool loop through a model of three deployments (docs/routing.md), which keeps Claude Code's session on one.
 * Claude Code is not a project dependency: `scripts/install-clients.sh` installs it into
 * `.tmp/clients` (CI runs it and sets REQUIRE_CLIENTS=1, which turns a missing client into a
 * failure); `CLAUDE_CODE_BIN` points at another copy. Without it this file prints one line and skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalProvider,
  type GenerateRequest,
  type ProviderCallContext,
  type StreamPart,
  type UsageRecord,
} from '../../lib';
import { serveGateway, testOptions, type RunningGateway } from '../helpers/app';
import {
  claudeCodeRuns,
  expectCleanExit,
  requireClaudeCode,
  runClaudeCode,
  tokenWorkspace,
} from '../helpers/cli-client';

const runs = claudeCodeRuns('claude-code-cli.test.ts');

/** The local provider, recording every request it is asked (the canonical form the gateway decoded). */
class RecordingLocalProvider extends LocalProvider {
  readonly requests: GenerateRequest[] = [];

  override stream(request: GenerateRequest, context: ProviderCallContext): AsyncGenerator<StreamPart> {
    this.requests.push(request);
    return super.stream(request, context);
  }
}

(runs ? describe : describe.skip)('Claude Code CLI against rosetta-echo', () => {
  let provider: RecordingLocalProvider;
  let server: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    provider = new RecordingLocalProvider();
    server = await serveGateway(testOptions({ providers: [provider] }));
    dir = mkdtempSync(join(tmpdir(), 'rg-claude-code-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('"Read the file PATH": the model calls Read, Claude Code runs it, the answer shows the file\'s token', async () => {
    requireClaudeCode();
    const { work, home, file, token } = tokenWorkspace(dir);

    const run = await runClaudeCode(`Read the file ${file}`, {
      cwd: work,
      home,
      baseUrl: server.url,
      model: 'rosetta-echo',
    });

    expectCleanExit(run);
    expect(run.stdout).toContain(`Tool Read returned:`);
    expect(run.stdout).toContain(token);
    const calls = provider.requests.filter((request) => request.tools?.some((tool) => tool.name === 'Read'));
    expect(calls).toHaveLength(2);
    const results = calls[1]!.messages
      .flatMap((message) => message.content)
      .filter((part) => part.type === 'tool-result');
    expect(results).toHaveLength(1);
    expect(JSON.stringify(results[0])).toContain(token);
  }, 120_000);
});

(runs ? describe : describe.skip)('Claude Code CLI through a model of three deployments', () => {
  let accounts: RecordingLocalProvider[];
  let records: UsageRecord[];
  let server: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    accounts = ['acct-a', 'acct-b', 'acct-c'].map((name) => new RecordingLocalProvider({ name }));
    records = [];
    server = await serveGateway(
      testOptions({
        providers: accounts,
        models: [
          {
            id: 'pool',
            upstreamModel: 'rosetta-echo',
            deployments: accounts.map((account) => ({ provider: account.name, name: account.name })),
          },
        ],
        usageSink: (record) => {
          records.push(record);
        },
      }),
    );
    dir = mkdtempSync(join(tmpdir(), 'rg-claude-code-deployments-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every turn of the tool loop is served by the deployment that served the first', async () => {
    requireClaudeCode();
    const { work, home, file, token } = tokenWorkspace(dir);

    const run = await runClaudeCode(`Read the file ${file}`, { cwd: work, home, baseUrl: server.url, model: 'pool' });

    expectCleanExit(run);
    expect(run.stdout).toContain(token);
    // Both turns of the loop (the Read call and its result) reached one account, whichever was drawn first.
    const looped = accounts.map(
      (account) => account.requests.filter((request) => request.tools?.some((tool) => tool.name === 'Read')).length,
    );
    expect(looped.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(looped.filter((count) => count > 0)).toEqual([2]);
    // The usage records say so: the session held its deployment (the loop's second turn at least).
    for (let tries = 0; records.length < 2 && tries < 100; tries++) await new Promise((r) => setTimeout(r, 10));
    const pooled = records.filter((record) => record.model === 'pool' && record.deployment !== undefined);
    expect(pooled.map((record) => record.affinity)).toContain('held');
    expect(pooled.map((record) => record.affinity)).not.toContain('moved');
  }, 120_000);
});
