/**
 * The names of the span attributes the gateway sets: the OpenTelemetry GenAI semantic conventions (v1.41, status
 * Development: docs/operations.md, *Traces*) and the gateway's own under `rosetta.*`.
 */

/** The conventions' version the spans follow. */
export const GENAI_CONVENTIONS_VERSION = '1.41.0';

export const OPERATION_NAME = 'gen_ai.operation.name';
export const PROVIDER_NAME = 'gen_ai.provider.name';
export const REQUEST_MODEL = 'gen_ai.request.model';
export const REQUEST_STREAM = 'gen_ai.request.stream';
export const OUTPUT_TYPE = 'gen_ai.output.type';
export const RESPONSE_MODEL = 'gen_ai.response.model';
export const RESPONSE_ID = 'gen_ai.response.id';
export const FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
export const INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const CACHE_READ_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const CACHE_WRITE_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
export const REASONING_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
export const CONVERSATION_ID = 'gen_ai.conversation.id';
export const INPUT_MESSAGES = 'gen_ai.input.messages';
export const OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const ERROR_TYPE = 'error.type';
export const SERVER_ADDRESS = 'server.address';
export const SERVER_PORT = 'server.port';
export const HTTP_STATUS = 'http.response.status_code';

/** The gateway's own attributes. Never a key: `rosetta.key.id` is the principal's id. */
export const ROSETTA = {
  requestId: 'rosetta.request_id',
  protocol: 'rosetta.protocol',
  operation: 'rosetta.operation',
  keyId: 'rosetta.key.id',
  model: 'rosetta.model',
  provider: 'rosetta.provider',
  deployment: 'rosetta.deployment',
  affinity: 'rosetta.affinity',
  attempts: 'rosetta.attempts',
  outcome: 'rosetta.outcome',
  creditsHeld: 'rosetta.credits.held',
  creditsCharged: 'rosetta.credits.charged',
  settlement: 'rosetta.credits.settlement',
  usageSource: 'rosetta.usage.source',
  errorKind: 'rosetta.error.kind',
} as const;

/**
 * `gen_ai.operation.name` of a call: `embeddings` for an embedding, `generate_content` for an image (with
 * `gen_ai.output.type` `image`: the conventions have no image operation; `generate_content` is their multimodal
 * generation) and for a Gemini caller's text call, `chat` for every other text call; `count_tokens` (no
 * conventions' value) for a count.
 */
export function operationName(operation: string, protocol: string): string {
  switch (operation) {
    case 'embed':
      return 'embeddings';
    case 'image':
      return 'generate_content';
    case 'count-tokens':
      return 'count_tokens';
    default:
      return protocol === 'gemini' ? 'generate_content' : 'chat';
  }
}

/** The conventions' well-known `gen_ai.provider.name` for the gateway's default provider names; others as named. */
export function providerName(name: string): string {
  return name === 'gemini' ? 'gcp.gemini' : name;
}
