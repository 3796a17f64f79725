/**
 * A Gemini upstream whose model calls one function twice in parallel, and pairs the function responses it gets back
 * with those calls as Gemini does: a response with an `id` answers the call of that id (`FunctionResponse.id`,
 * "populated by the client to match the corresponding function call id"), one without answers the next call of its
 * name in the order of the calls. Its answer then says which contents it took for which call, so a swap shows.
 *
 * - Models ending in `-ids`: the calls carry the ids {@link TWIN_CALL_IDS}; any other model's calls carry none.
 * - A request whose last content holds function responses: the text `<path>: <output>` per call, joined by `; `
 *   (`<path>: ?` for a call no response answered), pairing them against the calls of the last model content.
 * - Any other request: the two calls of `read_file`, `path` {@link TWIN_PATHS}.
 * generateContent only, no key check.
 */
import { startMockServer } from './mock-server';

type Json = Record<string, any>;

/** The `path` arguments of the two calls, in the order the model makes them. */
export const TWIN_PATHS = ['a.txt', 'b.txt'] as const;
/** The calls' ids, for the `-ids` models. */
export const TWIN_CALL_IDS = ['fc-read-a', 'fc-read-b'] as const;
/** The function both calls name. */
export const TWIN_FUNCTION = 'read_file';

export interface MockGeminiTwinCalls {
  /** The base URL, `http://127.0.0.1:<port>/v1beta`. */
  url: string;
  /** The bodies the mock was sent, in order. */
  readonly requests: Json[];
  close(): Promise<void>;
}

interface Call {
  id?: string;
  name?: string;
  args?: Json;
}

/** The two calls, with ids when `withIds`. */
function twinCalls(withIds: boolean): Json[] {
  return TWIN_PATHS.map((path, index) => ({
    functionCall: { ...(withIds ? { id: TWIN_CALL_IDS[index] } : {}), name: TWIN_FUNCTION, args: { path } },
  }));
}

/** Each call's response output: by id when the response has one, else the next unanswered call of its name. */
function pairedOutputs(calls: Call[], responses: Json[]): Array<unknown> {
  const outputs: unknown[] = calls.map(() => undefined);
  const answered = calls.map(() => false);
  for (const response of responses) {
    const index =
      response.id !== undefined
        ? calls.findIndex((call) => call.id === response.id)
        : calls.findIndex((call, at) => !answered[at] && call.name === response.name);
    if (index < 0) continue;
    answered[index] = true;
    outputs[index] = response.response?.output ?? response.response;
  }
  return outputs;
}

/** The text answering the last content's function responses. */
function pairingText(contents: Json[]): string | undefined {
  const responses = (contents.at(-1)?.parts ?? []).flatMap((part: Json) =>
    part.functionResponse ? [part.functionResponse] : [],
  );
  if (responses.length === 0) return undefined;
  const model = [...contents].reverse().find((content) => content.role === 'model');
  const calls: Call[] = (model?.parts ?? []).flatMap((part: Json) => (part.functionCall ? [part.functionCall] : []));
  const outputs = pairedOutputs(calls, responses);
  return calls.map((call, index) => `${String(call.args?.path)}: ${String(outputs[index] ?? '?')}`).join('; ');
}

export async function startMockGeminiTwinCalls(): Promise<MockGeminiTwinCalls> {
  const requests: Json[] = [];
  const server = await startMockServer((body, request, response) => {
    requests.push(body);
    const model = /models\/([^:]+):/.exec(request.url ?? '')?.[1] ?? '';
    const text = pairingText((body.contents as Json[] | undefined) ?? []);
    const parts = text === undefined ? twinCalls(model.endsWith('-ids')) : [{ text }];
    response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    response.end(
      JSON.stringify({
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 },
        modelVersion: model,
        responseId: 'resp-twin',
      }),
    );
  });
  return { url: `${server.origin}/v1beta`, requests, close: () => server.close() };
}
