/** The default quota store: per-key balances in memory, reserve/settle/release as synchronous steps. */
import { argumentError, shown } from '../config-check';
import type { QuotaStore, Reservation, ReservationInfo, ReserveResult } from './types';

/** Options of {@link MemoryQuotaStore}. */
export interface MemoryQuotaStoreOptions {
  /** Starting balances by key id. */
  balances?: Record<string, number>;
  /** Balance of a key id not listed in `balances`. Default: `Infinity` (unmetered). */
  defaultBalance?: number;
}

/** A key's account: `balance` is what remains after settled charges; `reserved` is held by calls in flight. */
export interface MemoryAccount {
  balance: number;
  reserved: number;
  /** Total charged so far. */
  spent: number;
  /** Credits charged beyond their holds so far (settles whose upstream reported more than the bound). */
  overrun: number;
}

/**
 * Balances in memory. Every method runs to completion without awaiting, so on Node's single thread
 * no interleaving of concurrent calls can hold or charge more than a balance.
 */
export class MemoryQuotaStore implements QuotaStore {
  private readonly accounts = new Map<string, MemoryAccount>();
  private readonly open = new Map<string, Reservation>();
  private sequence = 0;
  private readonly defaultBalance: number;

  constructor(options: MemoryQuotaStoreOptions = {}) {
    this.defaultBalance = options.defaultBalance ?? Infinity;
    for (const [keyId, balance] of Object.entries(options.balances ?? {})) this.setBalance(keyId, balance);
  }

  /** Sets a key's balance (what it may still spend, not counting calls in flight). */
  setBalance(keyId: string, balance: number): void {
    if (typeof balance !== 'number' || !(balance >= 0))
      argumentError('MemoryQuotaStore', `the balance of ${keyId}`, `must be a number >= 0, not ${shown(balance)}.`);
    this.account(keyId).balance = balance;
  }

  /** A snapshot of a key's account. */
  getAccount(keyId: string): Readonly<MemoryAccount> & { available: number } {
    const account = this.account(keyId);
    return { ...account, available: account.balance - account.reserved };
  }

  reserve(keyId: string, amount: number, options: { minimum: number; info: ReservationInfo }): ReserveResult {
    const account = this.account(keyId);
    const available = account.balance - account.reserved;
    const held = Math.min(amount, available);
    if (held < options.minimum || held <= 0) {
      return { ok: false, reason: 'insufficient_balance', available: Math.max(0, available) };
    }
    account.reserved += held;
    // A sequence number is unique within this store, which is all an id here needs to be (and, unlike
    // a UUID string, built by concatenation, it costs a few bytes while the reservation is open).
    const reservation: Reservation = { id: `r${(++this.sequence).toString(36)}`, keyId, amount: held };
    this.open.set(reservation.id, reservation);
    return { ok: true, reservation };
  }

  /**
   * Charges `actual` in full, even beyond the hold (the balance may then go below 0, and the key is refused until
   * funded).
   */
  settle(reservation: Reservation, actual: number): void {
    if (!this.open.delete(reservation.id)) return;
    const account = this.account(reservation.keyId);
    const charge = Math.max(0, actual);
    account.reserved -= reservation.amount;
    account.balance -= charge;
    account.spent += charge;
    if (charge > reservation.amount) account.overrun += charge - reservation.amount;
  }

  release(reservation: Reservation): void {
    if (!this.open.delete(reservation.id)) return;
    this.account(reservation.keyId).reserved -= reservation.amount;
  }

  private account(keyId: string): MemoryAccount {
    let account = this.accounts.get(keyId);
    if (!account) {
      account = { balance: this.defaultBalance, reserved: 0, spent: 0, overrun: 0 };
      this.accounts.set(keyId, account);
    }
    return account;
  }
}
