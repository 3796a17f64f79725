/** Chat-completions request body → canonical GenerateRequest. */
import type { ContentPart, GenerateRequest, Message, ReasoningEffort, ResponseFormat, TextPart, ToolChoice, ToolDefinition } from '../../canonical';
import { sourceFromUrl } from '../../wire/media';
import { signatureMetadata, splitToolId } from '../shared/signature-carrier';
import { invalidField } from '../shared/validate';
import { validateChatCompletionBody, type ChatCompletionBody } from './schema';
import { toolCallSignature, withoutSignatureCarriers } from './signature-carriers';

type RawMessage = ChatCompletionBody['messages'][number];
type RawPart = Record<string, unknown> & { type: string };

function decodePart(raw: RawPart, at: string): ContentPart {
  switch (raw.type) {
    case 'text':
      if (typeof raw.text !== 'string') invalidField(`${at}.text`, 'must be a string');
      return { type: 'text', text: raw.text };
    case 'image_url': {
      const image = raw.image_url as { url: string; detail?: string } | undefined;
      if (!image) invalidField(`${at}.image_url`, 'is required');
      const source = sourceFromUrl(image.url);
      if (!source) invalidField(`${at}.image_url.url`, 'is not a valid URL or base64 data URL');
      return { type: 'image', source, ...(image.detail ? { detail: image.detail } : {}) };
    }
    case 'file': {
      const file = raw.file as { file_data?: string; file_id?: string; filename?: string } | undefined;
      if (typeof file?.file_data !== 'string') invalidField(`${at}.file.file_data`, 'is required (uploaded file ids are not supported by this gateway)');
      const parsed = file.file_data.startsWith('data:') ? sourceFromUrl(file.file_data) : undefined;
      const source = parsed?.kind === 'base64' ? parsed : { kind: 'base64' as const, mediaType: 'application/pdf', data: file.file_data };
      return { type: 'file', source, ...(file.filename ? { filename: file.filename } : {}) };
    }
    case 'input_audio':
      return invalidField(`${at}.type`, "'input_audio' is not supported by this gateway");
    default:
      return invalidField(`${at}.type`, `'${raw.type}' is not a known content part type`);
  }
}

function decodeContent(content: unknown, at: string): ContentPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  return (content as RawPart[]).map((part, index) => decodePart(part, `${at}[${index}]`));
}

function textOnly(parts: ContentPart[], at: string): TextPart[] {
  return parts.map((part, index) => (part.type === 'text' ? part : invalidField(`${at}[${index}].type`, 'must be text in this role')));
}

/** Assistant tool calls; a vendor signature the caller echoed (in the id or `extra_content`) goes back into the call's metadata. */
function decodeToolCalls(raw: unknown, at: string): ContentPart[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((call: Record<string, unknown> & { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, index) => {
    const where = `${at}[${index}]`;
    if (typeof call?.function?.name !== 'string') invalidField(`${where}.function.name`, 'is required');
    if (typeof call.id !== 'string' || call.id.length === 0) invalidField(`${where}.id`, 'is required');
    const args = call.function.arguments;
    if (args !== undefined && typeof args !== 'string') invalidField(`${where}.function.arguments`, 'must be a string of JSON');
    const { id, carried } = toolCallSignature(call.id, call);
    return { type: 'tool-call' as const, id, name: call.function.name, arguments: args ?? '', ...signatureMetadata(carried) };
  });
}

function decodeMessage(raw: RawMessage, at: string): Message {
  const name = typeof raw.name === 'string' ? { name: raw.name } : {};
  switch (raw.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`), ...name };
    case 'user':
      if (raw.content === null || raw.content === undefined) invalidField(`${at}.content`, 'is required');
      return { role: 'user', content: decodeContent(raw.content, `${at}.content`), ...name };
    case 'assistant': {
      const content = decodeContent(raw.content, `${at}.content`).filter((part) => part.type === 'text' || invalidField(`${at}.content`, 'must be text in this role'));
      const refusal = typeof raw.refusal === 'string' && raw.refusal.length > 0 ? [{ type: 'text' as const, text: raw.refusal }] : [];
      return { role: 'assistant', content: [...content, ...refusal, ...decodeToolCalls(raw.tool_calls, `${at}.tool_calls`)], ...name };
    }
    case 'tool': {
      if (typeof raw.tool_call_id !== 'string') invalidField(`${at}.tool_call_id`, 'is required');
      const content = textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`);
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: splitToolId(raw.tool_call_id).id, content }] };
    }
    default: {
      // The legacy `function` role: a result matched by function name.
      if (typeof raw.name !== 'string') invalidField(`${at}.name`, 'is required for role function');
      const content = textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`);
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: raw.name, toolName: raw.name, content }] };
    }
  }
}

function decodeTools(tools: ChatCompletionBody['tools']): ToolDefinition[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool, index) => {
    if (tool.type !== 'function' || !tool.function) invalidField(`tools[${index}].type`, `'${tool.type}' tools are not supported; use 'function'`);
    const fn = tool.function;
    return {
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      parameters: fn.parameters ?? { type: 'object', properties: {} },
      ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}),
    };
  });
}

function decodeToolChoice(choice: ChatCompletionBody['tool_choice']): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (typeof choice === 'object' && choice.type === 'function' && typeof choice.function?.name === 'string') return { type: 'tool', name: choice.function.name };
  return invalidField('tool_choice', "must be 'auto', 'none', 'required' or {type: 'function', function: {name}}");
}

function decodeResponseFormat(format: ChatCompletionBody['response_format']): ResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type === 'json_schema') {
    const spec = format.json_schema;
    if (!spec?.schema) invalidField('response_format.json_schema.schema', 'is required');
    return { type: 'json-schema', schema: spec.schema, ...(spec.name ? { name: spec.name } : {}), ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}) };
  }
  return { type: 'text' };
}

/**
 * Validates the body and decodes it; throws a 400 `GatewayError` naming the first bad field.
 * Vendor signatures carried in tool-call ids are recovered and cleaned out of the ids, here and in `origin.body`.
 */
export function decodeChatRequest(body: unknown, headers: Record<string, string | string[] | undefined>): GenerateRequest {
  validateChatCompletionBody(body);
  const stop = body.stop === null || body.stop === undefined ? undefined : typeof body.stop === 'string' ? [body.stop] : body.stop;
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const effort = body.reasoning_effort ?? undefined;
  const request: GenerateRequest = {
    model: body.model,
    messages: body.messages.map((message, index) => decodeMessage(message, `messages[${index}]`)),
    stream: body.stream === true,
    origin: { protocol: 'openai-chat', body: withoutSignatureCarriers(body) as unknown as Record<string, unknown>, headers },
  };
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  if (body.temperature !== null && body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== null && body.top_p !== undefined) request.topP = body.top_p;
  if (stop?.length) request.stopSequences = stop;
  if (body.n !== null && body.n !== undefined) request.choiceCount = body.n;
  const tools = decodeTools(body.tools);
  if (tools) request.tools = tools;
  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice) request.toolChoice = toolChoice;
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  if (effort) request.reasoning = { enabled: effort !== 'none', effort: effort as ReasoningEffort };
  const responseFormat = decodeResponseFormat(body.response_format);
  if (responseFormat) request.responseFormat = responseFormat;
  if (body.seed !== null && body.seed !== undefined) request.seed = body.seed;
  const user = body.safety_identifier ?? body.user;
  if (user) request.user = user;
  return request;
}
