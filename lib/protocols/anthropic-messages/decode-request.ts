/** Anthropic messages request body → canonical GenerateRequest. */
import type { GenerateRequest, ReasoningSettings, ResponseFormat } from '../../canonical';
import { invalidField } from '../shared/validate';
import { decodeMessages, decodeSystem } from './decode-messages';
import { decodeToolChoice, decodeTools } from './decode-tools';
import { validateMessagesBody, type MessagesBody } from './schema';
import { withoutSignatureCarriers } from './signature-carriers';

/** The codec's name, which is also `origin.protocol` of the requests it decodes. */
export const ANTHROPIC_MESSAGES = 'anthropic-messages';

/** `thinking` and `output_config.effort` → canonical reasoning settings (undefined when neither is set). */
export function decodeReasoning(thinking: MessagesBody['thinking'], effort: NonNullable<MessagesBody['output_config']>['effort']): ReasoningSettings | undefined {
  const settings: ReasoningSettings = {};
  if (thinking) {
    if (thinking.type === 'disabled') {
      settings.enabled = false;
    } else {
      settings.enabled = true;
      settings.includeThoughts = thinking.display !== 'omitted';
      if (thinking.type === 'adaptive') settings.adaptive = true;
      if (thinking.type === 'enabled') {
        if (thinking.budget_tokens === undefined) invalidField('thinking.budget_tokens', "is required when thinking.type is 'enabled'");
        settings.budgetTokens = thinking.budget_tokens;
      }
    }
  }
  if (effort) settings.effort = effort;
  return Object.keys(settings).length > 0 ? settings : undefined;
}

function decodeResponseFormat(format: NonNullable<MessagesBody['output_config']>['format']): ResponseFormat | undefined {
  return format ? { type: 'json-schema', schema: format.schema } : undefined;
}

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field.
 * Fields without a canonical equivalent (`cache_control`, `context_management`, `service_tier`,
 * `container`, `mcp_servers`, …) are accepted and stay in `origin.body` for same-protocol pass-through
 * (vendor signatures the gateway carried in tool ids and `<vendor>:` thinking blocks are cleaned out of it).
 */
export function decodeMessagesRequest(body: unknown, headers: Record<string, string | string[] | undefined>): GenerateRequest {
  validateMessagesBody(body);
  const request: GenerateRequest = {
    model: body.model,
    messages: [...decodeSystem(body.system), ...decodeMessages(body.messages)],
    stream: body.stream === true,
    maxOutputTokens: body.max_tokens,
    origin: { protocol: ANTHROPIC_MESSAGES, body: withoutSignatureCarriers(body) as unknown as Record<string, unknown>, headers },
  };
  if (body.temperature !== null && body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== null && body.top_p !== undefined) request.topP = body.top_p;
  if (body.top_k !== null && body.top_k !== undefined) request.topK = body.top_k;
  if (body.stop_sequences?.length) request.stopSequences = body.stop_sequences;
  const tools = decodeTools(body.tools);
  if (tools.tools.length > 0) request.tools = tools.tools;
  const { toolChoice, parallelToolCalls } = decodeToolChoice(body.tool_choice, tools);
  if (toolChoice) request.toolChoice = toolChoice;
  if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
  const reasoning = decodeReasoning(body.thinking, body.output_config?.effort);
  if (reasoning) request.reasoning = reasoning;
  const responseFormat = decodeResponseFormat(body.output_config?.format);
  if (responseFormat) request.responseFormat = responseFormat;
  if (typeof body.metadata?.user_id === 'string' && body.metadata.user_id.length > 0) request.user = body.metadata.user_id;
  return request;
}
