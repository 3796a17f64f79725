/**
 * A mock of Google's OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai/) serving a Gemini 3
 * model: each tool call comes whole (an id, no `index`) with its thought signature in
 * `extra_content.google.thought_signature`, and must come back with it.
 *
 * Google's thought-signature rule (ai.google.dev/gemini-api/docs/thought-signatures): in the current turn (after the
 * last user message), the first function call of each step must carry its signature, else a 400; the documented
 * placeholder `skip_thought_signature_validator` stands in for calls Gemini did not make. The endpoint answers errors
 * as a JSON array (discuss.ai.google.dev "OpenAI API compatibility broken due to thought_signature", litellm #16893):
 * `[{"error": {"code": 400, "message": "Function call is missing a thought_signature in functionCall parts. …",
 * "status": "INVALID_ARGUMENT"}}]`. A signature the model never minted is refused too (as Google refuses a corrupted
 * one), so another vendor's signature sent here fails.
 */
import {
  currentTurnAssistants,
  type MockDialect,
  sendAnswer,
  sendError,
  sendWeatherAnswer,
  startDialect,
  toolResultIsBack,
  WEATHER_ARGUMENTS,
  WEATHER_TOOL,
} from './mock-chat-wire';

export const GOOGLE_CALL_ID = 'function-call-7733';
export const GOOGLE_SIGNATURE = 'CtQBAdHtim9gemini3SignatureOfTheCall==';
const PLACEHOLDER = 'skip_thought_signature_validator';

function googleError(message: string): unknown {
  return [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }];
}

/** What is wrong with the current turn's signatures, or undefined. */
function signatureFault(body: Record<string, any>): string | undefined {
  for (const { message } of currentTurnAssistants(body)) {
    const calls: Array<Record<string, any>> = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (calls.length === 0) continue;
    const signature = calls[0]!.extra_content?.google?.thought_signature;
    if (signature === undefined)
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`${calls[0]!.function?.name}\` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    if (signature !== GOOGLE_SIGNATURE && signature !== PLACEHOLDER) return 'Corrupted thought signature.';
  }
  return undefined;
}

/** Starts the mock: a signed call of `get_weather` (streamed whole, in one delta), then the answer once its result is back. */
export function startMockGoogleOpenAI(): Promise<MockDialect> {
  return startDialect((body, response) => {
    const fault = signatureFault(body);
    if (fault) {
      sendError(response, 400, googleError(fault));
      return;
    }
    const model = String(body.model);
    if (toolResultIsBack(body)) {
      sendWeatherAnswer(body, response);
      return;
    }
    const call = {
      id: GOOGLE_CALL_ID,
      type: 'function',
      function: { name: WEATHER_TOOL, arguments: WEATHER_ARGUMENTS },
      extra_content: { google: { thought_signature: GOOGLE_SIGNATURE } },
    };
    sendAnswer(body, response, {
      model,
      message: { role: 'assistant', content: null, tool_calls: [call] },
      deltas: [{ tool_calls: [call] }],
    });
  });
}
