/**
 * The judge of a real client's tool loop through the gateway: the set-up and the checks that the real-client tests
 * (the Gemini CLI, Qwen Code, opencode, the OpenAI Agents SDK) share.
 *
 * {@link toolLoopJudge}, called at a test file's top level, registers the file's `beforeAll`/`afterAll`: a scripted
 * upstream of every kind (`startMockToolLoop`: chat completions, Responses, Anthropic, Gemini, one origin) that calls
 * the client's own read tool once on the file the prompt names, then answers `The token is TOKEN.` with the token the
 * tool's result held (plain text to a request that does not offer the tool: a client's title or summary request); a
 * gateway with one provider per upstream kind (`chat`, `responses`, `anthropic`, `gemini`), a model `via-KIND` of each
 * ({@link modelOf}), one caller key, and its usage records kept; and a temporary directory for the runs' workspaces.
 *
 * Each test then takes a {@link JudgeRound} ({@link ToolLoopJudge.begin}): a fresh workspace with a random token in
 * `work/token.txt`, the prompt naming the file, the answer expected, and where the upstream's requests and the usage
 * records stood. After the client's run, {@link ToolLoopJudge.expectLoop} checks that the upstream of that kind saw
 * the loop (the call offering the tool, then the tool's result holding the token) and
 * {@link ToolLoopJudge.expectBilled} that the gateway billed the loop's calls as calls of the caller's protocol sent to
 * that upstream. The client's own output (its tool call, its answer, its token count) is the test's to check, with the
 * round's `answer`, {@link LOOP_TOKENS} and {@link UPSTREAM_CALL_ID}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { serveGateway, type RunningGateway } from './app';
import { tokenWorkspace } from './cli-client';
import {
  inputTokensFor,
  startMockToolLoop,
  type LoopProtocol,
  type LoopRequest,
  type MockToolLoop,
} from './mock-tool-loop';

/** Every upstream kind, each a provider of that name. */
export const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];

/** The gateway's model sent to the upstream of kind `protocol`. */
export function modelOf(protocol: LoopProtocol): string {
  return `via-${protocol}`;
}

/** The upstream's closing text once the tool's result brought it `token`: the client's answer. */
function tokenAnswer(token: string): string {
  return `The token is ${token}.`;
}

/** The tokens of the loop's two calls as the upstream reports them, the way a client counts them (its own stats). */
export const LOOP_TOKENS = { input_tokens: inputTokensFor(0) + inputTokensFor(1), output_tokens: 10 };

/** The id the upstream gives its tool call (Gemini's calls carry none), which reaches a client that keeps it. */
export const UPSTREAM_CALL_ID = /call_loop_1_/;

const TOKEN = /token-[0-9a-f]{16}/;

/** The file the prompt names (a system prompt may list the work directory too, so the prompt's own words are sought). */
function promptedFile(request: LoopRequest): string {
  const path = /Read the file (\/\S*?token\.txt)/.exec(JSON.stringify(request.body))?.[1];
  if (!path) throw new Error('the prompt names no token.txt');
  return path;
}

export interface ToolLoopJudgeOptions {
  /** Whether the file's tests run (`clientRuns`); if not, nothing is started. */
  runs: boolean;
  /** Names the temporary directory (`rg-NAME-…`). */
  name: string;
  /** The gateway's one caller key, and its id in the usage records. */
  key: string;
  keyId: string;
  /** The client's read tool, which the upstream calls, and its arguments naming `file`. */
  tool: string;
  args: (file: string) => Record<string, unknown>;
}

/** One run of a client: the upstream kind and model, a fresh token workspace and prompt, and where things stood. */
export interface JudgeRound {
  protocol: LoopProtocol;
  /** {@link modelOf} the protocol. */
  model: string;
  /** A fresh directory to run in, a home of the run's own, the token file in `work` and the token it holds. */
  work: string;
  home: string;
  file: string;
  token: string;
  /** `Read the file FILE and tell me the token in it.` */
  prompt: string;
  /** The client's answer once the loop went round: the upstream's closing text, `The token is TOKEN.` */
  answer: string;
  /** How many requests the upstream had received, and when the round began (for the usage records). */
  from: number;
  since: number;
}

/** How the loop's calls were billed; by default exactly two, checked for protocol, provider and outcome. */
export interface BilledOptions {
  /** Whether each call was charged the upstream's usage, in order, under the judge's key. */
  charged?: boolean;
  /** Whether each call was streamed. */
  stream?: boolean;
  /** At least two calls rather than exactly two (a client's side calls of the model, such as a title, count too). */
  atLeast?: boolean;
}

export interface ToolLoopJudge {
  /** The gateway's base URL (`http://127.0.0.1:PORT`), once started. */
  readonly url: string;
  /** Begins a run against the upstream of kind `protocol`. */
  begin(protocol: LoopProtocol): JudgeRound;
  /**
   * The upstream of the round's kind saw the loop: a request offering the tool with no tool result, then one with the
   * tool's result, which holds the token. Requests not offering the tool (a client's side calls) are left out; with
   * `exact`, none may be: every request of the round offers the tool alone and was streamed as `exact.stream` says.
   */
  expectLoop(round: JudgeRound, exact?: { stream: boolean }): void;
  /**
   * The round's calls came in as calls of `codec`, went out to the round's upstream and ended ok (see
   * {@link BilledOptions}).
   */
  expectBilled(round: JudgeRound, codec: string, options?: BilledOptions): Promise<void>;
}

/** Registers the file's set-up and tear-down (when `options.runs`), and returns the judge of its runs. */
export function toolLoopJudge(options: ToolLoopJudgeOptions): ToolLoopJudge {
  const { runs, name, key, keyId, tool, args } = options;
  const records: UsageRecord[] = [];
  let upstream: MockToolLoop;
  let server: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    if (!runs) return;
    // The client's read tool, called on the file the prompt names; the closing text quotes the token its result held.
    upstream = await startMockToolLoop(1, {
      tool,
      args: (request) => args(promptedFile(request)),
      text: (request) => {
        const token = request.results.map((result) => TOKEN.exec(result)?.[0]).find(Boolean);
        return token ? tokenAnswer(token) : 'A token reader';
      },
      textUnlessOffered: true,
    });
    const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
    server = await serveGateway({
      keyStore: new MemoryKeyStore([{ key, id: keyId }]),
      providers: [
        new OpenAIProvider({ name: 'chat', baseUrl: `${upstream.origin}/v1`, ...common }),
        new OpenAIProvider({
          name: 'responses',
          baseUrl: `${upstream.origin}/v1`,
          responsesModels: ['loop'],
          ...common,
        }),
        new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.origin, ...common }),
        new GeminiProvider({ name: 'gemini', baseUrl: `${upstream.origin}/v1beta`, ...common }),
      ],
      models: UPSTREAMS.map((kind) => ({ id: modelOf(kind), provider: kind, upstreamModel: 'loop' })),
      usageSink: (record) => {
        records.push(record);
      },
    });
    dir = mkdtempSync(join(tmpdir(), `rg-${name}-`));
  });
  afterAll(async () => {
    if (!runs) return;
    await server?.close();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The usage records of the round's model received since it began, once `count` of them have arrived. */
  async function recordsOf(round: JudgeRound, count: number): Promise<UsageRecord[]> {
    const mine = () =>
      records.filter((record) => record.model === round.model && record.timings.received >= round.since);
    for (let tries = 0; mine().length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
    return mine();
  }

  return {
    get url() {
      return server.url;
    },
    begin(protocol) {
      const from = upstream.requests.length;
      const since = Date.now();
      const workspace = tokenWorkspace(mkdtempSync(join(dir, 'run-')));
      const prompt = `Read the file ${workspace.file} and tell me the token in it.`;
      const answer = tokenAnswer(workspace.token);
      return { protocol, model: modelOf(protocol), ...workspace, prompt, answer, from, since };
    },
    expectLoop(round, exact) {
      const requests = upstream.requests.slice(round.from);
      const looped = exact ? requests : requests.filter((request) => request.toolNames.includes(tool));
      if (exact) {
        expect(looped.map((request) => [request.protocol, request.stream, request.results.length])).toEqual([
          [round.protocol, exact.stream, 0],
          [round.protocol, exact.stream, 1],
        ]);
        for (const request of looped) expect(request.toolNames).toEqual([tool]);
      } else {
        expect(looped.map((request) => [request.protocol, request.results.length])).toEqual([
          [round.protocol, 0],
          [round.protocol, 1],
        ]);
      }
      expect(looped[1]!.results[0]).toContain(round.token);
    },
    async expectBilled(round, codec, { charged = false, stream, atLeast = false } = {}) {
      const billed = await recordsOf(round, 2);
      if (atLeast) expect(billed.length).toBeGreaterThanOrEqual(2);
      else expect(billed).toHaveLength(2);
      billed.forEach((record, index) => {
        expect(record).toMatchObject({
          protocol: codec,
          ...(stream === undefined ? {} : { stream }),
          provider: round.protocol,
          outcome: 'ok',
          ...(charged
            ? {
                keyId,
                usage: { inputTokens: inputTokensFor(index), outputTokens: 5 },
                credits: { charged: inputTokensFor(index) + 5 },
              }
            : {}),
        });
      });
    },
  };
}
