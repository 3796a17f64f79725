/**
 * What the OpenAI protocols carry under their `extensions` keys (`'openai-chat'`, `'openai-images'`):
 * the wire fields the canonical types do not model, and the few spellings a faithful re-encoding
 * needs. Written by the chat-completions codec and read by the OpenAI provider (requests), written
 * by the provider and read by the codec (answers).
 */
import type { Extensions } from '../../canonical';
import type { JsonObject } from '../../json';

/** The `extensions` key of chat completions. */
export const OPENAI_CHAT = 'openai-chat';
/** The `extensions` key of the images API. */
export const OPENAI_IMAGES = 'openai-images';

/**
 * `GenerateRequest.extensions['openai-chat']`. Every member is optional; absent means the caller
 * sent nothing of it (and an encoder uses its own default).
 */
export type ChatRequestExtension = {
  /** Top-level body fields the codec does not model (`logprobs`, `metadata`, `store`, penalties, …), as sent. */
  fields?: JsonObject;
  /** The caller's name for the output cap. Default: the provider's `maxTokensField`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Fields of `response_format.json_schema` beside `name`, `schema` and `strict` (its `description`), as sent. */
  jsonSchemaFields?: JsonObject;
  /** `stop` was one string, not an array. Default: an array. */
  stopString?: true;
  /**
   * The caller's name for the end-user id, whose value goes as given (not shortened). Default `user`, shortened to 64
   * characters.
   */
  userField?: 'user' | 'safety_identifier';
  /**
   * `temperature`, `top_p` and `reasoning_effort` are the caller's own chat-completions settings:
   * sent as given, whatever the provider's `reasoningModels` says. Default: adapted to the model.
   */
  samplingAsGiven?: true;
};

/** `Message.extensions['openai-chat']`. */
export type ChatMessageExtension = {
  /** Message fields the codec does not model (`audio`, `function_call`, a server's own), as sent. */
  fields?: JsonObject;
  /**
   * The message's wire role where the canonical role does not say it: `system` or `developer` for a
   * system message (which is then sent where it stands, not folded into a leading one), `function`
   * for the legacy function-result message. Default: the canonical role.
   */
  role?: 'system' | 'developer' | 'function';
  /** The content was an array of parts although it holds only text. Default: text-only content is a string. */
  contentArray?: true;
};

/** `ContentPart.extensions['openai-chat']` (a content part, or a tool call of `tool_calls`). */
export type ChatPartExtension = {
  /** Part fields the codec does not model (`cache_control`, a tool call's other `extra_content`), as sent. */
  fields?: JsonObject;
  /** This text was the assistant message's `refusal`, not its content. Default false. */
  refusal?: true;
};

/** `ToolDefinition.extensions['openai-chat']`. */
export type ChatToolExtension = {
  /** Fields of the tool object beside `type` and `function`, as sent. */
  fields?: JsonObject;
  /** Fields of `function` beside `name`, `description`, `parameters` and `strict`, as sent. */
  functionFields?: JsonObject;
};

/** `GenerateResponse.extensions['openai-chat']`. */
export type ChatResponseExtension = {
  /**
   * Top-level answer fields the codec does not write (`system_fingerprint`, `service_tier`, a server's `provider`), as
   * sent.
   */
  fields?: JsonObject;
  /**
   * The usage block's fields beyond the canonical figures (a server's `cost`, `audio_tokens`, …),
   * the details objects without the counts canonical usage has ({@link MODELLED_USAGE_DETAILS}).
   */
  usage?: JsonObject;
};

/** `Choice.extensions['openai-chat']`. */
export type ChatChoiceExtension = {
  /**
   * Choice fields beside `index`, `message`, `finish_reason` (`logprobs`, a server's `native_finish_reason`), as sent.
   */
  fields?: JsonObject;
  /** Message fields the codec does not write (`annotations`, `audio`, a server's `reasoning_details`), as sent. */
  message?: JsonObject;
};

/**
 * The `response-start` stream part's `extensions['openai-chat']`: the first chunk's fields the codec does not write
 * (`system_fingerprint`, `service_tier`, a server's own).
 */
export type ChatStreamStartExtension = { fields?: JsonObject };

/** A `text-delta` stream part's `extensions['openai-chat']`: its chunk's choice `logprobs`. */
export type ChatTextDeltaExtension = { logprobs: unknown };

/** `ImageRequest.extensions['openai-images']`. */
export type ImagesRequestExtension = {
  /** Body fields the images codec does not model (`moderation`, `output_compression`, a server's own), as sent. */
  fields?: JsonObject;
};

/** `EmbedRequest.extensions['openai-embeddings']`. */
export type EmbeddingsRequestExtension = {
  /** Body fields the embeddings codec does not model (a compatible server's own, e.g. Voyage's `input_type`), as sent. */
  fields?: JsonObject;
  /**
   * The caller's `encoding_format` when it is `base64`: an OpenAI-compatible upstream is asked for the same (4 bytes a
   * dimension to decode and re-encode, instead of a decimal number to parse and print).
   */
  encodingFormat?: 'base64';
};

/** Answer fields the chat codec writes itself from canonical values; the provider keeps them out of `fields`. */
export const MODELLED_RESPONSE_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'object',
  'created',
  'model',
  'choices',
  'usage',
]);
/** Choice fields the chat codec writes itself. */
export const MODELLED_CHOICE_FIELDS: ReadonlySet<string> = new Set(['index', 'message', 'finish_reason']);
/**
 * Message fields the chat codec writes itself; `reasoning` too, returned as `reasoning_content`, and OpenRouter's
 * `reasoning_details`, which are provider metadata (carried in the tool-call ids).
 */
export const MODELLED_MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  'role',
  'content',
  'refusal',
  'tool_calls',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
]);
/**
 * Stream-chunk fields the chat codec writes itself. `obfuscation` is OpenAI's per-chunk padding:
 * one chunk's value does not belong on the others.
 */
export const MODELLED_CHUNK_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'object',
  'created',
  'model',
  'choices',
  'usage',
  'obfuscation',
  'error',
]);
/** Usage fields canonical usage has. */
export const MODELLED_USAGE_FIELDS: ReadonlySet<string> = new Set([
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
]);
/** Counts inside `prompt_tokens_details` / `completion_tokens_details` that canonical usage has. */
export const MODELLED_USAGE_DETAILS: ReadonlySet<string> = new Set([
  'cached_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
]);

/** The chat-completions entry of some extensions. */
export function chatExtension<T extends JsonObject>(extensions: Extensions | undefined): T | undefined {
  return extensions?.[OPENAI_CHAT] as T | undefined;
}

/** `{'openai-chat': extension}`, to set as an object's `extensions`. */
export function chatExtensions(extension: JsonObject): Extensions {
  return { 'openai-chat': extension };
}
