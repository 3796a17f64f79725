/** One model call's own state, made once per call: what a codec's encoders see, and what every operation needs. */
import type { ServerResponse } from 'node:http';
import type { Usage } from '../canonical';
import type { GatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import type { CallCancellation } from '../providers/cancellation';
import type { CallView, HttpRequestView, Operation, ProtocolCodec } from '../protocols/types';
import type { ChosenDeployment } from '../routing/router';
import type { Principal } from '../stores/types';
import type { AnswerFacts, CallTrace } from '../tracing/call-trace';
import type { UsageAttempt } from '../usage/record';
import type { QuotaHold } from './quota-hold';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A call as the pipeline carries it. It is the {@link CallView} the codec's encoders get (the
 * request id and the HTTP request), plus who asked, the hop headers for the upstream, the
 * cancellation and the response; `handleCall` sets `principal` and `upstreamHeaders` once, before
 * any operation runs, and the operation sets `model` once it has decoded the request.
 *
 * It also gathers the facts of the call's usage record (lib/pipeline/usage.ts) as the call goes: a
 * few fields, each set once where the fact is known.
 */
export class Call implements CallView {
  /** Who asked; set once the key is checked, before the body is read. */
  principal: Principal | undefined;
  /** The hop headers every upstream request of this call carries (docs/errors.md, "Request loops"). */
  upstreamHeaders: Readonly<Record<string, string>> = NO_HEADERS;
  /** The model the caller asked for (an alias stays an alias); set once the request is decoded. */
  model = '';
  /** Epoch milliseconds the call was received. */
  readonly received = Date.now();
  /** Whether the caller asked for a stream. */
  stream = false;
  /** The model the requested id resolved to (with its fallback chain). */
  resolved: ResolvedModel | undefined;
  /** Every model the call tried, in order (the provider call's fallbacks). */
  readonly attempts: UsageAttempt[] = [];
  /**
   * The deployment that answered, for a model with a router (docs/routing.md): ended (its rate-limit slot settled,
   * its call in flight counted out) when the call is over.
   */
  deployment: ChosenDeployment | undefined;
  /** The call's quota hold, once reserved: what was held, then charged. */
  hold: QuotaHold | undefined;
  /** The token figures of the answer (or of what a cut stream produced). */
  usage: Usage | undefined;
  /** Images an image call generated. */
  images: number | undefined;
  /** Epoch milliseconds the first byte of the answer was sent (the JSON, or a stream's head). */
  firstByte: number | undefined;
  /** Why the call failed, or why its stream ended early. */
  failure: GatewayError | undefined;
  /** Whether the caller left before the answer was complete. */
  cancelled = false;
  /** What the answer said of itself (id, model, finish reasons), for the call's span; set only while it records. */
  answer: AnswerFacts | undefined;
  /** A stream's output text, kept only for a span that captures content. */
  streamedText: string | undefined;
  /** The call's spans (docs/operations.md, *Traces*); set by `handleCall` before any operation runs. */
  trace!: CallTrace;
  /** The caller's codec's rate-limit headers (docs/operations.md, *Rate limits*); set with `principal`. */
  rateLimitHeaders: ProtocolCodec['rateLimitHeaders'];

  constructor(
    readonly requestId: string,
    readonly http: HttpRequestView,
    readonly cancellation: CallCancellation,
    readonly response: ServerResponse,
    /** The inbound protocol (the codec's name) and the route's operation. */
    readonly protocol: string,
    readonly operation: Operation,
  ) {}

  /** Who asked (the key was checked before any operation runs). */
  get caller(): Principal {
    if (!this.principal) throw new TypeError('the call has not been authenticated');
    return this.principal;
  }
}
