/**
 * The real Claude Code CLI (`claude -p`) through the gateway to a DeepSeek-style upstream in thinking mode: one tool
 * turn. The scripted upstream thinks (`reasoning_content`) and calls `Read` on the file the prompt names; it refuses
 * the second turn unless that turn's assistant message carries its `reasoning_content` back (DeepSeek's 400, as Claude
 * Code users behind other gateways met it), and otherwise answers with the token the tool read. Claude Code must print
 * the token. Claude Code is not a project dependency: `scripts/install-clients.sh` installs it into `.tmp/clients`
 * (CI runs it and sets REQUIRE_CLIENTS=1); `CLAUDE_CODE_BIN` points at another copy. Without it this file skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryKeyStore, OpenAIProvider } from '../../lib';
import { serveGateway, TEST_KEY, type RunningGateway } from '../helpers/app';
import { claudeCodeRuns, requireClaudeCode, runClaudeCode, tokenWorkspace } from '../helpers/cli-client';
import { type ChatMessage, type MockDialect, sendAnswer, startDialect } from '../helpers/mock-chat-wire';
import { missingReasoning, refuseMissingReasoning } from '../helpers/mock-deepseek';

const runs = claudeCodeRuns('claude-code-cli-deepseek.test.ts');

const MODEL = 'deepseek-reasoner';
const THOUGHT = 'The user wants the file read; I will call Read.';

/** The text of a chat message's content (a string, or text parts). */
function textOf(message: ChatMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return Array.isArray(message.content) ? message.content.map((part: ChatMessage) => part.text ?? '').join('') : '';
}

/**
 * The scripted DeepSeek: with the `Read` tool and no result yet, reasoning and a call of Read on the file the last user
 * message names; with the result back, a 400 unless the tool-call turn has its `reasoning_content`, else the token the
 * result holds; any other request (Claude Code's side calls) a short answer.
 */
function startScriptedDeepSeek(): Promise<MockDialect> {
  return startDialect((body, response) => {
    const messages: ChatMessage[] = body.messages ?? [];
    const hasRead = (body.tools ?? []).some((tool: ChatMessage) => tool.function?.name === 'Read');
    const result = [...messages].reverse().find((message) => message.role === 'tool');
    const missing = missingReasoning(body);
    if (missing >= 0) {
      refuseMissingReasoning(response, missing);
      return;
    }
    if (hasRead && result) {
      const token = /token-[0-9a-f]+/.exec(textOf(result))?.[0] ?? 'no token';
      const answer = `The file holds ${token}.`;
      sendAnswer(body, response, {
        model: MODEL,
        message: { role: 'assistant', reasoning_content: 'The tool answered.', content: answer },
        deltas: [{ reasoning_content: 'The tool answered.' }, { content: answer }],
      });
      return;
    }
    const users = messages.filter((message) => message.role === 'user');
    const path = /\/\S+token\.txt/.exec(textOf(users.at(-1)))?.[0];
    if (hasRead && path) {
      const call = { index: 0, id: 'call_00_read', type: 'function', function: { name: 'Read' } };
      const args = JSON.stringify({ file_path: path });
      sendAnswer(body, response, {
        model: MODEL,
        message: {
          role: 'assistant',
          content: '',
          reasoning_content: THOUGHT,
          tool_calls: [{ ...call, function: { ...call.function, arguments: args } }],
        },
        deltas: [
          { reasoning_content: THOUGHT },
          { tool_calls: [{ ...call, function: { ...call.function, arguments: '' } }] },
          { tool_calls: [{ index: 0, function: { arguments: args } }] },
        ],
      });
      return;
    }
    sendAnswer(body, response, {
      model: MODEL,
      message: { role: 'assistant', content: 'ok' },
      deltas: [{ content: 'ok' }],
    });
  });
}

(runs ? describe : describe.skip)('Claude Code CLI → gateway → DeepSeek in thinking mode', () => {
  let deepseek: MockDialect;
  let server: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    deepseek = await startScriptedDeepSeek();
    server = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: TEST_KEY, id: 'claude-code' }]),
      providers: [
        new OpenAIProvider({ name: 'deepseek', baseUrl: deepseek.url, reasoningReplay: 'reasoning_content' }),
      ],
      models: [{ id: MODEL, provider: 'deepseek', upstreamModel: MODEL }],
    });
    dir = mkdtempSync(join(tmpdir(), 'rg-claude-deepseek-'));
  });
  afterAll(async () => {
    await server.close();
    await deepseek.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the file through a thinking tool loop and answers with its token', async () => {
    requireClaudeCode();
    const { work, home, file, token } = tokenWorkspace(dir);
    // Every model tier is the DeepSeek one, so Claude Code's side calls reach the mock too.
    const run = await runClaudeCode(`Read the file ${file} and tell me what it holds.`, {
      cwd: work,
      home,
      baseUrl: server.url,
      model: MODEL,
      args: ['--allowedTools', 'Read'],
      env: { ANTHROPIC_SMALL_FAST_MODEL: MODEL, ANTHROPIC_DEFAULT_HAIKU_MODEL: MODEL },
    });

    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toContain(token);
    const second = deepseek.requests.find((request) =>
      (request.body.messages as ChatMessage[]).some((message) => message.role === 'tool'),
    );
    const turn = (second!.body.messages as ChatMessage[]).find((message) => Array.isArray(message.tool_calls));
    expect(turn!.reasoning_content).toBe(THOUGHT);
  }, 120_000);
});
