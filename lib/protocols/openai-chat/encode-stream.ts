/** Canonical stream → chat-completions server-sent events (`chat.completion.chunk` frames, then `[DONE]`). */
import type { GenerateRequest, StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import { carriedSignatureOf, carrySignatureInToolId } from '../shared/signature-carrier';
import type { StreamEncoder } from '../types';
import { openAIErrorBody } from '../shared/openai-error';
import { chatCompletionId, encodeUsage } from './encode-response';
import { mapFinishReason } from './map-finish-reason';
import type { JsonObject } from '../../json';
import {
  chatExtension,
  type ChatStreamStartExtension,
  type ChatTextDeltaExtension,
} from '../../wire/openai/extensions';

const DONE = 'data: [DONE]\n\n';

/**
 * A delta's text as a JSON string. A part whose delta is not a string (a JavaScript provider's bug)
 * throws, so the gateway answers with an error event instead of an undefined in the JSON.
 */
function quoted(delta: string): string {
  if (typeof delta !== 'string') throw new TypeError(`a stream delta is ${typeof delta}, not a string`);
  return JSON.stringify(delta);
}

/**
 * One flat string from pieces. The strings a stream keeps for its whole life are joined rather than
 * concatenated: `a + b + …` builds a tree of string nodes (32 bytes each, walked again on every
 * chunk that starts with it), `join` one sequential string.
 */
function flat(pieces: string[]): string {
  return pieces.join('');
}

/**
 * Encodes a stream; with `stream_options.include_usage` a usage chunk with empty `choices` precedes `[DONE]`.
 * A tool call's vendor signature, on its `tool-call-start`, rides in its id, as non-streamed.
 *
 * Every chunk is `{ id, object, created, model, system_fingerprint, choices, usage? }` and all but
 * `choices` (and the last chunk's `usage`) are the same for the whole stream, so that head is
 * serialized once, at `response-start`; per chunk only the delta is. When the upstream spoke chat
 * completions too (the parts' `extensions['openai-chat']`), its `system_fingerprint` and the chunk
 * fields the gateway does not model (`service_tier`, a server's extras) go in that head, and a text
 * delta's `logprobs` in its chunk, as non-streamed (encode-response.ts).
 */
export class ChatStreamEncoder implements StreamEncoder {
  /** `data: {"id":…,"system_fingerprint":null,` — every chunk starts with it. */
  private head = '';
  /** The head and `"choices":[{"index":0,"delta":` — a content chunk's delta follows. */
  private framePrefix = '';
  /** What follows a content chunk's `logprobs` value. */
  private readonly afterLogprobs: string;
  /** What follows a content chunk's delta: `"logprobs":null` and {@link afterLogprobs}. */
  private readonly frameSuffix: string;
  private readonly toolIndexes = new Map<string, number>();

  constructor(private readonly includeUsage: boolean) {
    this.afterLogprobs = flat([',"finish_reason":null}]', includeUsage ? ',"usage":null' : '', '}\n\n']);
    this.frameSuffix = flat([',"logprobs":null', this.afterLogprobs]);
    this.setHead('', 0, '');
  }

  private setHead(id: string, created: number, model: string, upstream?: JsonObject): void {
    const head = [
      'data: {"id":',
      JSON.stringify(id),
      ',"object":"chat.completion.chunk","created":',
      JSON.stringify(created),
      ',"model":',
      JSON.stringify(model),
    ];
    head.push(
      ',"system_fingerprint":',
      upstream?.system_fingerprint !== undefined ? JSON.stringify(upstream.system_fingerprint) : 'null',
      ',',
    );
    if (upstream) {
      for (const name in upstream) {
        if (name !== 'system_fingerprint' && Object.hasOwn(upstream, name))
          head.push(JSON.stringify(name), ':', JSON.stringify(upstream[name]), ',');
      }
    }
    this.head = flat(head);
    head.push('"choices":[{"index":0,"delta":');
    this.framePrefix = flat(head);
  }

  /**
   * A content chunk whose delta is already JSON (see {@link quoted}); `logprobs` as the upstream sent it, else null.
   */
  private frame(deltaJson: string, logprobs?: unknown): string {
    if (logprobs === undefined) return this.framePrefix + deltaJson + this.frameSuffix;
    return `${this.framePrefix}${deltaJson},"logprobs":${JSON.stringify(logprobs)}${this.afterLogprobs}`;
  }

  /** The text of one part (possibly empty). */
  encode(part: StreamPart): string {
    switch (part.type) {
      case 'response-start':
        this.setHead(
          chatCompletionId(part.id),
          part.created,
          part.model,
          chatExtension<ChatStreamStartExtension>(part.extensions)?.fields,
        );
        return this.frame('{"role":"assistant","content":"","refusal":null}');
      case 'text-delta':
        return this.frame(
          `{"content":${quoted(part.delta)}}`,
          part.extensions === undefined ? undefined : chatExtension<ChatTextDeltaExtension>(part.extensions)?.logprobs,
        );
      case 'reasoning-delta':
        return this.frame(`{"reasoning_content":${quoted(part.delta)}}`);
      case 'tool-call-start': {
        const index = this.toolIndexes.size;
        this.toolIndexes.set(part.id, index);
        const id = carrySignatureInToolId(part.id, carriedSignatureOf(part.providerMetadata));
        return this.frame(
          JSON.stringify({
            tool_calls: [{ index, id, type: 'function', function: { name: part.name, arguments: '' } }],
          }),
        );
      }
      case 'tool-call-delta':
        return this.frame(
          JSON.stringify({
            tool_calls: [{ index: this.toolIndexes.get(part.id) ?? 0, function: { arguments: part.delta } }],
          }),
        );
      case 'finish': {
        const last = `${this.framePrefix}{},"logprobs":null,"finish_reason":${JSON.stringify(mapFinishReason(part.finishReason))}}]${this.includeUsage ? ',"usage":null' : ''}}\n\n`;
        const usage = this.includeUsage
          ? `${this.head}"choices":[],"usage":${JSON.stringify(encodeUsage(part.usage))}}\n\n`
          : '';
        return last + usage + DONE;
      }
      case 'error':
        return `data: ${JSON.stringify(openAIErrorBody(toGatewayError(part.error)))}\n\n`;
      default:
        return '';
    }
  }
}

/**
 * Starts a chat-completions stream for this call (the usage chunk only when the caller asked for it:
 * `includeStreamUsage`).
 */
export function encodeChatStream(request: GenerateRequest): StreamEncoder {
  return new ChatStreamEncoder(request.includeStreamUsage === true);
}
