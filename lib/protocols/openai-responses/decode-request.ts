/**
 * Responses request body → canonical GenerateRequest; the fields it does not model in `extensions['openai-responses']`.
 */
import type { GenerateRequest } from '../../canonical';
import type { JsonObject } from '../../json';
import { invalidField } from '../shared/validate';
import { RESPONSES, type ResponsesRequestExtension } from '../../wire/openai/responses-extensions';
import { decodeInput } from './decode-input';
import { decodeReasoning, decodeText } from './decode-settings';
import { decodeToolChoice, decodeTools } from './decode-tools';
import { validateResponsesBody, type ResponsesBody } from './schema';

/** Body fields the canonical request says (wholly or, for `tools`, `text`, `reasoning`, in part). */
const MODELLED_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'input',
  'instructions',
  'stream',
  'max_output_tokens',
  'temperature',
  'top_p',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'background',
  'previous_response_id',
  'conversation',
]);

/**
 * The requests this gateway cannot serve faithfully: a 400 rather than a silently different answer.
 * (`previous_response_id` is served by the gateway's response store: see `state.ts`.)
 */
function refuseStateful(body: ResponsesBody): void {
  if (body.background === true) invalidField('background', 'background responses are not supported by this gateway');
  if (body.conversation !== undefined && body.conversation !== null) {
    invalidField(
      'conversation',
      'conversations are not supported by this gateway; use previous_response_id, or resend the whole input',
    );
  }
}

/**
 * The request's extension: its unmodelled top-level fields, and the parts of `tools`, `tool_choice`, `text`,
 * `reasoning` canonical cannot say.
 */
function requestExtension(
  body: ResponsesBody,
  parts: { builtins?: JsonObject[]; toolChoice?: JsonObject; text?: JsonObject; reasoning?: JsonObject },
): ResponsesRequestExtension | undefined {
  let extension: ResponsesRequestExtension | undefined;
  const raw = body as unknown as JsonObject;
  for (const name in raw) {
    if (!MODELLED_FIELDS.has(name) && Object.hasOwn(raw, name) && raw[name] !== undefined)
      (extension ??= {})[name] = raw[name];
  }
  if (parts.builtins?.length) (extension ??= {}).tools = parts.builtins;
  if (parts.toolChoice) (extension ??= {}).tool_choice = parts.toolChoice;
  if (parts.text) (extension ??= {}).text = parts.text;
  if (parts.reasoning) (extension ??= {}).reasoning = parts.reasoning;
  return extension;
}

/** Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field. */
export function decodeResponsesRequest(body: unknown): GenerateRequest {
  validateResponsesBody(body);
  refuseStateful(body);
  const messages = decodeInput(body.input, body.instructions);
  if (messages.length === 0) invalidField('input', 'is required (a string or a non-empty array of items)');
  const request: GenerateRequest = { model: body.model, messages, stream: body.stream === true };
  if (body.max_output_tokens !== null && body.max_output_tokens !== undefined)
    request.maxOutputTokens = body.max_output_tokens;
  if (body.temperature !== null && body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== null && body.top_p !== undefined) request.topP = body.top_p;
  const tools = decodeTools(body.tools);
  if (tools && tools.tools.length > 0) request.tools = tools.tools;
  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice.choice) request.toolChoice = toolChoice.choice;
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  const text = decodeText(body.text);
  if (text.format) request.responseFormat = text.format;
  const reasoning = decodeReasoning(body.reasoning);
  if (reasoning.settings) request.reasoning = reasoning.settings;
  const user = body.safety_identifier ?? body.user;
  if (user) request.user = user;
  const raw = body as unknown as JsonObject;
  if (typeof raw.prompt_cache_key === 'string') request.promptCacheKey = raw.prompt_cache_key;
  if (raw.prompt_cache_retention !== undefined && raw.prompt_cache_retention !== null) {
    if (typeof raw.prompt_cache_retention !== 'string') invalidField('prompt_cache_retention', 'must be a string');
    request.promptCacheRetention = raw.prompt_cache_retention;
  }
  const extension = requestExtension(body, {
    builtins: tools?.builtins,
    toolChoice: toolChoice.kept,
    text: text.kept,
    reasoning: reasoning.kept,
  });
  if (extension) request.extensions = { [RESPONSES]: extension };
  return request;
}
