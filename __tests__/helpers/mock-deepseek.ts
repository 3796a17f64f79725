/**
 * A mock of DeepSeek's chat completions in thinking mode (api.deepseek.com), the dialect Kimi and Qwen share: the
 * reasoning streams in `reasoning_content` beside `content`, and a turn that made tool calls must come back with its
 * `reasoning_content`, or the request is refused.
 *
 * DeepSeek's thinking-mode guide (api-docs.deepseek.com/guides/thinking_mode, "Tool calls"): between two user
 * messages, an assistant turn that called tools must pass its `reasoning_content` back in every later request, else a
 * 400; without tool calls it is ignored. The refusal is the one Claude Code users behind claude-code-router met
 * (musistudio/claude-code-router #1041, #1050): `{"error": {"message": "Missing `reasoning_content` field in the
 * assistant message at message index N. …", "type": "invalid_request_error", "param": null, "code":
 * "invalid_request_error"}}`.
 */
import type http from 'node:http';
import {
  type MockDialect,
  type ReasoningField,
  sendError,
  sendWeatherStep,
  startDialect,
  WEATHER_ARGUMENTS,
} from './mock-chat-wire';

/** The reasoning of the turn that calls the tool, and of the answer. */
export const DEEPSEEK_CALL_THOUGHT = 'The user wants the weather; I will call get_weather.';
export const DEEPSEEK_ANSWER_THOUGHT = 'The tool says 3°C.';
export const DEEPSEEK_CALL_ID = 'call_00_deepseek';

/** The index of the first assistant message with tool calls and no `reasoning_content` (or `field`), or -1. */
export function missingReasoning(body: Record<string, any>, field: ReasoningField = 'reasoning_content'): number {
  const messages: Array<Record<string, any>> = body.messages ?? [];
  return messages.findIndex(
    (message) =>
      message.role === 'assistant' && Array.isArray(message.tool_calls) && typeof message[field] !== 'string',
  );
}

/** DeepSeek's 400 for a tool-call turn sent back without its `reasoning_content` (or `field`; message `index`). */
export function refuseMissingReasoning(
  response: http.ServerResponse,
  index: number,
  field: ReasoningField = 'reasoning_content',
): void {
  sendError(response, 400, {
    error: {
      message: `Missing \`${field}\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    },
  });
}

/**
 * Starts the mock. Every model thinks (`thinking: {type: "disabled"}` turns it off). The script: reasoning and a call of
 * `get_weather` (streamed: the reasoning in two deltas, then the call in fragments), then, once its result is back,
 * reasoning and the answer. `field` (default `reasoning_content`) is where it writes its reasoning and wants it back:
 * `reasoning` makes it a server of that dialect (newer vLLM, Ollama), refusing a tool-call turn without `reasoning`.
 */
export function startMockDeepSeek(field: ReasoningField = 'reasoning_content'): Promise<MockDialect> {
  return startDialect((body, response) => {
    const thinking = body.thinking?.type !== 'disabled';
    const missing = thinking ? missingReasoning(body, field) : -1;
    if (missing >= 0) {
      refuseMissingReasoning(response, missing, field);
      return;
    }
    const half = DEEPSEEK_CALL_THOUGHT.length >> 1;
    sendWeatherStep(body, response, {
      field,
      callId: DEEPSEEK_CALL_ID,
      argumentPieces: ['', WEATHER_ARGUMENTS.slice(0, 6), WEATHER_ARGUMENTS.slice(6)],
      thoughts: {
        call: [DEEPSEEK_CALL_THOUGHT.slice(0, half), DEEPSEEK_CALL_THOUGHT.slice(half)],
        answer: DEEPSEEK_ANSWER_THOUGHT,
      },
    });
  });
}
