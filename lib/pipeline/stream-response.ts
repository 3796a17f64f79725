/**
 * The streamed answer of a text call, once its provider stream is open: one loop pulls each part,
 * meters it, encodes it and writes it (coalesced per tick, waiting for `drain`), and the hold is
 * settled however the stream ends.
 */
import type { ServerResponse } from 'node:http';
import type { ProviderStreamPart, Usage } from '../canonical';
import { type AnswerFacts, finishReasonsOf } from '../tracing/call-trace';
import { GatewayError, toGatewayError } from '../errors';
import { CoalescingWriter } from '../http/send';
import type { StreamEncoder } from '../protocols/types';
import { StreamMeter } from '../stream/meter';
import { estimateRequestTokens } from '../tokenizer';
import type { Call } from './call';
import type { Lifecycle } from './lifecycle';
import { logRequest } from '../log';
import type { OpenedStream, Served } from './provider-call';
import type { StreamEnd, TextHold } from './quota-hold';
import { type RateSlot, usedTokens } from '../rate-limit/slot';
import { WARNINGS_HEADER, warningsHeader } from '../warnings';

/**
 * Headers of every streamed response (a codec may override them). No `connection` header: Node
 * sends `keep-alive` itself, or `close` when the client asked to close; naming it here would
 * override the client's `Connection: close`.
 */
const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/**
 * Streams the answer. The provider's first part has been read (`opened`, with the call's warnings,
 * which go out in the `x-rosetta-warnings` header), nothing sent yet. From
 * here the hold is this function's: settled however the stream ends, a finished or cancelled
 * stream charged what was produced, one the upstream broke only with `chargeFailedStreams`.
 * `beforeFinish` runs once the `finish` part is encoded, before it is written (it must not throw). `rateSlot`'s
 * headers go out with the stream's first byte, and it is settled with the tokens the stream used, however it ended.
 */
export async function streamResponse(
  encoder: StreamEncoder,
  call: Call,
  hold: TextHold,
  opened: Served<OpenedStream>,
  lifecycle: Lifecycle,
  chargeFailedStreams: boolean,
  beforeFinish?: () => Promise<void>,
  rateSlot?: RateSlot,
): Promise<void> {
  const {
    model,
    value: { iterator, first },
  } = opened;
  const { requestId, cancellation: signal, response } = call;
  const meter = new StreamMeter(hold.request, hold.countedInput ?? estimateRequestTokens(hold.request));
  const writer = new CoalescingWriter(response);
  let ended: StreamEnd;
  let part: ProviderStreamPart = first.type === 'response-start' ? { ...first, model: model.id } : first;
  lifecycle.openStreams++;
  try {
    const headers: Record<string, string> = Object.assign(
      { 'x-request-id': requestId },
      SSE_HEADERS,
      encoder.headers,
      rateSlot?.headers,
    );
    // The warnings known before the first byte: the codec's and the provider's (which encoded its body to open the
    // stream).
    const warned = warningsHeader(opened.warnings);
    if (warned !== undefined) headers[WARNINGS_HEADER] = warned;
    response.writeHead(200, headers);
    call.firstByte = Date.now();
    // Each part: meter it (which completes its usage figures), encode it, queue its text (one
    // socket write per tick), then the next one. A failure or an early end after the first part
    // becomes an `error` part: the response has started. So does a part that cannot be metered
    // or encoded (a provider's malformed part); if the error part cannot be encoded either,
    // `fail` cuts the connection rather than leave the caller waiting.
    for (;;) {
      let text: string;
      try {
        text = encoder.encode(meter.observe(part));
      } catch (error) {
        if (part.type === 'error') throw error;
        logRequest('%s a %s part could not be metered or encoded: %O', requestId, part.type, error);
        part = { type: 'error', error: toGatewayError(error) };
        continue;
      }
      // A stored answer is kept before its last event leaves: a caller that continues it at once finds it.
      if (part.type === 'finish' && beforeFinish) await beforeFinish();
      if (text.length > 0 && !writer.write(text)) await drained(response);
      if (part.type === 'finish') ended = 'completed';
      else if (part.type === 'error' && !signal.aborted) ended = 'failed';
      if (part.type === 'finish' || part.type === 'error' || signal.aborted) break;
      let next: IteratorResult<ProviderStreamPart>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (signal.aborted) break;
        part = { type: 'error', error: toGatewayError(error) };
        continue;
      }
      if (next.done) {
        if (signal.aborted) break;
        part = { type: 'error', error: new GatewayError('upstream', 'The upstream stream ended before it finished.') };
        continue;
      }
      part = next.value;
    }
    const shutdown = lifecycle.shutdownReason;
    if (shutdown && signal.reason === shutdown && part.type !== 'finish' && part.type !== 'error')
      writeShutdownEvent(encoder, meter, writer, shutdown);
    writer.end();
  } finally {
    lifecycle.openStreams--;
    await iterator.return?.()?.catch(() => undefined);
    const usage = meter.usage();
    call.usage = usage;
    if (call.trace.recording) traceStream(call, first, part, usage, meter);
    else call.trace.endAttempt();
    endedEarly(call, ended, part, lifecycle);
    // Its deployment's health (docs/routing.md): a stream the upstream broke is that deployment's failure.
    call.deployment?.streamEnded(ended === 'failed' ? call.failure : undefined, requestId);
    await hold.settleStream(ended, signal.aborted, usage, model, chargeFailedStreams);
    if (rateSlot) await rateSlot.settle(usedTokens(usage));
  }
}

/**
 * What the usage record says of a stream that did not finish: the caller left (`cancelled`), or it
 * failed with its error part's error, or `close()` cut it. A write that threw is the pipeline's to
 * record (it is thrown on).
 */
function endedEarly(call: Call, ended: StreamEnd, last: ProviderStreamPart, lifecycle: Lifecycle): void {
  if (ended === 'completed') return;
  const signal = call.cancellation;
  if (ended === 'failed' && last.type === 'error') call.failure = toGatewayError(last.error);
  else if (signal.aborted && signal.reason === lifecycle.shutdownReason) call.failure = lifecycle.shutdownReason;
  else if (signal.aborted) call.cancelled = true;
}

/** Records the stream's answer on its attempt's span and the call's, and ends the attempt's span. */
function traceStream(
  call: Call,
  first: ProviderStreamPart,
  last: ProviderStreamPart,
  usage: Usage,
  meter: StreamMeter,
) {
  const facts: AnswerFacts = {};
  if (first.type === 'response-start') {
    facts.id = first.id;
    facts.model = first.model;
  }
  if (last.type === 'finish') facts.finishReasons = finishReasonsOf([last.finishReason]);
  call.answer = facts;
  call.trace.answered(facts, usage);
  if (call.trace.owner.captureContent) call.streamedText = meter.outputText();
  call.trace.endAttempt(last.type === 'error' ? toGatewayError(last.error) : undefined);
}

/** Ends a stream cut by `close()` with the protocol's error event (nothing, if it cannot be encoded). */
function writeShutdownEvent(
  encoder: StreamEncoder,
  meter: StreamMeter,
  writer: CoalescingWriter,
  reason: GatewayError,
): void {
  try {
    writer.write(encoder.encode(meter.observe({ type: 'error', error: reason })));
  } catch (error) {
    logRequest('the shutdown error event could not be encoded: %O', error);
  }
}

/** Resolves when a response can take more data, or is gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
