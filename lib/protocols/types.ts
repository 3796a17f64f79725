/** The protocol-codec contract: how a wire protocol is decoded into canonical calls and encoded back. */
import type { IncomingHttpHeaders } from 'node:http';
import type { CallWarning, GenerateRequest, GenerateResponse, ImageRequest, ImageResponse, StreamPart } from '../canonical';
import type { GatewayError } from '../errors';

/** The operations a route can lead to. `count-tokens` counts a text request's input without calling the model. */
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
}

/** A token-count route: a text request decoded, its input counted without calling the model. Never charged. */
export interface CountTokensRoute {
  readonly operation: 'count-tokens';
  /** As {@link GenerateRoute.decode}; a count shows no warnings, so the gateway passes no `warn`. */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): GenerateRequest;
  encode(inputTokens: number, request: GenerateRequest, call: CallView): EncodedResponse;
}

/** An image-generation route. */
export interface ImageRoute {
  readonly operation: 'image';
  /** As {@link GenerateRoute.decode}; image calls show no warnings yet, so the gateway passes no `warn`. */
  decode(http: HttpRequestView, params: RouteParams, warn?: (warning: CallWarning) => void): ImageRequest;
  encode(response: ImageResponse, request: ImageRequest, call: CallView): EncodedResponse;
}

/** One operation a codec serves, typed by what it decodes and encodes. */
export type CodecRoute = GenerateRoute | CountTokensRoute | ImageRoute;

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
  /** Overrides of the defaults (`content-type: text/event-stream`, `cache-control: no-cache`, `x-accel-buffering: no`). */
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
  type: 'text' | 'image';
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
  /** Returns the route this path leads to in this protocol, or undefined. Paths are POST-only. */
  match(path: string): RouteMatch | undefined;
  /** Where this protocol carries the key, for the 401 message, e.g. `an "Authorization: Bearer <key>" header`. */
  readonly credentialHint?: string;
  /** Reads the caller's key from where this protocol carries it. */
  extractKey(request: HttpRequestView): string | undefined;
  /** Encodes an error in the protocol's native envelope. */
  encodeError(error: GatewayError, context: ErrorContext): EncodedResponse;
  readonly modelList?: ModelListRoutes;
}
