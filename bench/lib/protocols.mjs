/**
 * The requests each target is driven with, per caller protocol and mode, and a cheap check of each
 * answer (the fixed text went through, and the protocol's terminal event was seen for a stream):
 * a streamed error would still be a 200, so status codes alone are not enough.
 */
export const GATEWAY_KEY = 'sk-bench-key';
const PROMPT = 'Say hello in one short sentence.';
const TEXT_END = 'today?';

function json(value) {
  return JSON.stringify(value);
}

const PROTOCOLS = {
  /** OpenAI chat completions: direct to the mock, the relays, and the gateway's same-protocol path. */
  openai: {
    label: 'OpenAI chat',
    request(mode, model = 'mock-model') {
      const stream = mode === 'stream';
      return {
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${GATEWAY_KEY}` },
        body: json({
          model,
          messages: [{ role: 'user', content: PROMPT }],
          max_tokens: 64,
          ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
        }),
        verify: stream
          ? (body) => body.includes(TEXT_END) && body.endsWith('data: [DONE]\n\n') && !body.includes('"error"')
          : (body) => body.includes(TEXT_END) && body.includes('"finish_reason":"stop"'),
      };
    },
  },
  /** Anthropic messages → the gateway → an OpenAI upstream. */
  anthropic: {
    label: 'Anthropic messages',
    request(mode, model = 'mock-model') {
      const stream = mode === 'stream';
      return {
        path: '/v1/messages',
        headers: { 'content-type': 'application/json', 'x-api-key': GATEWAY_KEY, 'anthropic-version': '2023-06-01' },
        body: json({
          model,
          max_tokens: 64,
          messages: [{ role: 'user', content: PROMPT }],
          ...(stream ? { stream: true } : {}),
        }),
        verify: stream
          ? (body) => body.includes(TEXT_END) && body.includes('event: message_stop') && !body.includes('event: error')
          : (body) => body.includes(TEXT_END) && body.includes('"stop_reason":"end_turn"'),
      };
    },
  },
  /** OpenAI Responses (`POST /v1/responses`) → the gateway → an OpenAI chat-completions upstream. */
  responses: {
    label: 'OpenAI Responses',
    request(mode, model = 'mock-model') {
      const stream = mode === 'stream';
      return {
        path: '/v1/responses',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${GATEWAY_KEY}` },
        body: json({
          model,
          input: [{ role: 'user', content: PROMPT }],
          max_output_tokens: 64,
          ...(stream ? { stream: true } : {}),
        }),
        // A stream's last event is `response.completed` (a failed or cut one ends with `response.failed`,
        // `response.incomplete`, an `error` event, or nothing); a whole answer has no error and no
        // incomplete_details (an item's `"status":"completed"` alone would not tell).
        verify: stream
          ? (body) =>
              body.includes(TEXT_END) && body.startsWith('event: response.completed\n', body.lastIndexOf('event: '))
          : (body) =>
              body.includes(TEXT_END) &&
              body.includes('"status":"completed"') &&
              body.includes('"error":null') &&
              body.includes('"incomplete_details":null'),
      };
    },
  },
  /** Gemini generateContent / streamGenerateContent?alt=sse → the gateway → an OpenAI upstream. */
  gemini: {
    label: 'Gemini generateContent',
    request(mode, model = 'mock-model') {
      const stream = mode === 'stream';
      return {
        path: stream
          ? `/v1beta/models/${model}:streamGenerateContent?alt=sse`
          : `/v1beta/models/${model}:generateContent`,
        headers: { 'content-type': 'application/json', 'x-goog-api-key': GATEWAY_KEY },
        body: json({
          contents: [{ role: 'user', parts: [{ text: PROMPT }] }],
          generationConfig: { maxOutputTokens: 64 },
        }),
        verify: stream
          ? (body) => body.includes(TEXT_END) && body.includes('"finishReason":"STOP"') && !body.includes('"error"')
          : (body) => body.includes(TEXT_END) && body.includes('"finishReason":"STOP"'),
      };
    },
  },
};

export function requestFor(protocol, mode, model) {
  const definition = PROTOCOLS[protocol];
  if (!definition) throw new Error(`unknown protocol ${protocol}`);
  return definition.request(mode, model);
}
