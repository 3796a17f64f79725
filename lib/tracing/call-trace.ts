/**
 * A call's spans (docs/operations.md, *Traces*): one for the gateway's handling of the call, a child of the caller's
 * trace (the active span, or the incoming `traceparent`), and one CLIENT child per upstream attempt, so fallbacks and
 * deployment retries are siblings with their outcome. Only `@opentelemetry/api`: without a registered SDK every span
 * is the API's no-op one, and nothing here builds an attribute unless the span is recording.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  propagation,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { FinishReason, GenerateResponse, Usage } from '../canonical';
import type { GatewayError } from '../errors';
import type { UsageRecord } from '../usage/record';
import * as names from './attributes';

/** `observability.traces` (docs/options.md). */
export interface TracesOptions {
  /**
   * Record the messages in and out (`gen_ai.input.messages`, `gen_ai.output.messages`, the conventions' opt-in
   * attributes) on the gateway's span. Default false: they may hold personal data.
   */
  captureContent?: boolean;
}

/** What of an answer the spans record. */
export interface AnswerFacts {
  id?: string;
  model?: string;
  finishReasons?: string[];
}

/** The tracer of one gateway. */
export class GatewayTracer {
  readonly tracer: Tracer;

  constructor(readonly captureContent: boolean) {
    this.tracer = trace.getTracer('rosetta-gateway');
  }

  /** Starts the span of a call received with `headers`. */
  startCall(headers: IncomingHttpHeaders, operation: string, protocol: string): CallTrace {
    return new CallTrace(this, headers, names.operationName(operation, protocol));
  }
}

/** Header values a propagator reads. */
const HEADER_GETTER = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get: (carrier: IncomingHttpHeaders, key: string) => carrier[key],
};

/** The options of a call's span, one object per operation and kind (none made per call: the sampler reads them). */
const CALL_SPAN_OPTIONS = new Map<string, SpanOptions>();

function callSpanOptions(operationName: string, local: boolean): SpanOptions {
  const key = local ? `${operationName} local` : operationName;
  let options = CALL_SPAN_OPTIONS.get(key);
  if (options === undefined) {
    const attributes = Object.freeze({ [names.OPERATION_NAME]: operationName });
    options = Object.freeze({ kind: local ? SpanKind.INTERNAL : SpanKind.SERVER, attributes });
    CALL_SPAN_OPTIONS.set(key, options);
  }
  return options;
}

const CLIENT_OPTIONS: SpanOptions = Object.freeze({ kind: SpanKind.CLIENT });

/**
 * Whether a span carries a trace to continue: not the API's no-op one, whose context is checked by identity first
 * (the validity check itself parses both ids).
 */
function hasTraceContext(span: Span): boolean {
  const spanContext = span.spanContext();
  return spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
}

/** The spans of one call. */
export class CallTrace {
  readonly span: Span;
  /** The context the call's span was started in (the caller's trace, or the host's span). */
  private readonly parent: Context;
  /** The context the attempts' spans are children of, made for the first attempt. */
  private childContext: Context | undefined;
  private readonly tracer: Tracer;
  /** The attempt whose span is open: a stream's until it ends. */
  attempt: Span | undefined;

  constructor(
    readonly owner: GatewayTracer,
    headers: IncomingHttpHeaders,
    readonly operationName: string,
  ) {
    this.tracer = owner.tracer;
    const active = context.active();
    // Inside the host's own server span (its HTTP instrumentation): a child of it. Otherwise the caller's trace.
    const local = trace.getSpan(active) !== undefined;
    this.parent = local ? active : propagation.extract(active, headers, HEADER_GETTER);
    this.span = this.tracer.startSpan(operationName, callSpanOptions(operationName, local), this.parent);
  }

  get recording(): boolean {
    return this.span.isRecording();
  }

  /** Names the span once the requested model is known: `{operation} {model}`. */
  named(model: string): void {
    if (this.span.isRecording()) {
      this.span.updateName(`${this.operationName} ${model}`);
      this.span.setAttribute(names.REQUEST_MODEL, model);
    }
  }

  private get context(): Context {
    if (this.childContext === undefined) this.childContext = trace.setSpan(this.parent, this.span);
    return this.childContext;
  }

  /** Starts an upstream attempt's span (CLIENT), a child of the call's; it is the open attempt until ended. */
  startAttempt(
    providerName: string,
    upstreamModel: string,
    model: string,
    deployment: string | undefined,
    stream: boolean,
  ): Span {
    let attributes: Attributes | undefined;
    if (this.span.isRecording()) {
      attributes = {
        [names.OPERATION_NAME]: this.operationName,
        [names.PROVIDER_NAME]: names.providerName(providerName),
        [names.REQUEST_MODEL]: upstreamModel,
        [names.ROSETTA.provider]: providerName,
        [names.ROSETTA.model]: model,
      };
      if (stream) attributes[names.REQUEST_STREAM] = true;
      if (deployment !== undefined) attributes[names.ROSETTA.deployment] = deployment;
    }
    // A call's span that does not record: sampled out (its context still goes upstream), or the API's no-op one
    // without an SDK, whose attempt is another no-op span and no context is made for it.
    const span = attributes
      ? this.tracer.startSpan(
          `${this.operationName} ${upstreamModel}`,
          { kind: SpanKind.CLIENT, attributes },
          this.context,
        )
      : this.tracer.startSpan(
          this.operationName,
          CLIENT_OPTIONS,
          hasTraceContext(this.span) ? this.context : this.parent,
        );
    this.attempt = span;
    return span;
  }

  /**
   * The hop headers with the attempt's W3C trace context (`traceparent`, `tracestate`) added, for the upstream; the
   * same object when there is no trace to continue (no SDK: the span's context is invalid).
   */
  upstreamHeaders(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const span = this.attempt;
    if (span === undefined || !hasTraceContext(span)) return base;
    const headers: Record<string, string> = Object.assign({}, base);
    propagation.inject(trace.setSpan(this.context, span), headers);
    return headers;
  }

  /** Records an answer's facts on the open attempt's span. */
  answered(facts: AnswerFacts, usage: Usage | undefined, firstChunkMs?: number): void {
    const span = this.attempt;
    if (span === undefined || !span.isRecording()) return;
    setAnswer(span, facts);
    if (usage) setUsage(span, usage);
    if (firstChunkMs !== undefined) span.setAttribute(names.TIME_TO_FIRST_CHUNK, firstChunkMs / 1000);
  }

  /** Ends the open attempt's span, failed with `error` or not. */
  endAttempt(error?: SpanError): void {
    const span = this.attempt;
    if (span === undefined) return;
    this.attempt = undefined;
    if (error && span.isRecording()) setError(span, error);
    span.end();
  }

  /**
   * Ends the call's span with what its usage record says (`record`, built when the span records) and what its
   * answer said; an attempt still open (a stream cut before its end was seen) is ended first.
   */
  end(record: UsageRecord | undefined, answer: AnswerFacts | undefined, content: CapturedContent | undefined): void {
    if (this.attempt) this.endAttempt(record?.error);
    const span = this.span;
    if (record && span.isRecording()) {
      const attributes: Attributes = {
        [names.ROSETTA.requestId]: record.requestId,
        [names.ROSETTA.protocol]: record.protocol,
        [names.ROSETTA.operation]: record.operation,
        [names.ROSETTA.outcome]: record.outcome,
        [names.ROSETTA.creditsHeld]: record.credits.held,
        [names.ROSETTA.creditsCharged]: record.credits.charged,
        [names.ROSETTA.attempts]: record.attempts.length,
        [names.HTTP_STATUS]: record.status,
      };
      if (record.stream) attributes[names.REQUEST_STREAM] = true;
      if (record.operation === 'image') attributes[names.OUTPUT_TYPE] = 'image';
      if (record.keyId !== undefined) attributes[names.ROSETTA.keyId] = record.keyId;
      if (record.model !== undefined) attributes[names.ROSETTA.model] = record.model;
      if (record.provider !== undefined) {
        attributes[names.PROVIDER_NAME] = names.providerName(record.provider);
        attributes[names.ROSETTA.provider] = record.provider;
      }
      if (record.deployment !== undefined) attributes[names.ROSETTA.deployment] = record.deployment;
      if (record.affinity !== undefined) attributes[names.ROSETTA.affinity] = record.affinity;
      if (record.credits.settlement !== undefined) attributes[names.ROSETTA.settlement] = record.credits.settlement;
      if (record.usageSource !== undefined) attributes[names.ROSETTA.usageSource] = record.usageSource;
      if (record.stream && record.timings.firstByte !== undefined)
        attributes[names.TIME_TO_FIRST_CHUNK] = (record.timings.firstByte - record.timings.received) / 1000;
      span.setAttributes(attributes);
      if (record.usage) setUsage(span, record.usage);
      if (answer) setAnswer(span, answer);
      if (content) {
        span.setAttribute(names.INPUT_MESSAGES, content.input);
        if (content.output !== undefined) span.setAttribute(names.OUTPUT_MESSAGES, content.output);
      }
      if (record.error) setError(span, record.error);
    }
    span.end();
  }
}

/** The messages of a call as the conventions' JSON (docs/operations.md, *Traces*), captured only when opted in. */
export interface CapturedContent {
  input: string;
  output?: string;
}

/** A failure as a span records it; `error.type` is the gateway's error kind, low-cardinality (`upstream_timeout`). */
export type SpanError = Pick<GatewayError, 'kind' | 'status' | 'message'>;

function setError(span: Span, error: SpanError): void {
  span.setAttribute(names.ERROR_TYPE, error.kind);
  span.setAttribute(names.ROSETTA.errorKind, error.kind);
  span.setAttribute(names.HTTP_STATUS, error.status);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

function setAnswer(span: Span, facts: AnswerFacts): void {
  if (facts.id !== undefined) span.setAttribute(names.RESPONSE_ID, facts.id);
  if (facts.model !== undefined) span.setAttribute(names.RESPONSE_MODEL, facts.model);
  if (facts.finishReasons !== undefined) span.setAttribute(names.FINISH_REASONS, facts.finishReasons);
}

function setUsage(span: Span, usage: Usage): void {
  span.setAttribute(names.INPUT_TOKENS, usage.inputTokens);
  span.setAttribute(names.OUTPUT_TOKENS, usage.outputTokens);
  if (usage.cacheReadTokens !== undefined) span.setAttribute(names.CACHE_READ_TOKENS, usage.cacheReadTokens);
  if (usage.cacheWriteTokens !== undefined) span.setAttribute(names.CACHE_WRITE_TOKENS, usage.cacheWriteTokens);
  if (usage.reasoningTokens !== undefined) span.setAttribute(names.REASONING_TOKENS, usage.reasoningTokens);
}

/** What a whole answer says of itself: its id, the model that answered, why each choice stopped. */
export function answerFacts(response: GenerateResponse): AnswerFacts {
  return {
    id: response.id,
    model: response.model,
    finishReasons: finishReasonsOf(response.choices.map((choice) => choice.finishReason)),
  };
}

/** The finish reasons as the conventions spell them (the upstream's own value where known). */
export function finishReasonsOf(reasons: readonly FinishReason[]): string[] {
  return reasons.map((reason) => reason.raw ?? reason.unified);
}
