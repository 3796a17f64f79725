/**
 * What a call holds once admitted: its rate-limit slot, when a limit counts it, and its quota hold, when it is
 * charged; settled together when the call is served, released together when it fails.
 */
import type { ResolvedModel } from '../models';
import type { CostEstimate } from '../quota';
import type { CreditSplit } from '../usage/record';
import type { Call } from './call';
import type { GatewayParts } from './parts';
import { QuotaHold } from './quota-hold';
import type { RateSlot } from '../rate-limit/slot';

/** What a served call is charged: the credits (split by what they paid for) and the tokens its rate limits count. */
export interface Charge {
  credits: CreditSplit;
  tokens: number;
}

/** A call's rate-limit slot and quota hold. */
export class Admission<H extends QuotaHold | undefined = QuotaHold | undefined> {
  constructor(
    readonly slot: RateSlot | undefined,
    readonly hold: H,
  ) {}

  /** Charges the hold, then settles the slot with the tokens used (the slot even when the hold's store fails). */
  async settle(charge: Charge): Promise<void> {
    try {
      await this.hold?.settle(charge.credits.total, 'completed', charge.credits);
    } finally {
      await this.slot?.settle(charge.tokens);
    }
  }

  /** Gives back whatever is not yet settled (the call failed). */
  async release(): Promise<void> {
    await this.hold?.release();
    await this.slot?.release();
  }
}

/**
 * Admits a call whose hold does not depend on its output (an image, an embedding): its rate limits on `tokens`, then
 * its hold at `estimate`. A refused hold gives the rate-limit slot back.
 */
export async function admitAndHold(
  gateway: GatewayParts,
  call: Call,
  model: ResolvedModel,
  tokens: number,
  estimate: CostEstimate,
  operation: 'image' | 'embed',
): Promise<Admission<QuotaHold>> {
  const { requestId, caller } = call;
  const limiter = gateway.config.rateLimiter;
  const slot = limiter.applies(caller)
    ? await limiter.admit(caller, model, call.model, tokens, requestId, call.rateLimitHeaders)
    : undefined;
  try {
    const hold = await QuotaHold.reserve(gateway.config.quotaStore, caller, estimate, model, operation, requestId);
    call.hold = hold;
    return new Admission(slot, hold);
  } catch (error) {
    await slot?.release();
    throw error;
  }
}
