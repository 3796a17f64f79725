/** GatewayError → the chat-completions error envelope, which the Responses API uses too. */
export { encodeOpenAIError as encodeResponsesError, openAIErrorBody } from '../shared/openai-error';
