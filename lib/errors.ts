/** Every error the gateway raises, in one place: a kind, an HTTP status, and whether a retry may help. */

/** The kinds of error a request can end in. Each codec maps a kind to its protocol's native envelope. */
export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'insufficient_quota'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'rate_limit'
  | 'internal'
  | 'upstream'
  | 'upstream_auth'
  | 'upstream_timeout'
  | 'overloaded'
  | 'unavailable'
  | 'loop_detected';

/** The HTTP status each kind is answered with (a constructor may override it, e.g. for relayed upstream statuses). */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = Object.freeze({
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  insufficient_quota: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  internal: 500,
  upstream: 502,
  upstream_auth: 502,
  upstream_timeout: 504,
  overloaded: 503,
  unavailable: 503,
  loop_detected: 508,
});

const RETRYABLE_KINDS: ReadonlySet<ErrorKind> = new Set([
  'rate_limit',
  'upstream',
  'upstream_timeout',
  'overloaded',
  'unavailable',
]);

/** Options for {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** Overrides the kind's default status. */
  status?: number;
  /** The request field the error is about, as a dotted path (`messages[0].content`). */
  param?: string;
  /** A protocol-neutral machine code, e.g. `model_not_found`, `invalid_api_key`. */
  code?: string;
  /** Seconds the caller should wait before retrying (sent as Retry-After). */
  retryAfter?: number;
  /** Extra response headers (never credentials). */
  headers?: Record<string, string>;
  /**
   * Machine-readable details, sent where the caller's protocol's error has a place for them (the Anthropic error's
   * `details`, whose `error_code` the Anthropic SDK reads). Never a credential.
   */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error class of the gateway. Its message is safe to show to the caller: it never holds a key. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: ErrorKind;
  readonly status: number;
  readonly param?: string;
  readonly code?: string;
  readonly retryAfter?: number;
  readonly headers?: Record<string, string>;
  readonly details?: Record<string, unknown>;

  constructor(kind: ErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status ?? STATUS_BY_KIND[kind];
    this.param = options.param;
    this.code = options.code;
    this.retryAfter = options.retryAfter;
    this.headers = options.headers;
    if (options.details) this.details = options.details;
  }

  /** Whether the same request may succeed if tried again later. */
  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }
}

/** Turns anything thrown into a GatewayError; unknown errors become `internal` with a generic message. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError('internal', 'The gateway failed to process the request.', { cause: error });
}

/** Errors thrown at creation time for bad options; `code` is stable (`ERR_GATEWAY_*`). */
export class GatewayConfigError extends Error {
  override readonly name = 'GatewayConfigError';
  readonly code: string;
  /** The option path the error is about, e.g. `models[2].provider`. */
  readonly option?: string;

  constructor(code: string, message: string, option?: string) {
    super(message);
    this.code = code;
    this.option = option;
  }
}
