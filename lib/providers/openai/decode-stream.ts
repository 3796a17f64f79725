/** OpenAI chat-completions server-sent events → the canonical stream. */
import type { EventSourceMessage } from 'eventsource-parser';
import type { StreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { upstreamMessage } from '../http/upstream-errors';
import { decodeOpenAIUsage, type OpenAIUsage } from './decode-response';
import { mapOpenAIFinishReason } from './map-finish-reason';

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  id?: string;
  created?: number;
  model?: string;
  error?: unknown;
  choices?: Array<{ index?: number; delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ChunkToolCall[] | null }; finish_reason?: string | null }>;
  usage?: OpenAIUsage | null;
}

type OpenBlock = { kind: 'text' | 'reasoning'; id: string } | { kind: 'tool'; id: string; index: number };

/**
 * Decodes the upstream stream. Text, reasoning (`reasoning_content`, the common extension) and
 * tool calls (keyed by `index`) become blocks; the finish part waits for the usage chunk that
 * follows `finish_reason`. Upstream usage missing (a server ignoring `include_usage`) → `estimate`.
 * An `error` chunk or a stream cut before `finish_reason` throws a 502 GatewayError.
 */
export async function* decodeChatStream(events: AsyncIterable<EventSourceMessage>, upstream: string, estimate: (produced: string) => Usage): AsyncGenerator<StreamPart> {
  let started = false;
  let open: OpenBlock | undefined;
  let blockCount = 0;
  let finishRaw: string | null | undefined;
  let usage: Usage | undefined;
  let sawToolCalls = false;
  let produced = '';
  const toolIds = new Map<number, string>();

  function* close(): Generator<StreamPart> {
    if (!open) return;
    if (open.kind === 'text') yield { type: 'text-end', id: open.id };
    else if (open.kind === 'reasoning') yield { type: 'reasoning-end', id: open.id };
    else yield { type: 'tool-call-end', id: open.id };
    open = undefined;
  }

  function* openBlock(kind: 'text' | 'reasoning'): Generator<StreamPart> {
    if (open?.kind === kind) return;
    yield* close();
    open = { kind, id: `${blockCount++}` };
    yield kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id };
  }

  for await (const event of events) {
    if (event.data === '[DONE]') break;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(event.data) as Chunk;
    } catch (error) {
      throw new GatewayError('upstream', `The upstream ${upstream} sent a stream event that is not valid JSON.`, { cause: error, code: 'upstream_malformed' });
    }
    if (chunk.error !== undefined || event.event === 'error') {
      throw new GatewayError('upstream', `The upstream ${upstream} failed mid-stream: ${upstreamMessage(event.data) ?? 'unknown error'}`, { cause: chunk.error });
    }
    if (!started) {
      started = true;
      yield { type: 'response-start', id: chunk.id ?? '', model: chunk.model ?? '', created: chunk.created ?? Math.floor(Date.now() / 1000) };
    }
    if (chunk.usage) usage = decodeOpenAIUsage(chunk.usage);
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (delta.reasoning_content) {
      yield* openBlock('reasoning');
      produced += delta.reasoning_content;
      yield { type: 'reasoning-delta', id: open!.id, delta: delta.reasoning_content };
    }
    if (delta.content) {
      yield* openBlock('text');
      produced += delta.content;
      yield { type: 'text-delta', id: open!.id, delta: delta.content };
    }
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? 0;
      if (!toolIds.has(index)) {
        yield* close();
        const id = call.id ?? `call_${index}`;
        toolIds.set(index, id);
        sawToolCalls = true;
        open = { kind: 'tool', id, index };
        produced += call.function?.name ?? '';
        yield { type: 'tool-call-start', id, name: call.function?.name ?? '' };
      }
      const fragment = call.function?.arguments;
      if (fragment && open?.kind === 'tool' && open.index === index) {
        produced += fragment;
        yield { type: 'tool-call-delta', id: open.id, delta: fragment };
      }
    }
    if (choice.finish_reason) {
      finishRaw = choice.finish_reason;
      yield* close();
    }
  }
  if (finishRaw === undefined) {
    throw new GatewayError('upstream', `The upstream ${upstream} stream ended before it finished.`, { code: 'upstream_stream_cut' });
  }
  yield* close();
  yield { type: 'finish', usage: usage ?? estimate(produced), finishReason: mapOpenAIFinishReason(finishRaw, sawToolCalls) };
}
