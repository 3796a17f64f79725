/** The protocol-codec contract: how a wire protocol is decoded into canonical calls and encoded back. */
import type { IncomingHttpHeaders } from 'node:http';
import type {
  CallWarning,
  EmbedRequest,
  EmbedResponse,
  GenerateRequest,
  GenerateResponse,
  ImageRequest,
  ImageResponse,
  StreamPart,
} from '../canonical';
import type { GatewayError } from '../errors';
import type { RateLimitState, StoredResponse, StoredThread } from '../stores/types';

/**
 * The operations a route can lead to. `count-tokens` counts a text request's input without calling the model; `embed`
 * turns inputs into vectors.
 */
export type Operation = CodecRoute['operation'];

/** What a codec sees of an HTTP request. `path` is relative to where the gateway is mounted. */
export interface HttpRequestView {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The query string; the gateway parses it on first read, so a codec that never reads it costs nothing. */
  query: URLSearchParams;
  /** Parsed JSON body (`undefined` for GET). */
  body: unknown;
}

/** What a route found in the path (e.g. a Gemini model id and action). */
export type RouteParams = Readonly<Record<string, string>>;

/** What a codec's encoders are given besides the result: the request id and the HTTP request as the codec saw it. */
export interface CallView {
  readonly requestId: string;
  /** The HTTP request (path, headers, query, parsed body). */
  readonly http: HttpRequestView;
}

/** What a codec's error encoder is given: the request id, and the HTTP request once the gateway had looked at it. */
export interface ErrorContext {
  readonly requestId: string;
  readonly http?: HttpRequestView;
}

/**
 * A text-generation route: its body decoded into a {@link GenerateRequest}, the answer encoded whole
 * or, when the request asks to stream and the protocol streams, as a stream. The decoded request is
 * passed back to the encoders, so a codec needs nothing remembered between decode and encode.
 */
export interface GenerateRoute {
  readonly operation: 'generate';
  /**
   * Validates and decodes the body; throws `GatewayError` (kind `invalid_request`) naming the field.
   * What it drops for every upstream (a setting or tool the canonical types cannot carry) it
   * reports to `warn` as a {@link CallWarning}; the gateway always passes one for a call (optional:
   * a decoder called on its own may get none), and shows them to the caller with the answer.
   */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): GenerateRequest;
  encode(response: GenerateResponse, request: GenerateRequest, call: CallView): EncodedResponse;
  /**
   * Starts encoding a stream (see {@link StreamEncoder}). An `error` part arrives once the response
   * has started: encode it as the protocol's in-stream error event; nothing follows it. Absent: a
   * request to stream is a 400.
   */
  encodeStream?(request: GenerateRequest, call: CallView): StreamEncoder;
  /** Present on a route whose calls may continue a stored answer and be stored (see {@link ConversationState}). */
  readonly state?: RouteState;
}

/**
 * How a generate route's calls use the gateway's response store (the Responses API's
 * `previous_response_id` and `store`). The gateway looks the previous answer up for the caller's
 * key before the quota hold (so the hold counts the whole conversation), and stores a finished
 * answer (a streamed one before its last event is sent); the codec says what the protocol means.
 */
export interface ConversationState<R = StoredResponse> {
  /**
   * The gateway store that keeps this route's records: `responses` (`stores.responses`, {@link StoredResponse}) or
   * `threads` (`stores.threads`, {@link StoredThread}).
   */
  readonly store: 'responses' | 'threads';
  /** The refusal of a call that needs the store when the gateway has none; undefined: the call runs, nothing kept. */
  withoutStore(request: GenerateRequest, call: CallView): GatewayError | undefined;
  /** The refusal of a call whose previous record (`id`) is not found for the caller's key. */
  notFound(id: string): GatewayError;
  /**
   * Whether a record is deleted once a later call continued it (an Anthropic thread's answer is continued once).
   * Default false.
   */
  readonly continuedOnce?: boolean;
  /** The id of the stored answer this call continues, or undefined. */
  previousId(request: GenerateRequest, call: CallView): string | undefined;
  /**
   * Whether the caller asks for the answer to be kept, when the gateway has a store (the protocol's default when it
   * says nothing).
   */
  wantsStored(request: GenerateRequest, call: CallView): boolean;
  /**
   * The request the call runs: the previous answer's conversation before the request's own
   * input, and the request's storing setting as it will be honoured (`stored`), for the echo.
   */
  prepare(request: GenerateRequest, previous: R | undefined, stored: boolean, call: CallView): GenerateRequest;
  /**
   * The ids of stored items the call's input names instead of sending them (the Responses API's `item_reference`), in
   * order; read before the body is decoded. Default (absent): the protocol has no such references.
   */
  itemReferences?(http: HttpRequestView): string[];
  /** The body with each reference in place replaced by its item (`items` holds one for every id it names). */
  withItems?(body: unknown, items: ReadonlyMap<string, Record<string, unknown>>): unknown;
  /** The record of a finished answer, and the id it is read back by. `body` is the encoded answer. */
  record(
    request: GenerateRequest,
    previous: R | undefined,
    answer: GenerateResponse,
    body: unknown,
    call: CallView,
  ): { id: string; record: R };
}

/** A route's conversation state, with the store its records live in. */
export type RouteState =
  | (ConversationState<StoredResponse> & { readonly store: 'responses' })
  | (ConversationState<StoredThread> & { readonly store: 'threads' });

/** What a stored-response path names: one stored answer, or its input items. */
export interface StoredResponseMatch {
  id: string;
  resource: 'response' | 'input-items';
}

/**
 * The routes that read and delete stored answers (`GET` / `DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items`). Authenticated, never charged; a record is found only
 * with the key that stored it. `GET` reads either resource, `DELETE` only a `response`.
 */
export interface StoredResponseRoutes {
  match(path: string): StoredResponseMatch | undefined;
  encodeResponse(record: StoredResponse, request: HttpRequestView): EncodedResponse;
  encodeDeleted(id: string, request: HttpRequestView): EncodedResponse;
  /**
   * A page of the record's input items as the request's query asks; throws `GatewayError` (`invalid_request`) for a bad
   * query.
   */
  encodeInputItems(record: StoredResponse, request: HttpRequestView): EncodedResponse;
}

/** A token-count route: a text request decoded, its input counted without calling the model. Never charged. */
export interface CountTokensRoute {
  readonly operation: 'count-tokens';
  /** As {@link GenerateRoute.decode}; a count shows no warnings, so the gateway passes no `warn`. */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): GenerateRequest;
  encode(inputTokens: number, request: GenerateRequest, call: CallView): EncodedResponse;
  /**
   * Present on a route whose counts read the response store as its generate route's calls do: the
   * stored items the input names by reference, and the stored conversation the call continues,
   * counted with its input (never stored).
   */
  readonly state?: ConversationState;
}

/** An image-generation route. */
export interface ImageRoute {
  readonly operation: 'image';
  /** As {@link GenerateRoute.decode}; image calls show no warnings yet, so the gateway passes no `warn`. */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): ImageRequest;
  encode(response: ImageResponse, request: ImageRequest, call: CallView): EncodedResponse;
}

/**
 * An embedding route: inputs in, one vector per input out, in order. The encoder decides the wire form of the vectors
 * (OpenAI's `encoding_format: base64` is the little-endian float32 bytes of each vector).
 */
export interface EmbedRoute {
  readonly operation: 'embed';
  /**
   * As {@link GenerateRoute.decode}: a bad body is a 400 naming the field, before anything goes upstream. What the
   * codec drops for every upstream it reports to `warn`.
   */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): EmbedRequest;
  /** `inputTokens`: what the call was charged for (the upstream's figure, else the gateway's count). */
  encode(response: EmbedResponse, request: EmbedRequest, inputTokens: number, call: CallView): EncodedResponse;
}

/** One operation a codec serves, typed by what it decodes and encodes. */
export type CodecRoute = GenerateRoute | CountTokensRoute | ImageRoute | EmbedRoute;

/** The route a path leads to, with the parameters found in the path. */
export interface RouteMatch {
  route: CodecRoute;
  params: RouteParams;
}

/** An HTTP response a codec produced: status, extra headers, and a JSON body. */
export interface EncodedResponse {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * Encodes one stream, a part at a time: the gateway pushes each canonical part as it arrives and
 * writes what `encode` returns. Encoding is synchronous (no promise per part) so a stream costs
 * little more per chunk than relaying its bytes.
 */
export interface StreamEncoder {
  /**
   * Overrides of the defaults (`content-type: text/event-stream`, `cache-control: no-cache`, `x-accel-buffering: no`).
   */
  readonly headers?: Record<string, string>;
  /**
   * The text for one part: whole events of the protocol, or `''` when the part adds nothing (yet).
   * The gateway ends every stream it completes with a `finish` or an `error` part (it makes the
   * `error` itself when the provider breaks off), so an encoder writes everything still due —
   * a closing bracket, held parts — with that last part. After a caller leaves nothing more is pushed.
   */
  encode(part: StreamPart): string;
}

/** A model as the model-list endpoints show it. */
export interface ModelInfo {
  id: string;
  type: 'text' | 'image' | 'embedding';
  /** Provider name, shown as `owned_by`. */
  ownedBy: string;
  displayName: string;
  /** Unix seconds. */
  created: number;
  contextWindow?: number;
  maxOutputTokens?: number;
}

/**
 * The model-list endpoints a codec serves. The gateway serves `GET <path>` as a list and
 * `GET <path>/<id>` as one model. When several codecs list on one path, the first whose
 * `claims` returns true answers; a codec without `claims` is the fallback for that path.
 */
export interface ModelListRoutes {
  paths: readonly string[];
  claims?(request: HttpRequestView): boolean;
  encodeList(models: readonly ModelInfo[], request: HttpRequestView): EncodedResponse;
  encodeModel(model: ModelInfo, request: HttpRequestView): EncodedResponse;
}

/**
 * A protocol codec. Everything protocol-specific lives behind this interface; the gateway's
 * request path only calls these methods and its routes' (see {@link CodecRoute}).
 */
export interface ProtocolCodec {
  /** A unique name, e.g. `openai-chat`. */
  readonly name: string;
  /**
   * Returns the route this path leads to in this protocol, or undefined. Paths are POST-only (the stored-response
   * routes are `storedResponses`).
   */
  match(path: string): RouteMatch | undefined;
  /** Where this protocol carries the key, for the 401 message, e.g. `an "Authorization: Bearer <key>" header`. */
  readonly credentialHint?: string;
  /** Reads the caller's key from where this protocol carries it. */
  extractKey(request: HttpRequestView): string | undefined;
  /** Encodes an error in the protocol's native envelope. */
  encodeError(error: GatewayError, context: ErrorContext): EncodedResponse;
  /**
   * The rate-limit headers this protocol's clients read, for a call some rate limit counts: on its answer (whole or
   * streamed) and on its 429. Absent: the protocol has none (Gemini says it in the 429's body).
   */
  rateLimitHeaders?(state: RateLimitState): Record<string, string>;
  readonly modelList?: ModelListRoutes;
  /** Reading and deleting stored answers (`GET` / `DELETE`); see {@link StoredResponseRoutes}. */
  readonly storedResponses?: StoredResponseRoutes;
}
