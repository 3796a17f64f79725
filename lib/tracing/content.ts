/**
 * The messages of a call as the GenAI conventions' opt-in attributes write them (`gen_ai.input.messages`,
 * `gen_ai.output.messages`: JSON of `{ role, parts: [{ type, … }] }`), made only when the host opted in
 * (`observability.traces.captureContent`) and the span records.
 */
import type { Choice, ContentPart, GenerateRequest, Message } from '../canonical';
import type { CapturedContent } from './call-trace';

/** One part as the conventions write it; images and files by their kind only, never their bytes. */
function partOf(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', content: part.text };
    case 'reasoning':
      return { type: 'reasoning', content: part.text };
    case 'tool-call':
      return { type: 'tool_call', id: part.id, name: part.name, arguments: part.arguments };
    case 'tool-result':
      return {
        type: 'tool_call_response',
        id: part.toolCallId,
        response: part.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join(''),
      };
    default:
      return { type: part.type };
  }
}

function messageOf(message: Message): Record<string, unknown> {
  return { role: message.role, parts: message.content.map(partOf) };
}

/** The input messages, and the output ones: a whole answer's choices, or a stream's text. */
export function capturedContent(
  request: GenerateRequest,
  output: readonly Choice[] | string | undefined,
): CapturedContent {
  const input = JSON.stringify(request.messages.map(messageOf));
  if (output === undefined) return { input };
  const choices =
    typeof output === 'string'
      ? [{ role: 'assistant', parts: [{ type: 'text', content: output }] }]
      : output.map((choice) => ({
          role: 'assistant',
          parts: choice.content.map(partOf),
          finish_reason: choice.finishReason.raw ?? choice.finishReason.unified,
        }));
  return { input, output: JSON.stringify(choices) };
}
