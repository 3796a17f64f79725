/**
 * A `/v1/responses` call whose input ends in a `compaction_trigger` item: Codex's remote compaction (its
 * "compaction v2", the default of Codex 0.169 on its `openai` provider). It streams the call and expects exactly one
 * `compaction` output item (`response.output_item.done`) before `response.completed`, then keeps its retained user
 * messages and that item as the new history.
 *
 * The gateway serves it as it serves `POST /v1/responses/compact` (compact.ts): the conversation before the trigger
 * becomes the summarising turn of the caller's model, charged like any call, and the answer's text becomes one
 * `compaction` item, the Response's only output — whole, or streamed as `response.created`, `response.in_progress`,
 * the item's `response.output_item.added` / `.done` once the summary is written, and `response.completed` with usage.
 */
import type { GenerateRequest, GenerateResponse, StreamPart } from '../../canonical';
import { toGatewayError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import type { GenerateRoute, HttpRequestView, StreamEncoder } from '../types';
import { compactExtension, isCompactionType } from '../../wire/openai/compaction';
import { opaqueWireItem } from '../../wire/openai/responses-extensions';
import { asSummarisingTurn, compactionItem } from './compact';
import { echoSettings } from './echo';
import { encodeUsage } from './encode-output';
import { type ResponseState, responseObject, startingState } from './encode-response';
import { responseId } from './ids';
import { previousIdOf } from './state';
import { failureCode } from './stream-items';

/** The body without its last input item when that is a `compaction_trigger`, else undefined. */
function withoutTrigger(body: unknown): JsonObject | undefined {
  if (!isJsonObject(body) || !Array.isArray(body.input) || body.input.length === 0) return undefined;
  const last = body.input[body.input.length - 1];
  if (!isJsonObject(last) || last.type !== 'compaction_trigger') return undefined;
  return { ...body, input: body.input.slice(0, -1) };
}

/** Whether the call is a compaction turn. */
function isCompactionTurn(request: GenerateRequest): boolean {
  return compactExtension(request.extensions)?.trigger === true;
}

/** A compaction item an upstream that compacts itself (`responsesCompaction`) sent, as an opaque item or part. */
function upstreamCompaction(opaque: Parameters<typeof opaqueWireItem>[0]): JsonObject | undefined {
  const item = opaqueWireItem(opaque);
  return item && isCompactionType(item.type) ? item : undefined;
}

/** The Response object of a finished compaction turn: its one output, the compaction item. */
function compactionResponse(response: GenerateResponse, request: GenerateRequest, previousId?: string): JsonObject {
  const now = Math.floor(Date.now() / 1000);
  return responseObject(
    {
      id: responseId(response.id),
      model: response.model,
      createdAt: response.created,
      status: 'completed',
      output: [
        response.choices[0]?.opaque?.map(upstreamCompaction).find((item) => item !== undefined) ??
          compactionItem(response),
      ],
      usage: encodeUsage(response.usage),
      completedAt: Math.max(response.created, now),
    },
    echoSettings(request, previousId),
  );
}

/** Streams a compaction turn: the lifecycle events, the summary gathered unseen, then the item and the completion. */
class CompactionTurnStream implements StreamEncoder {
  private sequence = 0;
  private readonly settings: JsonObject;
  private state: ResponseState = startingState();
  private responseIdRaw = '0';
  private summary = '';
  /** The compaction item of an upstream that compacts itself, which goes to the caller as it came. */
  private upstreamItem: JsonObject | undefined;

  constructor(request: GenerateRequest, previousId?: string) {
    this.settings = echoSettings(request, previousId);
  }

  private event(type: string, payload: JsonObject): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...payload })}\n\n`;
  }

  private snapshot(): JsonObject {
    return responseObject(this.state, this.settings);
  }

  encode(part: StreamPart): string {
    switch (part.type) {
      case 'response-start':
        this.responseIdRaw = part.id;
        this.state = {
          id: responseId(part.id),
          model: part.model,
          createdAt: part.created,
          status: 'in_progress',
          output: [],
          usage: null,
        };
        return (
          this.event('response.created', { response: this.snapshot() }) +
          this.event('response.in_progress', { response: this.snapshot() })
        );
      case 'text-delta':
        this.summary += part.delta;
        return '';
      case 'opaque':
        if (part.item) this.upstreamItem ??= upstreamCompaction(part);
        return '';
      case 'finish':
        return this.finish(part.usage);
      case 'error': {
        const error = toGatewayError(part.error);
        this.state.status = 'failed';
        this.state.error = { code: failureCode(error), message: error.message };
        return this.event('response.failed', { response: this.snapshot() });
      }
      default:
        // Reasoning, and a tool call the model made although none was to be called: not part of the summary.
        return '';
    }
  }

  private finish(usage: Extract<StreamPart, { type: 'finish' }>['usage']): string {
    let item: JsonObject;
    try {
      item =
        this.upstreamItem ??
        compactionItem({
          id: this.responseIdRaw,
          choices: [{ index: 0, content: [{ type: 'text', text: this.summary }], finishReason: { unified: 'stop' } }],
        });
    } catch (error) {
      return this.encode({ type: 'error', error: error as Error });
    }
    this.state.output = [item];
    this.state.status = 'completed';
    this.state.usage = encodeUsage(usage);
    this.state.completedAt = Math.max(this.state.createdAt, Math.floor(Date.now() / 1000));
    return (
      this.event('response.output_item.added', { output_index: 0, item }) +
      this.event('response.output_item.done', { output_index: 0, item }) +
      this.event('response.completed', { response: this.snapshot() })
    );
  }
}

/**
 * `route` (the Responses codec's `POST /v1/responses`) with compaction turns: a body whose input ends in a
 * `compaction_trigger` is decoded without it as the summarising turn, and answered with the compaction item.
 */
export function withCompactionTurns(route: GenerateRoute): GenerateRoute {
  return {
    ...route,
    decode(http: HttpRequestView, params, warn) {
      const body = withoutTrigger(http.body);
      if (!body) return route.decode(http, params, warn);
      return asSummarisingTurn(route.decode({ ...http, body }, params, warn), { trigger: true });
    },
    encode(response, request, call) {
      if (!isCompactionTurn(request)) return route.encode(response, request, call);
      return { status: 200, body: compactionResponse(response, request, previousIdOf(call.http)) };
    },
    encodeStream(request, call) {
      if (isCompactionTurn(request)) return new CompactionTurnStream(request, previousIdOf(call.http));
      return route.encodeStream!(request, call);
    },
  };
}
