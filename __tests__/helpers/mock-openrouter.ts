/**
 * A mock of OpenRouter's chat completions serving a thinking model whose reasoning is signed (as Anthropic's and
 * Gemini's are behind it): the reasoning comes as readable text in `reasoning` and, in full, as `reasoning_details`,
 * which must come back unchanged on the assistant message that made the tool call.
 *
 * OpenRouter's reasoning-tokens guide (openrouter.ai/docs/guides/best-practices/reasoning-tokens, "Preserving
 * reasoning blocks"): `reasoning_details` is an array of `reasoning.text` (`text`, `signature`), `reasoning.summary`
 * (`summary`) and `reasoning.encrypted` (`data`) items, each with `id`, `format` (`anthropic-claude-v1`,
 * `google-gemini-v1`, `openai-responses-v1`, …) and `index`; streamed, the pieces of one item share its `index`. To
 * continue a tool loop they go back exactly as received, in order. Without them the vendor behind refuses the turn; the
 * mock answers in OpenRouter's error shape, `{"error": {"code": 400, "message": "Provider returned error", "metadata":
 * {"raw": …, "provider_name": …}}}`.
 */
import {
  type MockDialect,
  sendAnswer,
  sendError,
  sendWeatherAnswer,
  startDialect,
  toolResultIsBack,
  WEATHER_ARGUMENTS,
  WEATHER_TOOL,
} from './mock-chat-wire';

export const OPENROUTER_CALL_ID = 'toolu_vrtx_01OpenRouterCall';
export const OPENROUTER_THOUGHT = 'Weather needs a tool call.';

/** The blocks the mock mints for the tool-call turn, as they must come back. */
export const OPENROUTER_DETAILS = [
  {
    type: 'reasoning.text',
    text: OPENROUTER_THOUGHT,
    signature: 'ErUBCkYIBhgCIkBanthropicSignatureViaOpenRouter',
    id: null,
    format: 'anthropic-claude-v1',
    index: 0,
  },
  { type: 'reasoning.encrypted', data: 'gAAAAABencryptedBlob', id: 'rs_or_1', format: 'anthropic-claude-v1', index: 1 },
];

/** What is wrong with the assistant turns' reasoning blocks, or undefined. */
function detailsFault(body: Record<string, any>): string | undefined {
  for (const message of (body.messages ?? []) as Array<Record<string, any>>) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    if (JSON.stringify(message.reasoning_details) !== JSON.stringify(OPENROUTER_DETAILS))
      return 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.';
  }
  return undefined;
}

/**
 * Starts the mock: reasoning and a call of `get_weather` (streamed: the text item in two pieces, its signature last,
 * then the encrypted item, then the call), then the answer once its result is back.
 */
export function startMockOpenRouter(): Promise<MockDialect> {
  return startDialect((body, response) => {
    const fault = detailsFault(body);
    if (fault) {
      sendError(response, 400, {
        error: { code: 400, message: 'Provider returned error', metadata: { raw: fault, provider_name: 'Anthropic' } },
      });
      return;
    }
    const model = String(body.model);
    if (toolResultIsBack(body)) {
      sendWeatherAnswer(body, response);
      return;
    }
    const [text, encrypted] = OPENROUTER_DETAILS as unknown as [Record<string, unknown>, Record<string, unknown>];
    const half = OPENROUTER_THOUGHT.length >> 1;
    const call = {
      index: 0,
      id: OPENROUTER_CALL_ID,
      type: 'function',
      function: { name: WEATHER_TOOL, arguments: WEATHER_ARGUMENTS },
    };
    sendAnswer(body, response, {
      model,
      message: {
        role: 'assistant',
        content: '',
        reasoning: OPENROUTER_THOUGHT,
        reasoning_details: OPENROUTER_DETAILS,
        tool_calls: [call],
      },
      deltas: [
        {
          reasoning: OPENROUTER_THOUGHT.slice(0, half),
          reasoning_details: [{ ...text, text: OPENROUTER_THOUGHT.slice(0, half), signature: null }],
        },
        {
          reasoning: OPENROUTER_THOUGHT.slice(half),
          reasoning_details: [
            { type: 'reasoning.text', text: OPENROUTER_THOUGHT.slice(half), index: 0, format: text.format },
          ],
        },
        {
          reasoning_details: [
            { type: 'reasoning.text', text: '', signature: text.signature, index: 0, format: text.format },
          ],
        },
        { reasoning_details: [encrypted] },
        { tool_calls: [call] },
      ],
    });
  });
}
