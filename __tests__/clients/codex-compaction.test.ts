/**
 * Codex CLI (`codex exec`, the pinned `@openai/codex` 0.169.0) on its built-in `openai` provider with
 * `openai_base_url` pointing at the gateway, and `model_auto_compact_token_limit` small enough that the first tool
 * output crosses it: Codex compacts mid-turn with its remote compaction (a streamed `POST /v1/responses` whose input
 * ends in a `compaction_trigger` item, answered with one `compaction` item), then continues the turn with that item in
 * place of the history, which the gateway expands back into the summary for the model. Offline: the local model.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { RunningServer } from '../helpers/app';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createGateway, type Gateway, LocalProvider, MemoryKeyStore, type UsageRecord } from '../../lib';
import { listen } from '../helpers/app';
import { runCli } from '../helpers/cli-client';
import { EXEC_TOOL } from '../helpers/exec-command';

const CODEX = process.env.CODEX_BIN ?? join(__dirname, '..', '..', 'node_modules', '.bin', 'codex');
const KEY = 'sk-codex-compact-0123456789';
/** What the tool prints: far over the compaction limit, and recognisable wherever it is sent. */
const BIG_OUTPUT = `big-output-${'x'.repeat(6000)}`;

interface Seen {
  method: string;
  url: string;
  body: Record<string, any> | undefined;
}

let gateway: Gateway;
let server: RunningServer;
let dir: string;
const seen: Seen[] = [];
const records: UsageRecord[] = [];

beforeAll(async () => {
  const app = express();
  // The gateway reads a body a host parsed before it; parsing here lets the test see what Codex sent.
  app.use(express.json({ limit: '20mb' }));
  app.use((request, _response, next) => {
    seen.push({ method: request.method, url: request.url, body: request.method === 'POST' ? request.body : undefined });
    next();
  });
  gateway = createGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'codex' }]),
    providers: [new LocalProvider()],
    usageSink: (record) => {
      records.push(record);
    },
  });
  app.use(gateway);
  server = await listen(app);
  dir = mkdtempSync(join(tmpdir(), 'rg-codex-compact-'));
});
afterAll(async () => {
  await server.close();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

it('compacts mid-turn through the gateway and finishes the turn on the summary', async () => {
  const home = join(dir, 'home');
  mkdirSync(home);
  // Codex's built-in `openai` provider (no model_provider) with its base URL moved to the gateway; the key is read
  // from CODEX_API_KEY.
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model = "rosetta-echo"',
      `openai_base_url = "${server.url}/v1"`,
      'model_auto_compact_token_limit = 1000',
      '',
    ].join('\n'),
  );
  const work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'big.txt'), BIG_OUTPUT);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CODEX_HOME: home, CODEX_API_KEY: KEY };
  // The local model calls the tool a prompt names with these arguments (see codex-cli.test.ts).
  const prompt = `${EXEC_TOOL} ${JSON.stringify({ cmd: 'cat big.txt' })}`;
  const run = await runCli(CODEX, ['exec', '--skip-git-repo-check', '--json', '-s', 'read-only', prompt], {
    cwd: work,
    env,
  });
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; item?: { type: string; text?: string } });
  expect({ code: run.code, failed: events.filter((event) => event.type === 'turn.failed') }).toEqual({
    code: 0,
    failed: [],
  });
  expect(events.at(-1)!.type).toBe('turn.completed');

  const posts = seen.filter((request) => request.method === 'POST');
  // Codex used /v1/responses throughout (its compaction v2), never /v1/responses/compact.
  expect(posts.map((request) => request.url)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
  const [toolTurn, compaction, continuation] = posts.map((request) => request.body!);
  expect(JSON.stringify(toolTurn!.input)).not.toContain('big-output-');
  // The compaction request: the whole history, the tool output in it, then the trigger.
  expect(compaction!.stream).toBe(true);
  expect(compaction!.input.at(-1)).toEqual({ type: 'compaction_trigger' });
  expect(JSON.stringify(compaction!.input)).toContain('big-output-');
  // The continuation: the gateway's compaction item instead of the tool call and its output.
  const items = continuation!.input as Array<Record<string, any>>;
  const compacted = items.filter((item) => item.type === 'compaction');
  expect(compacted).toEqual([
    {
      type: 'compaction',
      id: expect.any(String),
      encrypted_content: expect.stringMatching(/^rosetta\.compaction\.v1:/),
    },
  ]);
  expect(JSON.stringify(items)).not.toContain('big-output-');

  // The local model answers the last turn it is given: the summary the compaction item stands for.
  const answer = events
    .filter((event) => event.item?.type === 'agent_message')
    .map((event) => event.item!.text)
    .join('\n');
  expect(answer).toContain('The earlier part of this conversation was compacted.');

  // Each call, the summarising one included, was a call of the model with its usage recorded.
  const calls = records.filter((record) => record.model === 'rosetta-echo' && record.status === 200);
  expect(calls).toHaveLength(3);
  for (const call of calls) expect(call.usage!.inputTokens).toBeGreaterThan(0);
}, 180_000);
