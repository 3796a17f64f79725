/**
 * A Gemini upstream (Vertex AI's dialect) that streams a function call's arguments in pieces when the request sets
 * `toolConfig.functionCallingConfig.streamFunctionCallArguments` (or, standing for an upstream configured to, when
 * the model id ends in `-partial`): the first `functionCall` piece with `name`, `willContinue: true` and the thought
 * signature, then pieces of `partialArgs` (`jsonPath` with `stringValue` continued by `willContinue`, `numberValue`,
 * `boolValue`, an array's items by index), then an empty `functionCall: {}` with the finish reason. Google's
 * `FunctionCall` / `PartialArg` reference (googleapis/googleapis 286c66a) and the Vercel AI SDK's Vertex provider
 * (vercel/ai 5036db8) give the shape; no recorded Vertex stream was available: **unverified** beyond them. Without
 * the setting, the call comes whole.
 */
import { startMockServer } from './mock-server';

/** The arguments the streamed call adds up to. */
export const STREAMED_ARGS = {
  location: 'Boston, MA "Back Bay"',
  brightness: 50,
  options: { units: ['C', 'F'], precise: true, note: null },
};

/** The `functionCall` parts, one per chunk, of the streamed call. */
export const STREAMED_PIECES: Array<Record<string, unknown>> = [
  { functionCall: { name: 'get_weather', willContinue: true }, thoughtSignature: 'c2lnLXN0cmVhbWVk' },
  {
    functionCall: {
      partialArgs: [{ jsonPath: '$.location', stringValue: 'Boston', willContinue: true }],
      willContinue: true,
    },
  },
  { functionCall: { partialArgs: [{ jsonPath: '$.location', stringValue: ', MA "Back Bay"' }], willContinue: true } },
  {
    functionCall: {
      partialArgs: [
        { jsonPath: '$.brightness', numberValue: 50 },
        { jsonPath: '$.options.units[0]', stringValue: 'C' },
        { jsonPath: '$.options.units[1]', stringValue: 'F' },
        { jsonPath: '$.options.precise', boolValue: true },
        { jsonPath: "$.options['note']", nullValue: 'NULL_VALUE' },
      ],
      willContinue: true,
    },
  },
  { functionCall: {} },
];

/** A started mock: where it listens, the bodies it was sent, close(). */
export interface MockGeminiStreamArgs {
  origin: string;
  readonly requests: Array<Record<string, any>>;
  close(): Promise<void>;
}

const USAGE = { promptTokenCount: 12, candidatesTokenCount: 9, totalTokenCount: 21 };

export async function startMockGeminiStreamArgs(): Promise<MockGeminiStreamArgs> {
  const requests: Array<Record<string, any>> = [];
  const server = await startMockServer((received, request, response) => {
    const body = received as Record<string, any>;
    requests.push(body);
    const url = request.url ?? '';
    const model = /models\/([^:]+):/.exec(url)?.[1] ?? '';
    const streamed =
      body.toolConfig?.functionCallingConfig?.streamFunctionCallArguments === true || model.endsWith('-partial');
    const chunk = (part: unknown, last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      ...(last ? { usageMetadata: USAGE } : {}),
      modelVersion: model,
      responseId: 'resp-stream-args',
    });
    const pieces = streamed
      ? STREAMED_PIECES
      : [{ functionCall: { name: 'get_weather', args: STREAMED_ARGS }, thoughtSignature: 'c2lnLXdob2xl' }];
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    pieces.forEach((piece, index) => {
      response.write(`data: ${JSON.stringify(chunk(piece, index === pieces.length - 1))}\r\n\r\n`);
    });
    response.end();
  });
  return { origin: server.origin, requests, close: () => server.close() };
}
