/** Canonical GenerateRequest → an OpenAI chat-completions request body (with same-protocol pass-through). */
import type { ContentPart, GenerateRequest, Message, ToolChoice } from '../../canonical';
import { GatewayError } from '../../errors';
import { sourceToUrl } from '../../protocols/shared/media';

/** Which field carries the output cap: OpenAI's reasoning models need `max_completion_tokens`; many compatible servers only know `max_tokens`. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

type ChatMessage = Record<string, unknown>;

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

function encodeUserContent(parts: readonly ContentPart[], at: string): string | Array<Record<string, unknown>> {
  if (parts.every((part) => part.type === 'text')) return textOf(parts);
  return parts.map((part, index) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image_url', image_url: { url: sourceToUrl(part.source), ...(part.detail ? { detail: part.detail } : {}) } };
      case 'file':
        if (part.source.kind !== 'base64') throw new GatewayError('invalid_request', `${at}[${index}]: this upstream takes files inline (base64) only, not by URL.`, { param: at });
        return { type: 'file', file: { file_data: sourceToUrl(part.source), ...(part.filename ? { filename: part.filename } : {}) } };
      default:
        throw new GatewayError('invalid_request', `${at}[${index}]: a ${part.type} part cannot be sent in a user turn.`, { param: at });
    }
  });
}

function encodeMessage(message: Message, index: number): ChatMessage[] {
  const at = `messages[${index}].content`;
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: textOf(message.content) }];
    case 'user':
      return [{ role: 'user', content: encodeUserContent(message.content, at), ...(message.name ? { name: message.name } : {}) }];
    case 'assistant': {
      const text = textOf(message.content);
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool-call' ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments || '{}' } }] : [],
      );
      return [{ role: 'assistant', content: text.length > 0 || toolCalls.length === 0 ? text : null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
    }
    case 'tool':
      return message.content.flatMap((part) => {
        if (part.type !== 'tool-result') return [];
        const images = part.content.filter((inner) => inner.type === 'image');
        if (images.length > 0) throw new GatewayError('invalid_request', `${at}: this upstream cannot take images inside a tool result.`, { param: at });
        const text = textOf(part.content);
        return [{ role: 'tool', tool_call_id: part.toolCallId, content: part.isError ? `Error: ${text}` : text }];
      });
  }
}

function encodeToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

/** Fields the gateway sets itself, whatever the caller sent. */
function controlledFields(request: GenerateRequest, upstreamModel: string, maxTokensField: MaxTokensField, stream: boolean): Record<string, unknown> {
  return {
    model: upstreamModel,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    ...(request.maxOutputTokens !== undefined ? { [maxTokensField]: request.maxOutputTokens } : {}),
  };
}

/**
 * Builds the upstream body. When the caller spoke chat completions too, its own body is the
 * starting point, so fields the gateway does not model (logprobs, penalties, metadata, …) pass
 * through unchanged; the model, stream flags and output cap are always the gateway's.
 */
export function encodeChatRequest(request: GenerateRequest, upstreamModel: string, options: { maxTokensField: MaxTokensField; stream: boolean }): Record<string, unknown> {
  if (request.origin?.protocol === 'openai-chat') {
    const { max_tokens: _legacy, max_completion_tokens: _cap, stream_options: _options, ...rest } = request.origin.body;
    const field: MaxTokensField = 'max_completion_tokens' in request.origin.body ? 'max_completion_tokens' : 'max_tokens' in request.origin.body ? 'max_tokens' : options.maxTokensField;
    return { ...rest, ...controlledFields(request, upstreamModel, field, options.stream) };
  }
  const body: Record<string, unknown> = {
    messages: request.messages.flatMap(encodeMessage),
    ...controlledFields(request, upstreamModel, options.maxTokensField, options.stream),
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences?.length) body.stop = request.stopSequences.slice(0, 4);
  if (request.choiceCount !== undefined && request.choiceCount !== 1) body.n = request.choiceCount;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.user !== undefined) body.user = request.user;
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters, ...(tool.strict !== undefined ? { strict: tool.strict } : {}) },
    }));
  }
  if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined && request.tools?.length) body.parallel_tool_calls = request.parallelToolCalls;
  // Reasoning settings from another protocol are not translated yet (models without reasoning
  // reject `reasoning_effort`); same-protocol callers keep theirs through the pass-through above.
  if (request.responseFormat?.type === 'json') body.response_format = { type: 'json_object' };
  if (request.responseFormat?.type === 'json-schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.responseFormat.name ?? 'response', schema: request.responseFormat.schema, ...(request.responseFormat.strict !== undefined ? { strict: request.responseFormat.strict } : {}) },
    };
  }
  return body;
}
