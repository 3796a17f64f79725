/**
 * A mock of Moonshot's Kimi chat completions (api.moonshot.ai) in its thinking dialect. `kimi-k2-thinking` always
 * thinks; `kimi-k2.5` thinks unless the request says `thinking: {type: "disabled"}`. The reasoning streams in
 * `reasoning_content` beside `content`, and every assistant turn that made tool calls must come back with its
 * `reasoning_content` (Moonshot's "Using thinking models" guide, platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model:
 * keep `reasoning_content` in the context of a multi-step tool call; openai/openai-agents-python#2669: Kimi answers a
 * second turn without it with a 400). The refusal's wording is **unverified**; the mock's is modelled on DeepSeek's.
 */
import { type MockDialect, sendError, sendWeatherStep, startDialect, WEATHER_ARGUMENTS } from './mock-chat-wire';

export const KIMI_CALL_THOUGHT = 'The user asks about Oslo; get_weather will tell.';
export const KIMI_ANSWER_THOUGHT = 'The tool reports 3°C.';

/** Whether the request's model thinks: k2-thinking always, others unless `thinking.type` is `disabled`. */
const thinks = (body: Record<string, any>): boolean =>
  String(body.model).includes('thinking') || body.thinking?.type !== 'disabled';

export function startMockKimi(): Promise<MockDialect> {
  return startDialect((body, response) => {
    const messages: Array<Record<string, any>> = body.messages ?? [];
    const missing = thinks(body)
      ? messages.findIndex(
          (message) =>
            message.role === 'assistant' &&
            Array.isArray(message.tool_calls) &&
            typeof message.reasoning_content !== 'string',
        )
      : -1;
    if (missing >= 0) {
      sendError(response, 400, {
        error: {
          message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${missing}`,
          type: 'invalid_request_error',
        },
      });
      return;
    }
    sendWeatherStep(body, response, {
      callId: 'get_weather:0',
      argumentPieces: ['', WEATHER_ARGUMENTS],
      thoughts: thinks(body) ? { call: [KIMI_CALL_THOUGHT], answer: KIMI_ANSWER_THOUGHT } : undefined,
    });
  });
}
