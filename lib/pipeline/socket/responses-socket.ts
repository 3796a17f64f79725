/**
 * One Responses WebSocket connection (docs/protocols.md, *Responses over WebSocket*): the client sends
 * `response.create` messages, one turn at a time, and gets each turn's events as JSON text frames, the events the
 * SSE stream of the same request carries. Each turn is a call through the one request path (`handleCall`, its body
 * the message): authenticated, rate-limited, held, charged and recorded as a `POST /v1/responses` is.
 *
 * What the socket adds, as OpenAI's WebSocket mode does: the connection remembers its last answer, so a turn may
 * continue it with `previous_response_id` and only its new input items, whether or not it was stored (`store: false`
 * is what Codex sends); the turn runs with the whole conversation as its input. A `previous_response_id` the
 * connection does not hold goes to the response store (a stored answer), or, without one, is refused with
 * `previous_response_not_found` (Codex then resends the whole conversation). `generate: false` (Codex's warm-up)
 * answers at once with an empty, uncharged response the next turn can continue.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { StreamPart } from '../../canonical';
import { GatewayError, toGatewayError } from '../../errors';
import { exceedsValueDepth } from '../../http/json-depth';
import { isJsonObject, type JsonObject } from '../../json';
import { logRequest } from '../../log';
import type { GenerateRoute, ProtocolCodec, RouteMatch } from '../../protocols/types';
import type { Principal } from '../../stores/types';
import type { RequestPipeline } from '../pipeline';
import { requestView } from '../routing';
import { SocketResponse, type TurnSocket } from './socket-response';

/** What the session needs of its WebSocket (the `ws` package's, in ./upgrade.ts). */
export interface MessageSocket {
  send(text: string, sent: (error?: Error) => void): void;
  readonly bufferedAmount: number;
  terminate(): void;
}

/** The answer the connection remembers: its id and the conversation it ends (input items, then output items). */
interface Remembered {
  id: string;
  items: unknown[];
  /** The items' JSON length: a turn continuing them is a body of at least this size. */
  bytes: number;
}

/** The input items of a request's `input` (a string is one user message). */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

export class ResponsesSocketSession {
  private turn: SocketResponse | undefined;
  private last: Remembered | undefined;
  private closed = false;
  /** The body of the turn being answered, its input as it runs (set before anything of it is sent). */
  private turnBody: JsonObject | undefined;
  private readonly turnSocket: TurnSocket;

  constructor(
    private readonly pipeline: RequestPipeline,
    private readonly codec: ProtocolCodec,
    private readonly match: RouteMatch,
    private readonly request: IncomingMessage,
    private readonly path: string,
    private readonly socket: MessageSocket,
    /** Who opened the socket (its key checked on the upgrade; each turn checks it again, as a POST does). */
    private readonly principal: Principal,
  ) {
    this.turnSocket = {
      sendText: (text, sent) => this.sendText(text, sent),
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      cut: () => socket.terminate(),
    };
  }

  /** One message from the client: a text frame (`binary` frames are refused). */
  receive(data: string, binary: boolean): void {
    const message = this.accepted(data, binary);
    if (message) void this.run(message, data.length);
  }

  /** The `response.create` to run, or undefined: the message is refused (an `error` event) or needs nothing. */
  private accepted(data: string, binary: boolean): JsonObject | undefined {
    if (binary) return this.refuse('Binary messages are not supported: send each event as a JSON text message.');
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return this.refuse('The message is not valid JSON.');
    }
    if (!isJsonObject(message) || typeof message.type !== 'string')
      return this.refuse('A message is a JSON object with a "type" (response.create).', 'type');
    if (exceedsValueDepth(message, this.pipeline.config.maxJsonDepth))
      return this.refuse('The message is nested too deeply.');
    // Codex's acknowledgement of an answer it has handled: nothing to do.
    if (message.type === 'response.processed') return undefined;
    if (message.type !== 'response.create')
      return this.refuse(`Unknown message type '${message.type}': send response.create.`, 'type');
    if (this.turn)
      return this.refuse(
        'A response is already in progress on this connection: wait for its last event, or open another connection.',
        undefined,
        'response_in_progress',
      );
    return message;
  }

  /** The connection closed: a turn in progress is cancelled, as an HTTP call whose client left. */
  close(): void {
    this.closed = true;
    this.turn?.socketClosed();
  }

  private async run(message: JsonObject, size: number): Promise<void> {
    const { type: _type, generate, ...body } = message;
    // Over a socket every answer streams (`stream` is implied, as in OpenAI's WebSocket mode).
    body.stream = true;
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
    if (previous !== undefined && previous === this.last?.id) {
      // The body the turn stands for is bounded as a POST's is.
      if (this.last.bytes + size > this.pipeline.config.maxBodyBytes)
        return this.refuseWith(
          new GatewayError(
            'request_too_large',
            'The conversation this turn continues is larger than this gateway takes in one request: start a new conversation.',
            { param: 'previous_response_id' },
          ),
        );
      body.input = [...this.last.items, ...inputItems(body.input)];
      delete body.previous_response_id;
    } else if (previous !== undefined && !this.pipeline.config.responseStore) {
      return this.refuse(
        `Previous response with id '${previous}' not found: this connection holds only its last response, and this gateway keeps no others. Send the whole conversation in input.`,
        'previous_response_id',
        'previous_response_not_found',
      );
    }
    this.turnBody = body;
    if (generate === false) return this.warmUp(body);
    const response = new SocketResponse(this.turnSocket);
    this.turn = response;
    try {
      await this.pipeline.handleCall(
        this.codec,
        this.match,
        this.request as Request,
        response.asServerResponse() as Response,
        this.path,
        { body },
      );
    } catch (error) {
      // handleCall answers every failure itself; this is a bug's last line, never a hung turn.
      logRequest('a socket turn failed: %O', error);
      if (!response.writableEnded) this.refuse('The response failed.', undefined, undefined, 'internal');
    } finally {
      this.turn = undefined;
    }
  }

  /**
   * `generate: false`: the request is checked as the codec decodes it and answered with an empty completed response,
   * no model called and nothing charged; the next turn continues it with only its new items.
   */
  private warmUp(body: JsonObject): void {
    const route = this.match.route as GenerateRoute;
    const requestId = `req_${randomUUID().replaceAll('-', '')}`;
    const view = requestView(this.request as Request, this.path, body);
    try {
      const request = route.decode(view, this.match.params, () => undefined);
      // An unknown model, or one the key may not use, is refused now rather than on the turn that follows.
      this.pipeline.models.resolve(request.model, this.principal, 'text');
      const encoder = route.encodeStream!(request, { requestId, http: view });
      const parts: StreamPart[] = [
        { type: 'response-start', id: randomUUID().replaceAll('-', ''), model: request.model, created: nowSeconds() },
        { type: 'finish', usage: { inputTokens: 0, outputTokens: 0 }, finishReason: { unified: 'stop' } },
      ];
      const response = new SocketResponse(this.turnSocket);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const part of parts) response.write(encoder.encode(part));
      response.end();
    } catch (error) {
      this.refuseWith(error);
    }
  }

  /** Every frame the session sends; a completed answer is remembered (its input and output) as it goes out. */
  private sendText(text: string, sent: () => void): void {
    if (this.closed) return;
    if (text.startsWith('{"type":"response.completed"') || text.startsWith('{"type":"response.incomplete"'))
      this.remember(text);
    this.socket.send(text, () => sent());
  }

  private remember(text: string): void {
    try {
      const event = JSON.parse(text) as { response?: { id?: unknown; output?: unknown } };
      const answer = event.response;
      const body = this.turnBody;
      if (!answer || typeof answer.id !== 'string') return;
      const output = Array.isArray(answer.output) ? answer.output : [];
      const items = [...inputItems(body?.input), ...output];
      this.last = { id: answer.id, items, bytes: JSON.stringify(items).length };
    } catch (error) {
      logRequest('a socket answer could not be remembered: %O', error);
    }
  }

  private refuse(
    message: string,
    param?: string,
    code?: string,
    kind: 'invalid_request' | 'internal' = 'invalid_request',
  ): undefined {
    this.refuseWith(new GatewayError(kind, message, { param, code }));
    return undefined;
  }

  /** An `error` event in the Responses error shape, with the HTTP status the same refusal has over HTTP. */
  private refuseWith(thrown: unknown): void {
    const error = toGatewayError(thrown);
    const encoded = this.codec.encodeError(error, { requestId: '' });
    const body = encoded.body as { error?: unknown };
    this.sendText(
      JSON.stringify({ type: 'error', status: encoded.status, error: body.error ?? body }),
      () => undefined,
    );
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
