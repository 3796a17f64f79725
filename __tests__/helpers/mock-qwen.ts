/**
 * A mock of Alibaba Cloud Model Studio's OpenAI-compatible mode (dashscope*.aliyuncs.com/compatible-mode/v1) serving
 * Qwen3 thinking models. Thinking is switched per request by `enable_thinking` (hybrid models; open-source `qwen3-…`
 * default on, the commercial `qwen-plus` off), always on for thinking-only models (`…-thinking`, `qwq-…`), capped by
 * `thinking_budget`; the reasoning streams in `reasoning_content`. Thinking mode answers only streamed ("The thinking
 * mode only supports incremental output": Model Studio's "Deep thinking" guide, alibabacloud.com/help/en/model-studio/
 * deep-thinking): a non-streamed request that would think is a 400 (the wording, from users' reports of DashScope's
 * `parameter.enable_thinking must be set to false for non-streaming calls`, is **unverified**). Earlier turns'
 * `reasoning_content` is accepted and not required.
 */
import { type MockDialect, sendError, sendWeatherStep, startDialect, WEATHER_ARGUMENTS } from './mock-chat-wire';

export const QWEN_CALL_THOUGHT = 'Oslo weather: call get_weather.';
export const QWEN_ANSWER_THOUGHT = 'It is cold there.';

/** Whether this request thinks. */
function thinks(body: Record<string, any>): boolean {
  const model = String(body.model);
  if (model.endsWith('-thinking') || model.startsWith('qwq')) return true;
  if (typeof body.enable_thinking === 'boolean') return body.enable_thinking;
  return model.startsWith('qwen3-');
}

export function startMockQwen(): Promise<MockDialect> {
  return startDialect((body, response) => {
    const thinking = thinks(body);
    if (thinking && body.stream !== true) {
      sendError(response, 400, {
        error: {
          message: 'parameter.enable_thinking must be set to false for non-streaming calls',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_parameter_error',
        },
      });
      return;
    }
    sendWeatherStep(body, response, {
      callId: 'call_qwen_0',
      argumentPieces: [WEATHER_ARGUMENTS],
      thoughts: thinking ? { call: [QWEN_CALL_THOUGHT], answer: QWEN_ANSWER_THOUGHT } : undefined,
    });
  });
}
