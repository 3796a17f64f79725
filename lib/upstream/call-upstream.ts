/**
 * One call's view of an upstream client: every request it sends carries the call's cancellation, its request id
 * (`x-request-id`), the gateway's hop headers and the attempt's retry hint, applied here once instead of by each
 * provider at each request.
 */
import { ATTEMPT_SPAN } from '../providers/call-context';
import { CALL_CANCELLATION, type CallSignal } from '../providers/cancellation';
import type { ProviderCallContext } from '../providers/types';
import type { Span } from '@opentelemetry/api';
import type { BodySink, StreamedBody } from './dispatch';

/** One upstream call. */
export interface UpstreamRequest {
  /** Appended to the base URL's path. */
  path: string;
  method?: 'GET' | 'POST';
  query?: Record<string, string>;
  body?: unknown;
  /** Headers of this request, over the client's own (read, never changed: the client builds its own object). */
  headers?: Readonly<Record<string, string>>;
  /** Cancels the call: an `AbortSignal`, or the gateway's cheaper per-call cancellation. */
  signal: CallSignal;
  /**
   * At most this many retries for this request, below the client's `retries.max` (a provider passes its call
   * context's `retries`: 0 while another deployment of the model would take the call). Default: `retries.max`.
   */
  retries?: number;
}

/** What sends a call's requests: an {@link UpstreamClient} (./upstream-client.ts). */
export interface RequestSender {
  /** Where the requests go, for the attempt's span; absent: not recorded. */
  readonly server?: { readonly address: string; readonly port: number };
  requestJson<T>(request: UpstreamRequest, parse?: (text: string) => T): Promise<T>;
  stream(request: UpstreamRequest, sink: BodySink): Promise<StreamedBody>;
}

/**
 * What of a call its upstream requests carry: the provider's call context (its cancellation, request id, hop headers
 * and retry hint), and the gateway's cheap cancellation where the gateway set it ({@link CALL_CANCELLATION}).
 */
export type UpstreamCallContext = Pick<ProviderCallContext, 'signal' | 'requestId' | 'upstreamHeaders' | 'retries'> & {
  readonly [CALL_CANCELLATION]?: CallSignal;
  readonly [ATTEMPT_SPAN]?: Span;
};

/** A request of one call: what the call adds (cancellation, retry hint) left out. */
export type CallRequest = Omit<UpstreamRequest, 'signal' | 'retries'>;

/** An upstream client bound to one call. */
export class CallUpstream {
  /** The call's cancellation as the upstream takes it (the cheap one where the gateway set it). */
  readonly signal: CallSignal;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly retries: number | undefined;

  constructor(
    private readonly client: RequestSender,
    context: UpstreamCallContext,
  ) {
    this.signal = context[CALL_CANCELLATION] ?? context.signal;
    // Object.assign, not spread: a spread merge goes through V8's runtime per property (docs/performance.md).
    this.headers = Object.assign({ 'x-request-id': context.requestId }, context.upstreamHeaders);
    this.retries = context.retries;
    const span = context[ATTEMPT_SPAN];
    const server = client.server;
    if (server && span?.isRecording())
      span.setAttributes({ 'server.address': server.address, 'server.port': server.port });
  }

  /** The client's `requestJson` with the call's context. */
  requestJson<T>(request: CallRequest, parse?: (text: string) => T): Promise<T> {
    return this.client.requestJson<T>(this.bound(request), parse);
  }

  /** The client's `stream` with the call's context. */
  stream(request: CallRequest, sink: BodySink): Promise<StreamedBody> {
    return this.client.stream(this.bound(request), sink);
  }

  private bound(request: CallRequest): UpstreamRequest {
    const headers = request.headers ? Object.assign({}, this.headers, request.headers) : this.headers;
    const { path, method, query, body } = request;
    return { path, method, query, body, headers, signal: this.signal, retries: this.retries };
  }
}
