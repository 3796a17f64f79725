/** Gemini `contents` and `systemInstruction` → canonical messages; function responses become `tool` messages. */
import type { ContentPart, Extensions, Message, ProviderMetadata, TextPart, ToolResultPart } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import { logCodec } from './log';
import {
  extensionOf,
  modelledKeys,
  withChild,
  withGeminiExtension,
  type GeminiExtension,
  type GeminiMessageExtension,
  type GeminiPartExtension,
} from '../../wire/gemini/extensions';
import type { GenerateContentBody, RawBlob, RawContent, RawFunctionCall, RawFunctionResponse, RawPart } from './schema';
import { thoughtSignatureMetadata } from './thought-signature';

const PAYLOADS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;
const UNSUPPORTED_PAYLOADS = ['executableCode', 'codeExecutionResult'] as const;

type Turn = 'user' | 'model';

const PART_KEYS = modelledKeys(['text', 'thought', 'thoughtSignature', ...PAYLOADS]);
const SYSTEM_PART_KEYS = modelledKeys(['text']);
const CONTENT_KEYS = modelledKeys(['role', 'parts']);
const SYSTEM_KEYS = modelledKeys(['parts']);
const IMAGE_BLOB_KEYS = modelledKeys(['mimeType', 'data']);
const FILE_BLOB_KEYS = modelledKeys(['mimeType', 'data', 'displayName']);
const IMAGE_URI_KEYS = modelledKeys(['fileUri', 'mimeType']);
const FILE_URI_KEYS = modelledKeys(['fileUri', 'mimeType', 'displayName']);
const CALL_KEYS = modelledKeys(['name', 'args', 'id']);
const RESPONSE_KEYS = modelledKeys(['name', 'response', 'id', 'parts']);

/** What a decoded part carries besides its payload: the Gemini signature, and its extension. */
interface PartExtras {
  providerMetadata?: ProviderMetadata;
  extensions?: Extensions;
}

/**
 * A synthesized, stable id for a function call or response that carries none: the same history always yields the same
 * ids.
 */
export function synthesizedCallId(contentIndex: number, partIndex: number): string {
  return `call_${contentIndex}_${partIndex}`;
}

/**
 * Pairs function responses with the calls they answer: by id when the response has one, else by name
 * and order among the calls of the latest model turn (consecutive model contents count as one turn).
 */
class CallLedger {
  /** Per function name, the ids of its calls in order; `head` is the first not yet answered by order. */
  private pending = new Map<string, { ids: string[]; head: number; taken?: Set<string> }>();
  private previous: Turn | undefined;

  enter(turn: Turn): void {
    if (turn === 'model' && this.previous !== 'model') this.pending.clear();
    this.previous = turn;
  }

  called(name: string, id: string): void {
    const queue = this.pending.get(name);
    if (queue) queue.ids.push(id);
    else this.pending.set(name, { ids: [id], head: 0 });
  }

  /** The id a response answers: its own, else the next call of its name not yet answered (each step O(1)). */
  answered(name: string, id: string | undefined): string | undefined {
    const queue = this.pending.get(name);
    if (id !== undefined) {
      if (queue) (queue.taken ??= new Set()).add(id);
      return id;
    }
    if (!queue) return undefined;
    while (queue.head < queue.ids.length) {
      const next = queue.ids[queue.head++]!;
      if (!queue.taken?.has(next)) return next;
    }
    return undefined;
  }
}

/** The part's signature (and a function call's own id, which Gemini wants back) as metadata (./thought-signature.ts). */
function signatureMetadata(part: RawPart, functionCallId?: string): { providerMetadata?: ProviderMetadata } {
  return thoughtSignatureMetadata(field<string>(part, 'thoughtSignature'), functionCallId);
}

/** The metadata and extension of a part: its own unmodelled keys, its payload's (`child`), and the flags given. */
function partExtras(
  part: RawPart,
  metadata: { providerMetadata?: ProviderMetadata },
  payload: string | undefined,
  child: GeminiExtension | undefined,
  flags?: GeminiPartExtension,
): PartExtras {
  let extension: GeminiPartExtension | undefined = extensionOf(part, PART_KEYS);
  if (payload) extension = withChild(extension, payload, child);
  if (flags) extension = { ...extension, ...flags };
  return { ...metadata, ...withGeminiExtension(extension) };
}

function payloadOf(part: RawPart, at: string): (typeof PAYLOADS)[number] | undefined {
  const present = PAYLOADS.filter((name) => field(part, name) !== undefined);
  if (present.length > 1)
    invalidField(at, `must hold exactly one of ${PAYLOADS.join(', ')}, not ${present.join(' and ')}`);
  if (present.length === 1) return present[0];
  const unsupported = UNSUPPORTED_PAYLOADS.find((name) => field(part, name) !== undefined);
  if (unsupported) invalidField(`${at}.${keyOf(part, unsupported)}`, 'is not supported by this gateway');
  if (field(part, 'thoughtSignature') !== undefined) return undefined;
  return invalidField(at, `must hold one of ${PAYLOADS.join(', ')}`);
}

/** `contents[0].parts[1].inline_data` → `inline_data`. */
function lastKey(at: string): string {
  return at.slice(at.lastIndexOf('.') + 1);
}

/**
 * `inlineData` as an image or file part; `extras` makes the part's extras from the blob's own extension (undefined
 * inside a function response).
 */
function decodeInlineData(
  blob: RawBlob,
  at: string,
  extras?: (child: GeminiExtension | undefined) => PartExtras,
): ContentPart {
  const mediaType = field<string>(blob, 'mimeType');
  const data = field<string>(blob, 'data');
  if (!mediaType) invalidField(`${at}.${keyOf(blob, 'mimeType', lastKey(at))}`, 'is required');
  if (data === undefined) invalidField(`${at}.data`, 'is required');
  const source = { kind: 'base64' as const, mediaType, data };
  if (mediaType.toLowerCase().startsWith('image/'))
    return { type: 'image', source, ...extras?.(extensionOf(blob, IMAGE_BLOB_KEYS)) };
  const filename = field<string>(blob, 'displayName');
  return { type: 'file', source, ...(filename ? { filename } : {}), ...extras?.(extensionOf(blob, FILE_BLOB_KEYS)) };
}

/** `fileData` as an image or file part by URL, its URI kept as it is for a Gemini upstream. */
function decodeFileData(
  file: RawBlob,
  at: string,
  extras: (child: GeminiExtension | undefined, flags: GeminiPartExtension) => PartExtras,
): ContentPart {
  const url = field<string>(file, 'fileUri');
  if (!url) invalidField(`${at}.${keyOf(file, 'fileUri', lastKey(at))}`, 'is required');
  const mediaType = field<string>(file, 'mimeType');
  const source = { kind: 'url' as const, url, ...(mediaType ? { mediaType } : {}) };
  if (mediaType?.toLowerCase().startsWith('image/'))
    return { type: 'image', source, ...extras(extensionOf(file, IMAGE_URI_KEYS), { keepUri: true }) };
  const filename = field<string>(file, 'displayName');
  return {
    type: 'file',
    source,
    ...(filename ? { filename } : {}),
    ...extras(extensionOf(file, FILE_URI_KEYS), { keepUri: true }),
  };
}

function decodeFunctionResponse(
  response: RawFunctionResponse,
  at: string,
  fallbackId: string,
  ledger: CallLedger,
  extras: PartExtras,
): ToolResultPart {
  const matched = ledger.answered(response.name, response.id);
  if (matched === undefined)
    logCodec('%s: no earlier functionCall named %s; using id %s', at, response.name, fallbackId);
  const toolCallId = matched ?? fallbackId;
  const payload = response.response ?? {};
  const content: ToolResultPart['content'] = [{ type: 'text', text: JSON.stringify(payload) }];
  (response.parts ?? []).forEach((inner, index) => {
    const where = `${at}.parts[${index}]`;
    const blob = field<RawBlob>(inner, 'inlineData');
    if (!blob) invalidField(where, 'must hold inlineData');
    const blobAt = `${where}.${keyOf(inner, 'inlineData')}`;
    const decoded = decodeInlineData(blob, blobAt);
    if (decoded.type !== 'image')
      invalidField(`${blobAt}.${keyOf(blob, 'mimeType')}`, 'must be an image type inside a function response');
    content.push(decoded);
  });
  const isError = 'error' in payload && !('output' in payload);
  return {
    type: 'tool-result',
    toolCallId,
    toolName: response.name,
    content,
    ...(isError ? { isError } : {}),
    ...extras,
  };
}

/**
 * The extension of the first message a content decodes to: the content's unmodelled keys, a missing role, a content
 * kept apart from the previous one of its role.
 */
function contentExtension(content: RawContent, previous: Turn | undefined, turn: Turn): Extensions | undefined {
  let extension: GeminiMessageExtension | undefined = extensionOf(
    content as unknown as Record<string, unknown>,
    CONTENT_KEYS,
  );
  if (content.role === undefined) extension = { ...extension, roleOmitted: true };
  if (previous === turn) extension = { ...extension, separate: true };
  return withGeminiExtension(extension).extensions;
}

/** One part as a canonical part (a function response, which becomes a `tool` message, aside). */
function decodePart(
  part: RawPart,
  at: string,
  turn: Turn,
  contentIndex: number,
  partIndex: number,
  ledger: CallLedger,
): ContentPart {
  const payload = payloadOf(part, at);
  const where = payload ? `${at}.${keyOf(part, payload)}` : at;
  switch (payload) {
    case undefined:
      return {
        type: 'text',
        text: '',
        ...partExtras(part, signatureMetadata(part), undefined, undefined, { signatureOnly: true }),
      };
    case 'text': {
      const text = field<string>(part, 'text')!;
      if (turn !== 'model' || field<boolean>(part, 'thought') !== true)
        return { type: 'text', text, ...partExtras(part, signatureMetadata(part), undefined, undefined) };
      const metadata = signatureMetadata(part);
      return {
        type: 'reasoning',
        text,
        ...partExtras(part, metadata, undefined, undefined, metadata.providerMetadata ? undefined : { thought: true }),
      };
    }
    case 'inlineData':
      return decodeInlineData(field<RawBlob>(part, 'inlineData')!, where, (child) =>
        partExtras(part, signatureMetadata(part), payload, child),
      );
    case 'fileData':
      return decodeFileData(field<RawBlob>(part, 'fileData')!, where, (child, flags) =>
        partExtras(part, signatureMetadata(part), payload, child, flags),
      );
    case 'functionCall': {
      if (turn !== 'model') invalidField(where, "must be in a turn with role 'model'");
      const call = field<RawFunctionCall>(part, 'functionCall')!;
      const id = call.id || synthesizedCallId(contentIndex, partIndex);
      ledger.called(call.name, id);
      const extras = partExtras(
        part,
        signatureMetadata(part, call.id || undefined),
        payload,
        extensionOf(call as unknown as RawPart, CALL_KEYS),
      );
      return { type: 'tool-call', id, name: call.name, arguments: JSON.stringify(call.args ?? {}), ...extras };
    }
    case 'functionResponse': {
      if (turn !== 'user') invalidField(where, "must be in a turn with role 'user'");
      const response = field<RawFunctionResponse>(part, 'functionResponse')!;
      const extras = partExtras(
        part,
        signatureMetadata(part),
        payload,
        extensionOf(response as unknown as RawPart, RESPONSE_KEYS),
      );
      return decodeFunctionResponse(response, where, synthesizedCallId(contentIndex, partIndex), ledger, extras);
    }
  }
}

/**
 * Decodes one content into messages: its own turn, split around each function response (which
 * becomes a `tool` message). The first message carries the content's extension.
 */
function decodeContent(
  content: RawContent,
  contentIndex: number,
  ledger: CallLedger,
  previous: Turn | undefined,
): Message[] {
  const turn: Turn = content.role ?? 'user';
  const role = turn === 'model' ? 'assistant' : 'user';
  ledger.enter(turn);
  const messages: Message[] = [];
  let current: ContentPart[] = [];
  const push = (message: Message) => {
    if (messages.length === 0) {
      const extensions = contentExtension(content, previous, turn);
      if (extensions) message.extensions = extensions;
    }
    messages.push(message);
  };
  const flush = () => {
    if (current.length > 0) push({ role, content: current });
    current = [];
  };
  content.parts.forEach((part, partIndex) => {
    const decoded = decodePart(
      part,
      `contents[${contentIndex}].parts[${partIndex}]`,
      turn,
      contentIndex,
      partIndex,
      ledger,
    );
    if (decoded.type !== 'tool-result') {
      current.push(decoded);
      return;
    }
    flush();
    push({ role: 'tool', content: [decoded] });
  });
  flush();
  return messages;
}

function decodeSystemInstruction(body: GenerateContentBody): Message | undefined {
  const instruction = field<{ parts: RawPart[] }>(body, 'systemInstruction');
  if (!instruction) return undefined;
  const at = keyOf(body, 'systemInstruction');
  const content: TextPart[] = instruction.parts.map((part, index) => {
    const text = field<string>(part, 'text');
    if (text === undefined) invalidField(`${at}.parts[${index}]`, 'must be a text part');
    return { type: 'text', text, ...withGeminiExtension(extensionOf(part, SYSTEM_PART_KEYS)) };
  });
  return content.length > 0
    ? { role: 'system', content, ...withGeminiExtension(extensionOf(instruction, SYSTEM_KEYS)) }
    : undefined;
}

/** The system instruction (first, when present) and every content, in order. */
export function decodeMessages(body: GenerateContentBody): Message[] {
  const ledger = new CallLedger();
  const system = decodeSystemInstruction(body);
  let previous: Turn | undefined;
  const messages = body.contents.flatMap((content, index) => {
    const decoded = decodeContent(content, index, ledger, previous);
    previous = content.role ?? 'user';
    return decoded;
  });
  return system ? [system, ...messages] : messages;
}
