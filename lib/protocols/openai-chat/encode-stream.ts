/** Canonical stream → chat-completions server-sent events (`chat.completion.chunk` frames, then `[DONE]`). */
import type { ProviderMetadata, StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import { carrySignatureInToolId, geminiSignatureOf, ToolCallLookahead } from '../shared/signature-carrier';
import type { EncodeContext, StreamEncoder } from '../types';
import { openAIErrorBody } from './encode-error';
import { chatCompletionId, encodeUsage } from './encode-response';
import { mapFinishReason } from './map-finish-reason';

const DONE = 'data: [DONE]\n\n';

function wantsUsage(context: EncodeContext): boolean {
  const body = context.call?.request.origin?.body as { stream_options?: { include_usage?: unknown } | null } | undefined;
  return body?.stream_options?.include_usage === true;
}

/** What every chunk of one stream repeats, ahead of its `choices`. */
interface ChunkHead {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: null;
}

/**
 * Encodes a stream; with `stream_options.include_usage` a usage chunk with empty `choices` precedes `[DONE]`.
 * A tool call sent whole (start, one delta, end) carries its end's Gemini signature in its id, as non-streamed.
 *
 * Every frame is `{...head, choices: [{ index: 0, delta, logprobs: null, finish_reason }], usage?: null}`;
 * the JSON around `delta` is the same for the whole stream, so it is serialized once (at
 * `response-start`) and only each delta is serialized per chunk.
 */
export class ChatStreamEncoder implements StreamEncoder {
  private head: ChunkHead = { id: '', object: 'chat.completion.chunk', created: 0, model: '', system_fingerprint: null };
  private framePrefix = '';
  private readonly frameSuffix: string;
  private readonly toolIndexes = new Map<string, number>();
  private readonly lookahead = new ToolCallLookahead();
  private out = '';
  private readonly emit = (part: StreamPart, toolCallEnd?: ProviderMetadata) => this.encodeReady(part, toolCallEnd);

  constructor(private readonly includeUsage: boolean) {
    this.frameSuffix = `,"logprobs":null,"finish_reason":null}]${includeUsage ? ',"usage":null' : ''}}\n\n`;
    this.setHead(this.head);
  }

  encode(part: StreamPart): string {
    this.out = '';
    this.lookahead.push(part, this.emit);
    return this.out;
  }

  private setHead(head: ChunkHead): void {
    this.head = head;
    const json = JSON.stringify({ ...head, choices: [] });
    this.framePrefix = `data: ${json.slice(0, -3)}[{"index":0,"delta":`;
  }

  /** A frame whose delta is already JSON. */
  private frame(deltaJson: string): void {
    this.out += this.framePrefix + deltaJson + this.frameSuffix;
  }

  private encodeReady(part: StreamPart, toolCallEnd: ProviderMetadata | undefined): void {
    switch (part.type) {
      case 'response-start':
        this.setHead({ ...this.head, id: chatCompletionId(part.id), created: part.created, model: part.model });
        this.frame('{"role":"assistant","content":"","refusal":null}');
        break;
      case 'text-delta':
        this.frame(`{"content":${JSON.stringify(part.delta)}}`);
        break;
      case 'reasoning-delta':
        this.frame(`{"reasoning_content":${JSON.stringify(part.delta)}}`);
        break;
      case 'tool-call-start': {
        const index = this.toolIndexes.size;
        this.toolIndexes.set(part.id, index);
        const id = carrySignatureInToolId(part.id, geminiSignatureOf(toolCallEnd));
        this.frame(JSON.stringify({ tool_calls: [{ index, id, type: 'function', function: { name: part.name, arguments: '' } }] }));
        break;
      }
      case 'tool-call-delta':
        this.frame(JSON.stringify({ tool_calls: [{ index: this.toolIndexes.get(part.id) ?? 0, function: { arguments: part.delta } }] }));
        break;
      case 'finish': {
        const finishReason = mapFinishReason(part.finishReason);
        this.out += `data: ${JSON.stringify({ ...this.head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }], ...(this.includeUsage ? { usage: null } : {}) })}\n\n`;
        if (this.includeUsage) this.out += `data: ${JSON.stringify({ ...this.head, choices: [], usage: encodeUsage(part.usage) })}\n\n`;
        this.out += DONE;
        break;
      }
      case 'error':
        this.out += `data: ${JSON.stringify(openAIErrorBody(toGatewayError(part.error)))}\n\n`;
        break;
      default:
        break;
    }
  }
}

/** Starts a chat-completions stream for this call (the usage chunk only when the caller asked for it). */
export function encodeChatStream(context: EncodeContext): StreamEncoder {
  return new ChatStreamEncoder(wantsUsage(context));
}
