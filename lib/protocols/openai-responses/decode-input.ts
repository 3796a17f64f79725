/**
 * Responses `input` (a string or items) → canonical messages, consecutive items of one role merged into one message.
 */
import { appendAll } from '../../arrays';
import type {
  ContentPart,
  ImagePart,
  Message,
  ReasoningPart,
  Role,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';
import { signatureMetadata, splitToolId } from '../shared/signature-carrier';
import { invalidField } from '../shared/validate';
import { customToolArguments, namespacedName, opaqueItem, RESPONSES } from '../../wire/openai/responses-extensions';
import { decodeContent, decodeFile, decodeImage } from './decode-content';
import { fromEncryptedContent } from './encrypted-content';
import { compactionMessage } from './compaction-input';
import type { RawItem, RawPart } from './schema';
import { extensionOf, unmodelledFields, withUnmodelled } from './unmodelled';

/** `id` and `status` of an item are the state of an earlier answer, which no upstream needs back. */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set(['type', 'role', 'content', 'id', 'status']);
const CALL_FIELDS: ReadonlySet<string> = new Set(['type', 'call_id', 'name', 'arguments', 'namespace', 'status']);
const CUSTOM_CALL_FIELDS: ReadonlySet<string> = new Set(['call_id', 'name', 'input', 'namespace', 'status']);
const OUTPUT_FIELDS: ReadonlySet<string> = new Set(['type', 'call_id', 'output', 'status']);
const CUSTOM_OUTPUT_FIELDS: ReadonlySet<string> = new Set(['call_id', 'output', 'status']);
const REASONING_FIELDS: ReadonlySet<string> = new Set(['type', 'summary', 'content', 'encrypted_content', 'status']);

const ROLES: Readonly<Record<string, Role>> = {
  user: 'user',
  assistant: 'assistant',
  system: 'system',
  developer: 'system',
};

function requiredString(item: RawItem, field: string, at: string): string {
  const value = item[field];
  if (typeof value !== 'string' || value.length === 0) invalidField(`${at}.${field}`, 'is required');
  return value;
}

/** A message item; `developer` and `system` are both canonical system messages. */
function decodeMessageItem(item: RawItem, at: string): { role: Role; parts: ContentPart[]; extension?: JsonObject } {
  const role = typeof item.role === 'string' ? ROLES[item.role] : undefined;
  if (!role) invalidField(`${at}.role`, "must be one of 'user', 'assistant', 'system', 'developer'");
  const parts = decodeContent(item.content, `${at}.content`);
  if (role === 'system') {
    parts.forEach((part, index) => {
      if (part.type !== 'text') invalidField(`${at}.content[${index}].type`, 'must be text in this role');
    });
  }
  if (role === 'assistant') {
    parts.forEach((part, index) => {
      if (part.type !== 'text')
        invalidField(`${at}.content[${index}].type`, 'must be output_text or refusal in this role');
    });
  }
  let extension = unmodelledFields(item, MESSAGE_FIELDS);
  // A system item keeps its wire role, so a Responses upstream gets it back as that item.
  if (role === 'system') extension = { ...extension, role: item.role as 'developer' | 'system' };
  return extension ? { role, parts, extension } : { role, parts };
}

/** The canonical name of a call to `name` (in `namespace`, when given). */
function callName(item: RawItem, at: string): string {
  const name = requiredString(item, 'name', at);
  if (item.namespace === undefined || item.namespace === null) return name;
  if (typeof item.namespace !== 'string' || item.namespace.length === 0)
    invalidField(`${at}.namespace`, 'must be a non-empty string');
  return namespacedName(item.namespace, name);
}

/**
 * A `function_call` or `custom_tool_call`: a tool call; a vendor signature the gateway put in its `call_id` comes back
 * as metadata.
 */
function decodeCall(item: RawItem, at: string): ToolCallPart {
  const custom = item.type === 'custom_tool_call';
  const { id, carried } = splitToolId(requiredString(item, 'call_id', at));
  const name = callName(item, at);
  let args: string;
  if (custom) {
    if (typeof item.input !== 'string') invalidField(`${at}.input`, 'must be a string');
    args = customToolArguments(item.input);
  } else {
    if (item.arguments !== undefined && typeof item.arguments !== 'string')
      invalidField(`${at}.arguments`, 'must be a string of JSON');
    args = (item.arguments as string | undefined) ?? '';
  }
  const extension = custom ? withUnmodelled(item, CUSTOM_CALL_FIELDS) : withUnmodelled(item, CALL_FIELDS);
  return { type: 'tool-call', id, name, arguments: args, ...signatureMetadata(carried), ...extension };
}

/** A tool output's parts: text and images (a canonical tool result holds no files). */
function decodeOutput(output: unknown, at: string): Array<TextPart | ImagePart> {
  if (typeof output === 'string') return output.length > 0 ? [{ type: 'text', text: output }] : [];
  if (!Array.isArray(output)) return invalidField(at, 'must be a string or an array of parts');
  return output.map((raw: RawPart, index) => {
    const where = `${at}[${index}]`;
    if (!isJsonObject(raw)) return invalidField(where, 'must be an object');
    if (raw.type === 'input_text' || raw.type === 'output_text') {
      if (typeof raw.text !== 'string') invalidField(`${where}.text`, 'must be a string');
      return { type: 'text' as const, text: raw.text };
    }
    if (raw.type === 'input_image') return decodeImage(raw, where);
    if (raw.type === 'input_file') {
      decodeFile(raw, where);
      return invalidField(
        `${where}.type`,
        "'input_file' in a tool output is not supported by this gateway; send the file in a user message",
      );
    }
    return invalidField(`${where}.type`, `'${String(raw.type)}' is not a known tool output part type`);
  });
}

/** A `function_call_output` or `custom_tool_call_output`: a tool result. */
function decodeCallOutput(item: RawItem, at: string): ToolResultPart {
  const custom = item.type === 'custom_tool_call_output';
  const { id } = splitToolId(requiredString(item, 'call_id', at));
  if (item.output === undefined || item.output === null) invalidField(`${at}.output`, 'is required');
  const content = decodeOutput(item.output, `${at}.output`);
  const extension = custom ? withUnmodelled(item, CUSTOM_OUTPUT_FIELDS) : withUnmodelled(item, OUTPUT_FIELDS);
  return { type: 'tool-result', toolCallId: id, content, ...extension };
}

/** The text of a reasoning item: its raw reasoning (`content`) when sent, else its summaries. */
function reasoningText(item: RawItem, at: string): string {
  const texts = (list: unknown, field: string): string[] => {
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) return invalidField(`${at}.${field}`, 'must be an array');
    return list.map((entry: unknown, index) => {
      if (!isJsonObject(entry) || typeof entry.text !== 'string')
        return invalidField(`${at}.${field}[${index}].text`, 'must be a string');
      return entry.text;
    });
  };
  const content = texts(item.content, 'content');
  return (content.length > 0 ? content : texts(item.summary, 'summary')).join('\n\n');
}

/**
 * A `reasoning` item: reasoning text, its `encrypted_content` back as the vendor's signature, its id in the extension.
 */
function decodeReasoning(item: RawItem, at: string): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', text: reasoningText(item, at) };
  const encrypted = item.encrypted_content;
  if (typeof encrypted === 'string' && encrypted.length > 0) Object.assign(part, fromEncryptedContent(encrypted));
  const extra = unmodelledFields(item, REASONING_FIELDS);
  if (extra) part.extensions = { [RESPONSES]: { ...part.extensions?.[RESPONSES], ...extra } };
  return part;
}

type Decoded = { role: Role; parts: ContentPart[]; extension?: JsonObject } | { opaque: JsonObject };

/** One item → the role it belongs to and its parts, or an item no canonical part models. */
function decodeItem(item: RawItem, at: string): Decoded {
  if (!isJsonObject(item)) invalidField(at, 'must be an object');
  switch (item.type ?? 'message') {
    case 'message':
      return decodeMessageItem(item, at);
    case 'function_call':
    case 'custom_tool_call':
      return { role: 'assistant', parts: [decodeCall(item, at)] };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'tool', parts: [decodeCallOutput(item, at)] };
    case 'reasoning':
      return { role: 'assistant', parts: [decodeReasoning(item, at)] };
    case 'compaction':
    case 'compaction_summary':
    case 'context_compaction': {
      // The gateway's own compaction is its summary again, for any upstream; an upstream's own rides on as it came.
      const summary = compactionMessage(item, at);
      if (summary) return { role: 'user', parts: [summary] };
      return { opaque: item };
    }
    case 'item_reference':
      // Resolved before decoding (the pipeline's response-state step) where the gateway has a response store.
      if (typeof item.id !== 'string' || item.id.length === 0) invalidField(`${at}.id`, 'is required');
      return invalidField(
        `${at}.type`,
        "'item_reference' names an item of a stored response, which this gateway resolves only for POST /v1/responses with a responseStore configured: send the item itself instead, or configure a responseStore",
      );
    default:
      // A built-in tool's call or output from an earlier answer (web_search_call, mcp_call, …): no canonical part
      // models it; it rides where it stood, for a Responses upstream (every other drops it with a warning).
      if (typeof item.type !== 'string' || item.type.length === 0) invalidField(`${at}.type`, 'must be a string');
      return { opaque: item };
  }
}

/** Keeps `item` at the end of `message` (after its parts so far). */
function keepOpaque(message: Message, item: JsonObject): void {
  (message.opaque ??= []).push(opaqueItem(message.content.length, item));
}

/**
 * The conversation: `instructions` first as a system message (marked as such in its extension, so
 * the echo and a Responses upstream give it back as `instructions`), then the items in order: each
 * user or system item a message of its own, each run of consecutive assistant items (text,
 * reasoning, calls) or tool outputs merged into one message.
 */
export function decodeInput(input: string | RawItem[] | undefined, instructions: string | null | undefined): Message[] {
  const messages: Message[] = [];
  if (typeof instructions === 'string' && instructions.length > 0)
    messages.push({
      role: 'system',
      content: [{ type: 'text', text: instructions }],
      extensions: { [RESPONSES]: { instructions: true } },
    });
  if (input === undefined) return messages;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: input }] });
    return messages;
  }
  let last: Message | undefined;
  // Items no canonical part models that came before any message wait for the first one.
  let leading: JsonObject[] | undefined;
  input.forEach((item, index) => {
    const decoded = decodeItem(item, `input[${index}]`);
    if ('opaque' in decoded) {
      if (last) keepOpaque(last, decoded.opaque);
      else (leading ??= []).push(decoded.opaque);
      return;
    }
    // Assistant items (text, reasoning, calls) and tool outputs join one turn; each user or system
    // item stays its own message, so a Responses upstream gets the items as they were sent.
    if (last && last.role === decoded.role && (decoded.role === 'assistant' || decoded.role === 'tool')) {
      appendAll(last.content, decoded.parts);
      if (decoded.extension)
        last.extensions = { [RESPONSES]: { ...last.extensions?.[RESPONSES], ...decoded.extension } };
      return;
    }
    last = { role: decoded.role, content: decoded.parts, ...extensionOf(decoded.extension) };
    if (leading) {
      last.opaque = leading.map((opaque) => opaqueItem(0, opaque));
      leading = undefined;
    }
    messages.push(last);
  });
  // An input of such items alone (an `mcp_approval_response` continuing a stored answer): a turn with no parts.
  if (leading) messages.push({ role: 'user', content: [], opaque: leading.map((opaque) => opaqueItem(0, opaque)) });
  return messages;
}
