/**
 * A call's quota hold, one object per charged call: reserved before the provider is called (a text
 * call at its upper bound, its output capped to what a partial hold pays for), then settled with
 * what the call cost (an overrun charged in full and reported) or released when it failed.
 */
import type { GenerateRequest, Usage } from '../canonical';
import { GatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import { affordableOutputTokens, creditsForUsage, estimateGenerate, type CostEstimate } from '../quota';
import type { Principal, QuotaStore, Reservation, ReservationInfo, ReserveResult, Settlement } from '../stores/types';
import type { CreditSplit } from '../usage/record';
import { boundInput, type InputBound } from './input-tokens';
import { logQuota } from '../log';

/**
 * How a stream ended for its settlement: `finish` reached, an upstream failure, or neither (the caller left, or a write
 * threw).
 */
export type StreamEnd = 'completed' | 'failed' | undefined;

/**
 * A reservation held for one call, and the store it is settled or released in: once. After a
 * settle or release the store accepted, a later one does nothing (a stream settles its own hold,
 * and the failure it then throws must not release that hold again).
 */
export class QuotaHold {
  private finished = false;
  /** What the store accepted as the charge (0 until a settle succeeds; a released hold stays 0). */
  charged = 0;
  /** How the call was settled, once a settle succeeded. */
  settlement: Settlement | undefined;
  /** The charge split by what it paid for, when the settle was given one. */
  split: CreditSplit | undefined;

  constructor(
    private readonly store: QuotaStore,
    readonly reservation: Reservation,
    protected readonly requestId: string,
  ) {}

  /** Holds `estimate` for a call of `operation` (403 `insufficient_quota` when the key cannot pay its minimum). */
  static async reserve(
    store: QuotaStore,
    principal: Principal,
    estimate: CostEstimate,
    model: ResolvedModel,
    operation: ReservationInfo['operation'],
    requestId: string,
  ): Promise<QuotaHold> {
    return new QuotaHold(store, await reserve(store, principal, estimate, model, operation, requestId), requestId);
  }

  /**
   * Charges the call. A charge beyond the hold (an upstream that reported more than the bound) is an
   * overrun: charged in full, never clamped, logged, and told to the store with the settlement.
   * `split` (the charge by kind) is kept beside it for the usage record.
   */
  async settle(charge: number, settlement: Settlement, split?: CreditSplit): Promise<void> {
    if (this.finished) return;
    const reservation = this.reservation;
    const overrun = Math.max(0, charge - reservation.amount);
    try {
      await this.store.settle(reservation, charge, { settlement, overrun });
    } catch (error) {
      throw new GatewayError('unavailable', 'The quota store is unavailable; try again later.', {
        cause: error,
        retryAfter: 1,
      });
    }
    this.finished = true;
    this.charged = charge;
    this.settlement = settlement;
    this.split = split;
    if (overrun > 0)
      logQuota(
        '%s overrun: charged %d, %d beyond the %d held (%s)',
        this.requestId,
        charge,
        overrun,
        reservation.amount,
        settlement,
      );
    else
      logQuota(
        '%s settled %s: charged %d of %d held (%s)',
        this.requestId,
        reservation.id,
        charge,
        reservation.amount,
        settlement,
      );
  }

  /** Settles after the response has gone out: a failing store is logged, not thrown. */
  async settleQuietly(charge: number, settlement: Settlement, split?: CreditSplit): Promise<void> {
    try {
      await this.settle(charge, settlement, split);
    } catch (error) {
      logQuota(
        '%s settle of %s (charge %d, %s) failed: %O',
        this.requestId,
        this.reservation.id,
        charge,
        settlement,
        error,
      );
    }
  }

  /** Frees the whole hold without charging (the call failed); a failing store is logged, not thrown. */
  async release(): Promise<void> {
    if (this.finished) return;
    this.finished = await release(this.store, this.reservation);
  }
}

/** The hold of a text call, with the request as its provider gets it. */
export class TextHold extends QuotaHold {
  constructor(
    store: QuotaStore,
    reservation: Reservation,
    requestId: string,
    /** The request as the provider gets it: the model's public id, and the output cap the hold pays for. */
    readonly request: GenerateRequest,
    /** The requested model's own input count, when its provider has `countTokens`. */
    readonly countedInput: number | undefined,
  ) {
    super(store, reservation, requestId);
  }

  /**
   * Reserves a text call at its upper bound (its input bounded over the fallback chain, the largest estimate of
   * the chain's models); a partial hold lowers the call's output cap to what it pays for at every one of them. `known`: the bound
   * already found (by the rate-limit step).
   */
  static async reserveText(
    store: QuotaStore,
    request: GenerateRequest,
    model: ResolvedModel,
    principal: Principal,
    requestId: string,
    known?: InputBound,
  ): Promise<TextHold> {
    const { bound, counted } = known ?? (await boundInput(request, model, requestId));
    const estimate = chainEstimate(request, model.chain, bound);
    const reservation = await reserve(store, principal, estimate, model, 'generate', requestId);
    const maxOutputTokens = request.maxOutputTokens ?? model.maxOutputTokens;
    if (reservation.amount >= estimate.amount) {
      return new TextHold(store, reservation, requestId, { ...request, model: model.id, maxOutputTokens }, counted);
    }
    const affordable = chainAffordable(request, model.chain, bound, reservation.amount) ?? maxOutputTokens;
    logQuota(
      '%s partial hold %d of %d: output capped at %d tokens',
      requestId,
      reservation.amount,
      estimate.amount,
      affordable,
    );
    const capped = { ...request, model: model.id, maxOutputTokens: Math.min(maxOutputTokens, affordable) };
    return new TextHold(store, reservation, requestId, capped, counted);
  }

  /**
   * Settles a stream however it ended: finished, or cancelled by the caller (who pays for what was
   * produced), or failed for any other reason — an upstream error part, an early end, a part that
   * could not be encoded, a write that threw — charged only with `chargeFailedStreams`
   * (docs/stores.md, "Failed streams"). `usage` is what the stream's meter counted. The response is
   * out, so a failing store is logged.
   */
  settleStream(
    ended: StreamEnd,
    aborted: boolean,
    usage: Usage,
    model: ResolvedModel,
    chargeFailedStreams: boolean,
  ): Promise<void> {
    let settlement: Settlement;
    if (ended === 'completed') settlement = 'completed';
    else if (ended === undefined && aborted) settlement = 'cancelled';
    else settlement = chargeFailedStreams ? 'failed-charged' : 'failed-free';
    const credits = settlement === 'failed-free' ? undefined : creditsForUsage(usage, model);
    return this.settleQuietly(credits?.total ?? 0, settlement, credits);
  }
}

/**
 * Refuses (403 `insufficient_quota`) a key with nothing to spend before work is done for it that
 * no hold pays for (counting tokens, reading a large body): a hold of one credit, minimum 0, released at once.
 */
export async function requireBalance(store: QuotaStore, principal: Principal, info: ReservationInfo): Promise<void> {
  await release(store, await reserveFor(store, principal, { amount: 1, minimum: 0 }, info));
}

function reserve(
  store: QuotaStore,
  principal: Principal,
  estimate: CostEstimate,
  model: ResolvedModel,
  operation: ReservationInfo['operation'],
  requestId: string,
): Promise<Reservation> {
  return reserveFor(store, principal, estimate, { model: model.id, operation, requestId });
}

async function reserveFor(
  store: QuotaStore,
  principal: Principal,
  estimate: CostEstimate,
  info: ReservationInfo,
): Promise<Reservation> {
  const requestId = info.requestId;
  let outcome: ReserveResult;
  try {
    outcome = await store.reserve(principal.id, estimate.amount, { minimum: estimate.minimum, info });
  } catch (error) {
    throw new GatewayError('unavailable', 'The quota store is unavailable; try again later.', {
      cause: error,
      retryAfter: 1,
    });
  }
  if (!outcome.ok) {
    const needs = estimate.minimum > 0 ? `; the request needs at least ${estimate.minimum}` : '';
    const available =
      outcome.available === undefined ? '' : ` This key has ${outcome.available} credits available${needs}.`;
    throw new GatewayError(
      'insufficient_quota',
      outcome.message ?? `Insufficient balance for this request.${available}`,
      { code: 'insufficient_quota' },
    );
  }
  logQuota('%s reserved %d for %s', requestId, outcome.reservation.amount, principal.id);
  return outcome.reservation;
}

/** Releases a reservation; false when the store failed (logged, not thrown). */
async function release(store: QuotaStore, reservation: Reservation): Promise<boolean> {
  try {
    await store.release(reservation);
    logQuota('released %s', reservation.id);
    return true;
  } catch (error) {
    logQuota('release of %s failed: %O', reservation.id, error);
    return false;
  }
}

/**
 * What a text call holds over its fallback chain: the largest estimate of any model of it, each at its own prices
 * (input at its dearest, docs/operations.md "Holds"), so whichever model answers, the charge stays within the hold.
 */
function chainEstimate(request: GenerateRequest, chain: readonly ResolvedModel[], bound: number): CostEstimate {
  let amount = 0;
  let minimum = 0;
  for (const model of chain) {
    const estimate = estimateGenerate(request, model, bound);
    amount = Math.max(amount, estimate.amount);
    minimum = Math.max(minimum, estimate.minimum);
  }
  return { amount, minimum };
}

/** The output cap a partial hold pays for at every model of the chain (undefined when no model prices output). */
function chainAffordable(
  request: GenerateRequest,
  chain: readonly ResolvedModel[],
  bound: number,
  held: number,
): number | undefined {
  let cap: number | undefined;
  for (const model of chain) {
    const affordable = affordableOutputTokens(request, model, bound, held);
    if (affordable !== undefined) cap = cap === undefined ? affordable : Math.min(cap, affordable);
  }
  return cap;
}
