/** One model call's own state, made once per call: what a codec's encoders see, and what every operation needs. */
import type { ServerResponse } from 'node:http';
import type { CallCancellation } from '../providers/cancellation';
import type { CallView, HttpRequestView, ProtocolCodec } from '../protocols/types';
import type { Principal } from '../stores/types';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A call as the pipeline carries it. It is the {@link CallView} the codec's encoders get (the
 * request id and the HTTP request), plus who asked, the hop headers for the upstream, the
 * cancellation and the response; `handleCall` sets `principal` and `upstreamHeaders` once, before
 * any operation runs, and the operation sets `model` once it has decoded the request.
 */
export class Call implements CallView {
  /** Who asked; set once the key is checked, before the body is read. */
  principal: Principal | undefined;
  /** The hop headers every upstream request of this call carries (docs/errors.md, "Request loops"). */
  upstreamHeaders: Readonly<Record<string, string>> = NO_HEADERS;
  /** The model the caller asked for, for the log line; set once the request is decoded. */
  model = '';
  /** The caller's codec's rate-limit headers (docs/operations.md, *Rate limits*); set with `principal`. */
  rateLimitHeaders: ProtocolCodec['rateLimitHeaders'];

  constructor(
    readonly requestId: string,
    readonly http: HttpRequestView,
    readonly cancellation: CallCancellation,
    readonly response: ServerResponse,
  ) {}

  /** Who asked (the key was checked before any operation runs). */
  get caller(): Principal {
    if (!this.principal) throw new TypeError('the call has not been authenticated');
    return this.principal;
  }
}
