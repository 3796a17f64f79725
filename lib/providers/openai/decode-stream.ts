/** OpenAI chat-completions server-sent events → the canonical stream. */
import type { EventSourceMessage } from 'eventsource-parser';
import createDebug from 'debug';
import type { StreamPart, Usage } from '../../canonical';
import { GatewayError } from '../../errors';
import { decodeOpenAIUsage, reasoningText, type OpenAIUsage } from './decode-response';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { chatStreamError } from './stream-error';
import { ToolCallStream, type ToolCallDelta } from './tool-call-stream';

const log = createDebug('rosetta:provider');

interface Chunk {
  id?: string;
  created?: number;
  model?: string;
  error?: unknown;
  choices?: Array<{
    index?: number;
    delta?: { content?: string | null; refusal?: string | null; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: ToolCallDelta[] | null } | null;
    finish_reason?: string | null;
  }>;
  usage?: OpenAIUsage | null;
}

type TextBlock = { kind: 'text' | 'reasoning'; id: string };

function parseChunk(event: EventSourceMessage, upstream: string): Chunk {
  try {
    return JSON.parse(event.data) as Chunk;
  } catch (error) {
    throw new GatewayError('upstream', `The upstream ${upstream} sent a stream event that is not valid JSON.`, { cause: error, code: 'upstream_malformed' });
  }
}

/** The text a part adds to the output (for the usage estimate when the upstream reports none). */
function producedBy(part: StreamPart): string {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
    case 'tool-call-delta':
      return part.delta;
    case 'tool-call-start':
      return part.name;
    default:
      return '';
  }
}

/**
 * Decodes the upstream stream. Text, a refusal (as text, finishing as content-filter when it is
 * the whole answer, as non-streamed), reasoning (`reasoning_content` or `reasoning`, the common
 * extensions) and tool calls (see {@link ToolCallStream}) become blocks; the finish part waits for
 * the usage chunk that follows `finish_reason`. Upstream usage missing (a server ignoring
 * `include_usage`) → `estimate`. `[DONE]` without a `finish_reason` finishes as well (some servers
 * omit it). An `error` chunk throws the GatewayError it stands for (see {@link chatStreamError});
 * a stream cut before `finish_reason` and `[DONE]` throws a 502.
 */
export async function* decodeChatStream(events: AsyncIterable<EventSourceMessage>, upstream: string, estimate: (produced: string) => Usage): AsyncGenerator<StreamPart> {
  let started = false;
  let open: TextBlock | undefined;
  let blockCount = 0;
  let finishRaw: string | null | undefined;
  let done = false;
  let refused = false;
  let answered = false;
  let usage: Usage | undefined;
  let produced = '';
  const tools = new ToolCallStream();

  function* closeText(): Generator<StreamPart> {
    if (!open) return;
    yield open.kind === 'text' ? { type: 'text-end', id: open.id } : { type: 'reasoning-end', id: open.id };
    open = undefined;
  }

  function* openText(kind: TextBlock['kind']): Generator<StreamPart> {
    if (open?.kind === kind) return;
    yield* closeText();
    yield* tools.end();
    open = { kind, id: `${blockCount++}` };
    yield kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id };
  }

  function* decodeChunk(chunk: Chunk): Generator<StreamPart> {
    if (chunk.usage) usage = decodeOpenAIUsage(chunk.usage);
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    const reasoning = reasoningText(delta);
    if (reasoning) {
      yield* openText('reasoning');
      yield { type: 'reasoning-delta', id: open!.id, delta: reasoning };
    }
    if (typeof delta.content === 'string' && delta.content.length > 0) {
      answered = true;
      yield* openText('text');
      yield { type: 'text-delta', id: open!.id, delta: delta.content };
    }
    if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
      refused = true;
      yield* openText('text');
      yield { type: 'text-delta', id: open!.id, delta: delta.refusal };
    }
    for (const [position, call] of (delta.tool_calls ?? []).entries()) yield* tools.accept(call, position, closeText);
    if (choice.finish_reason) {
      finishRaw = choice.finish_reason;
      yield* closeText();
      yield* tools.finish();
    }
  }

  for await (const event of events) {
    if (event.data === '[DONE]') {
      done = true;
      break;
    }
    const chunk = parseChunk(event, upstream);
    if ((chunk.error !== undefined && chunk.error !== null) || event.event === 'error') throw chatStreamError(chunk.error ?? chunk, event.data, upstream);
    if (!started) {
      started = true;
      yield { type: 'response-start', id: chunk.id ?? '', model: chunk.model ?? '', created: chunk.created ?? Math.floor(Date.now() / 1000) };
    }
    for (const part of decodeChunk(chunk)) {
      produced += producedBy(part);
      yield part;
    }
  }
  if (finishRaw === undefined) {
    if (!done) throw new GatewayError('upstream', `The upstream ${upstream} stream ended before it finished.`, { code: 'upstream_stream_cut' });
    log('upstream %s: [DONE] without a finish_reason; finished as it stands', upstream);
  }
  if (!started) throw new GatewayError('upstream', `The upstream ${upstream} stream ended before it started.`, { code: 'upstream_stream_cut' });
  yield* closeText();
  for (const part of tools.finish()) {
    produced += producedBy(part);
    yield part;
  }
  const finishReason = refused && !answered && !tools.sawCalls ? { unified: 'content-filter' as const, raw: 'refusal' } : mapOpenAIFinishReason(finishRaw, tools.sawCalls);
  yield { type: 'finish', usage: usage ?? estimate(produced), finishReason };
}
