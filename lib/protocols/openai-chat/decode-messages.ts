/**
 * Chat-completions messages → canonical messages, each object's unmodelled fields in its `extensions['openai-chat']`.
 */
import type { CacheControl, ContentPart, Extensions, Message, TextPart } from '../../canonical';
import { unmodelledFields, type JsonObject } from '../../json';
import { liftCacheControl } from '../../wire/cache-control';
import { sourceFromUrl } from '../../wire/media';
import { chatExtensions, type ChatMessageExtension, type ChatPartExtension } from '../../wire/openai/extensions';
import { signatureMetadata, splitToolId } from '../shared/signature-carrier';
import { invalidField } from '../shared/validate';
import { extraContentWithoutCarriers, toolCallSignature } from './signature-carriers';
import type { ChatCompletionBody } from './schema';

type RawMessage = ChatCompletionBody['messages'][number];
type RawPart = Record<string, unknown> & { type: string };

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
const TEXT_PART = set('type', 'text');
const IMAGE_PART = set('type', 'image_url');
const FILE_PART = set('type', 'file');
const TOOL_CALL = set('id', 'type', 'function', 'extra_content');
const SYSTEM_MESSAGE = set('role', 'content', 'name');
const USER_MESSAGE = SYSTEM_MESSAGE;
/** `refusal` is modelled when it holds text; a `null` one (as the SDKs echo an answer back) stays a field. */
const ASSISTANT_MESSAGE = set('role', 'content', 'name', 'refusal', 'tool_calls');
const ASSISTANT_MESSAGE_WITHOUT_REFUSAL = set('role', 'content', 'name', 'tool_calls');
const TOOL_MESSAGE = set('role', 'content', 'name', 'tool_call_id');

/**
 * `{extensions}` holding a part's unmodelled fields, and its `cache_control` (the OpenRouter and
 * LiteLLM convention) as the canonical breakpoint; nothing when it has neither.
 */
function partExtensions(
  raw: JsonObject,
  modelled: ReadonlySet<string>,
): { extensions?: Extensions; cacheControl?: CacheControl } {
  const { cacheControl, fields } = liftCacheControl(unmodelledFields(raw, modelled));
  return {
    ...(fields ? { extensions: chatExtensions({ fields } satisfies ChatPartExtension) } : {}),
    ...(cacheControl ? { cacheControl } : {}),
  };
}

function decodePart(raw: RawPart, at: string): ContentPart {
  switch (raw.type) {
    case 'text':
      if (typeof raw.text !== 'string') invalidField(`${at}.text`, 'must be a string');
      return { type: 'text', text: raw.text, ...partExtensions(raw, TEXT_PART) };
    case 'image_url': {
      const image = raw.image_url as { url: string; detail?: string } | undefined;
      if (!image) invalidField(`${at}.image_url`, 'is required');
      const source = sourceFromUrl(image.url);
      if (!source) invalidField(`${at}.image_url.url`, 'is not a valid URL or base64 data URL');
      return {
        type: 'image',
        source,
        ...(image.detail ? { detail: image.detail } : {}),
        ...partExtensions(raw, IMAGE_PART),
      };
    }
    case 'file': {
      const file = raw.file as { file_data?: string; file_id?: string; filename?: string } | undefined;
      if (typeof file?.file_data !== 'string')
        invalidField(`${at}.file.file_data`, 'is required (uploaded file ids are not supported by this gateway)');
      const parsed = file.file_data.startsWith('data:') ? sourceFromUrl(file.file_data) : undefined;
      const source =
        parsed?.kind === 'base64'
          ? parsed
          : { kind: 'base64' as const, mediaType: 'application/pdf', data: file.file_data };
      return {
        type: 'file',
        source,
        ...(file.filename ? { filename: file.filename } : {}),
        ...partExtensions(raw, FILE_PART),
      };
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
  return parts.map((part, index) =>
    part.type === 'text' ? part : invalidField(`${at}[${index}].type`, 'must be text in this role'),
  );
}

/**
 * Assistant tool calls; a vendor signature the caller echoed (in the id or `extra_content`) goes
 * into the call's metadata, and out of what the call's extension keeps.
 */
function decodeToolCalls(raw: unknown, at: string): ContentPart[] {
  if (!Array.isArray(raw)) return [];
  return raw.map(
    (call: Record<string, unknown> & { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, index) => {
      const where = `${at}[${index}]`;
      if (typeof call?.function?.name !== 'string') invalidField(`${where}.function.name`, 'is required');
      if (typeof call.id !== 'string' || call.id.length === 0) invalidField(`${where}.id`, 'is required');
      const args = call.function.arguments;
      if (args !== undefined && typeof args !== 'string')
        invalidField(`${where}.function.arguments`, 'must be a string of JSON');
      const { id, carried } = toolCallSignature(call.id, call);
      let fields = unmodelledFields(call, TOOL_CALL);
      const extra = call.extra_content === undefined ? undefined : extraContentWithoutCarriers(call.extra_content);
      if (extra !== undefined) (fields ??= {}).extra_content = extra;
      return {
        type: 'tool-call' as const,
        id,
        name: call.function.name,
        arguments: args ?? '',
        ...signatureMetadata(carried),
        ...(fields ? { extensions: chatExtensions({ fields } satisfies ChatPartExtension) } : {}),
      };
    },
  );
}

/**
 * The message's extension: its unmodelled fields, the wire role where the canonical one does not
 * say it, and whether text-only content came as an array. Nothing when there is none of these.
 */
function withExtension(
  message: Message,
  raw: RawMessage,
  modelled: ReadonlySet<string>,
  role?: ChatMessageExtension['role'],
): Message {
  const fields = unmodelledFields(raw, modelled);
  const contentArray =
    Array.isArray(raw.content) &&
    message.content.every((part) => part.type === 'text' || part.type === 'tool-call' || part.type === 'tool-result');
  if (!fields && !role && !contentArray) return message;
  const extension: ChatMessageExtension = {};
  if (fields) extension.fields = fields;
  if (role) extension.role = role;
  if (contentArray) extension.contentArray = true;
  message.extensions = chatExtensions(extension);
  return message;
}

function decodeMessage(raw: RawMessage, at: string): Message {
  const name = typeof raw.name === 'string' ? { name: raw.name } : {};
  switch (raw.role) {
    case 'system':
    case 'developer':
      return withExtension(
        { role: 'system', content: textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`), ...name },
        raw,
        SYSTEM_MESSAGE,
        raw.role,
      );
    case 'user':
      if (raw.content === null || raw.content === undefined) invalidField(`${at}.content`, 'is required');
      return withExtension(
        { role: 'user', content: decodeContent(raw.content, `${at}.content`), ...name },
        raw,
        USER_MESSAGE,
      );
    case 'assistant': {
      const content = decodeContent(raw.content, `${at}.content`).filter(
        (part) => part.type === 'text' || invalidField(`${at}.content`, 'must be text in this role'),
      );
      const refused = typeof raw.refusal === 'string' && raw.refusal.length > 0;
      const refusal: TextPart[] = refused
        ? [
            {
              type: 'text',
              text: raw.refusal as string,
              extensions: chatExtensions({ refusal: true } satisfies ChatPartExtension),
            },
          ]
        : [];
      const modelled = refused ? ASSISTANT_MESSAGE : ASSISTANT_MESSAGE_WITHOUT_REFUSAL;
      return withExtension(
        {
          role: 'assistant',
          content: [...content, ...refusal, ...decodeToolCalls(raw.tool_calls, `${at}.tool_calls`)],
          ...name,
        },
        raw,
        modelled,
      );
    }
    case 'tool': {
      if (typeof raw.tool_call_id !== 'string') invalidField(`${at}.tool_call_id`, 'is required');
      const content = textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`);
      return withExtension(
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: splitToolId(raw.tool_call_id).id, content }],
          ...name,
        },
        raw,
        TOOL_MESSAGE,
      );
    }
    default: {
      // The legacy `function` role: a result matched by function name.
      if (typeof raw.name !== 'string') invalidField(`${at}.name`, 'is required for role function');
      const content = textOnly(decodeContent(raw.content, `${at}.content`), `${at}.content`);
      return withExtension(
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: raw.name, toolName: raw.name, content }] },
        raw,
        SYSTEM_MESSAGE,
        'function',
      );
    }
  }
}

/** Every message, in order. */
export function decodeChatMessages(messages: ChatCompletionBody['messages']): Message[] {
  return messages.map((message, index) => decodeMessage(message, `messages[${index}]`));
}
