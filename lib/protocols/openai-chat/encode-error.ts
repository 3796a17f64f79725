/** GatewayError → the OpenAI error envelope `{error: {message, type, param, code}}` (shared with the Responses codec). */
export { encodeOpenAIError, openAIErrorBody } from '../shared/openai-error';
