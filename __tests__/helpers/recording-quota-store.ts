/**
 * A MemoryQuotaStore that records what the gateway asked of it: each reserve's amount and each settle's charge and
 * info.
 */
import {
  MemoryQuotaStore,
  type Reservation,
  type ReservationInfo,
  type ReserveResult,
  type SettleInfo,
} from '../../lib';

/** One settle as the store received it. */
export interface RecordedSettle {
  reservation: Reservation;
  actual: number;
  info: SettleInfo | undefined;
}

export class RecordingQuotaStore extends MemoryQuotaStore {
  /** The amount of every reserve, in order. */
  readonly reserves: number[] = [];
  readonly settles: RecordedSettle[] = [];
  readonly releases: Reservation[] = [];

  override reserve(keyId: string, amount: number, options: { minimum: number; info: ReservationInfo }): ReserveResult {
    this.reserves.push(amount);
    return super.reserve(keyId, amount, options);
  }

  override settle(reservation: Reservation, actual: number, info?: SettleInfo): void {
    this.settles.push({ reservation, actual, info });
    super.settle(reservation, actual);
  }

  override release(reservation: Reservation): void {
    this.releases.push(reservation);
    super.release(reservation);
  }
}
