/**
 * The usage record of a finished call, built from the facts its {@link Call} gathered and handed to the gateway's
 * usage observers (the sink's delivery, the metrics): once per call, after it has settled and its response ended.
 */
import { countedByGateway } from '../tokenizer';
import type { UsageObservers } from '../usage/sink';
import type { UsageOutcome, UsageRecord } from '../usage/record';
import type { CapturedContent } from '../tracing/call-trace';
import type { Call } from './call';

/**
 * The status a call the caller left gets when no status was sent: nginx's "client closed request", which log
 * readers know.
 */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Builds the call's record, hands it to every observer and ends the call's span with it; without observers and
 * without a recording span nothing is built.
 */
export function emitUsage(observers: UsageObservers, call: Call, content?: () => CapturedContent | undefined): void {
  const tracing = call.trace.recording;
  const record = observers.active || tracing ? usageRecordOf(call, Date.now()) : undefined;
  if (record && observers.active) observers.emit(record);
  call.trace.end(record, call.answer, tracing && content ? content() : undefined);
}

/** The record of a call that has settled and whose response has ended at `ended` (epoch ms). */
export function usageRecordOf(call: Call, ended: number): UsageRecord {
  const { failure, response, resolved, attempts, hold, usage } = call;
  const outcome: UsageOutcome = call.cancelled ? 'cancelled' : failure ? 'error' : 'ok';
  const status = response.headersSent
    ? response.statusCode
    : outcome === 'cancelled'
      ? CLIENT_CLOSED_STATUS
      : (failure?.status ?? response.statusCode);
  const record: UsageRecord = {
    requestId: call.requestId,
    protocol: call.protocol,
    operation: call.operation,
    stream: call.stream,
    attempts,
    outcome,
    status,
    credits: { held: hold?.reservation.amount ?? 0, charged: hold?.charged ?? 0 },
    timings: { received: call.received, ended },
  };
  if (call.principal) record.keyId = call.principal.id;
  if (call.model) record.requestedModel = call.model;
  if (resolved) {
    record.model = resolved.id;
    const last = attempts[attempts.length - 1];
    record.provider = last?.provider ?? resolved.provider.name;
    record.upstreamModel = last?.upstreamModel ?? resolved.upstreamModel;
  }
  const deployment = call.deployment;
  if (deployment) {
    record.deployment = deployment.deployment.name;
    if (deployment.affinity) record.affinity = deployment.affinity;
  }
  if (failure) record.error = { kind: failure.kind, status: failure.status, message: failure.message };
  if (usage) {
    record.usage = usage;
    record.usageSource = countedByGateway(usage) ? 'gateway' : 'upstream';
  }
  if (call.images !== undefined) record.images = call.images;
  if (hold?.split) record.credits.split = hold.split;
  if (hold?.settlement) record.credits.settlement = hold.settlement;
  if (call.firstByte !== undefined) record.timings.firstByte = call.firstByte;
  return record;
}
