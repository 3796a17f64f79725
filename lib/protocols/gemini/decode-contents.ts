/** Gemini `contents` and `systemInstruction` → canonical messages; function responses become `tool` messages. */
import type { ContentPart, Message, ProviderMetadata, TextPart, ToolResultPart } from '../../canonical';
import { invalidField } from '../shared/validate';
import { field, keyOf } from '../../wire/gemini/field-names';
import { logCodec } from './log';
import type { GenerateContentBody, RawBlob, RawContent, RawFunctionCall, RawFunctionResponse, RawPart } from './schema';

const PAYLOADS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;
const UNSUPPORTED_PAYLOADS = ['executableCode', 'codeExecutionResult'] as const;

type Turn = 'user' | 'model';

/** A synthesized, stable id for a function call or response that carries none: the same history always yields the same ids. */
export function synthesizedCallId(contentIndex: number, partIndex: number): string {
  return `call_${contentIndex}_${partIndex}`;
}

/**
 * Pairs function responses with the calls they answer: by id when the response has one, else by name
 * and order among the calls of the latest model turn (consecutive model contents count as one turn).
 */
class CallLedger {
  private pending = new Map<string, string[]>();
  private previous: Turn | undefined;

  enter(turn: Turn): void {
    if (turn === 'model' && this.previous !== 'model') this.pending.clear();
    this.previous = turn;
  }

  called(name: string, id: string): void {
    const ids = this.pending.get(name) ?? [];
    ids.push(id);
    this.pending.set(name, ids);
  }

  answered(name: string, id: string | undefined): string | undefined {
    const ids = this.pending.get(name) ?? [];
    if (id === undefined) return ids.shift();
    const at = ids.indexOf(id);
    if (at !== -1) ids.splice(at, 1);
    return id;
  }
}

function signatureMetadata(part: RawPart): { providerMetadata?: ProviderMetadata } {
  const signature = field<string>(part, 'thoughtSignature');
  return signature ? { providerMetadata: { gemini: { thoughtSignature: signature } } } : {};
}

function payloadOf(part: RawPart, at: string): (typeof PAYLOADS)[number] | undefined {
  const present = PAYLOADS.filter((name) => field(part, name) !== undefined);
  if (present.length > 1) invalidField(at, `must hold exactly one of ${PAYLOADS.join(', ')}, not ${present.join(' and ')}`);
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

function decodeInlineData(blob: RawBlob, at: string, metadata: { providerMetadata?: ProviderMetadata }): ContentPart {
  const mediaType = field<string>(blob, 'mimeType');
  const data = field<string>(blob, 'data');
  if (!mediaType) invalidField(`${at}.${keyOf(blob, 'mimeType', lastKey(at))}`, 'is required');
  if (data === undefined) invalidField(`${at}.data`, 'is required');
  const source = { kind: 'base64' as const, mediaType, data };
  if (mediaType.toLowerCase().startsWith('image/')) return { type: 'image', source, ...metadata };
  const filename = field<string>(blob, 'displayName');
  return { type: 'file', source, ...(filename ? { filename } : {}), ...metadata };
}

function decodeFileData(file: RawBlob, at: string, metadata: { providerMetadata?: ProviderMetadata }): ContentPart {
  const url = field<string>(file, 'fileUri');
  if (!url) invalidField(`${at}.${keyOf(file, 'fileUri', lastKey(at))}`, 'is required');
  const mediaType = field<string>(file, 'mimeType');
  const source = { kind: 'url' as const, url, ...(mediaType ? { mediaType } : {}) };
  if (mediaType?.toLowerCase().startsWith('image/')) return { type: 'image', source, ...metadata };
  const filename = field<string>(file, 'displayName');
  return { type: 'file', source, ...(filename ? { filename } : {}), ...metadata };
}

function decodeFunctionResponse(
  response: RawFunctionResponse,
  at: string,
  fallbackId: string,
  ledger: CallLedger,
  metadata: { providerMetadata?: ProviderMetadata },
): ToolResultPart {
  const matched = ledger.answered(response.name, response.id);
  if (matched === undefined) logCodec('%s: no earlier functionCall named %s; using id %s', at, response.name, fallbackId);
  const toolCallId = matched ?? fallbackId;
  const payload = response.response ?? {};
  const content: ToolResultPart['content'] = [{ type: 'text', text: JSON.stringify(payload) }];
  (response.parts ?? []).forEach((inner, index) => {
    const where = `${at}.parts[${index}]`;
    const blob = field<RawBlob>(inner, 'inlineData');
    if (!blob) invalidField(where, 'must hold inlineData');
    const blobAt = `${where}.${keyOf(inner, 'inlineData')}`;
    const decoded = decodeInlineData(blob, blobAt, {});
    if (decoded.type !== 'image') invalidField(`${blobAt}.${keyOf(blob, 'mimeType')}`, 'must be an image type inside a function response');
    content.push(decoded);
  });
  const isError = 'error' in payload && !('output' in payload);
  return { type: 'tool-result', toolCallId, toolName: response.name, content, ...(isError ? { isError } : {}), ...metadata };
}

/** Decodes one content into messages: its own turn, split around each function response (which becomes a `tool` message). */
function decodeContent(content: RawContent, contentIndex: number, ledger: CallLedger): Message[] {
  const turn: Turn = content.role ?? 'user';
  const role = turn === 'model' ? 'assistant' : 'user';
  ledger.enter(turn);
  const messages: Message[] = [];
  let current: ContentPart[] = [];
  const flush = () => {
    if (current.length > 0) messages.push({ role, content: current });
    current = [];
  };
  content.parts.forEach((part, partIndex) => {
    const at = `contents[${contentIndex}].parts[${partIndex}]`;
    const payload = payloadOf(part, at);
    const metadata = signatureMetadata(part);
    const where = payload ? `${at}.${keyOf(part, payload)}` : at;
    switch (payload) {
      case undefined:
        current.push({ type: 'text', text: '', ...metadata });
        return;
      case 'text': {
        const text = field<string>(part, 'text')!;
        current.push(turn === 'model' && field<boolean>(part, 'thought') === true ? { type: 'reasoning', text, ...metadata } : { type: 'text', text, ...metadata });
        return;
      }
      case 'inlineData':
        current.push(decodeInlineData(field<RawBlob>(part, 'inlineData')!, where, metadata));
        return;
      case 'fileData':
        current.push(decodeFileData(field<RawBlob>(part, 'fileData')!, where, metadata));
        return;
      case 'functionCall': {
        if (turn !== 'model') invalidField(where, "must be in a turn with role 'model'");
        const call = field<RawFunctionCall>(part, 'functionCall')!;
        const id = call.id || synthesizedCallId(contentIndex, partIndex);
        ledger.called(call.name, id);
        current.push({ type: 'tool-call', id, name: call.name, arguments: JSON.stringify(call.args ?? {}), ...metadata });
        return;
      }
      case 'functionResponse': {
        if (turn !== 'user') invalidField(where, "must be in a turn with role 'user'");
        const response = field<RawFunctionResponse>(part, 'functionResponse')!;
        flush();
        const result = decodeFunctionResponse(response, where, synthesizedCallId(contentIndex, partIndex), ledger, metadata);
        messages.push({ role: 'tool', content: [result] });
        return;
      }
    }
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
    return { type: 'text', text };
  });
  return content.length > 0 ? { role: 'system', content } : undefined;
}

/** The system instruction (first, when present) and every content, in order. */
export function decodeMessages(body: GenerateContentBody): Message[] {
  const ledger = new CallLedger();
  const system = decodeSystemInstruction(body);
  const messages = body.contents.flatMap((content, index) => decodeContent(content, index, ledger));
  return system ? [system, ...messages] : messages;
}
