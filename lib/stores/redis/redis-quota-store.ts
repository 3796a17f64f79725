/**
 * A quota store in Redis: one balance shared by every gateway instance, reserve/settle/release as atomic Lua scripts.
 */
import { argumentError, configError, knownOptions, positiveInteger, shown } from '../../config-check';
import { randomUUID } from 'node:crypto';
import type { QuotaStore, Reservation, ReservationInfo, ReserveResult } from '../types';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';
import { QUOTA_SCRIPTS } from './scripts';

const STORE = 'RedisQuotaStore';

/** Options of {@link RedisQuotaStore}. */
export interface RedisQuotaStoreOptions extends RedisConnectionOptions {
  /**
   * Prepended to every Redis key, so several gateways (or apps) can share one Redis: gateways that
   * should share balances use the same prefix. Default `rosetta:`.
   */
  prefix?: string;
  /**
   * How long a reservation holds its credits, in milliseconds. A hold that is neither settled nor
   * released by then (its instance died mid-call) goes back to the balance. Set it above your
   * longest call, streams included. Default 600,000 (10 minutes).
   */
  reservationTtlMs?: number;
  /**
   * How long after it lapsed a reservation can still be settled, in milliseconds: a settle that
   * arrives late still charges the usage (once); after this window it is ignored. Default 86,400,000 (24 hours).
   */
  lateSettleWindowMs?: number;
  /**
   * Units stored per credit. Balances, holds and charges are kept in Redis as integer units, so
   * fractional credits never accumulate rounding errors; each amount is rounded to the nearest unit.
   * The largest balance is `Number.MAX_SAFE_INTEGER / unitsPerCredit` credits (about 9 billion at
   * the default). Use `1` for whole credits only. Default 1,000,000 (micro-credits).
   */
  unitsPerCredit?: number;
  /**
   * Balance of a key id that has none set, in credits; `Infinity` makes such keys unmetered.
   * Default 0: a key spends nothing until {@link RedisQuotaStore.setBalance} gives it credits
   * (unlike `MemoryQuotaStore`, whose default is unmetered).
   */
  defaultBalance?: number;
  /**
   * At most this many lapsed reservations are returned to a balance per call (the rest on later calls). Default 100.
   */
  sweepLimit?: number;
}

/** A snapshot of a key's account in a {@link RedisQuotaStore}, in credits. */
export interface RedisAccount {
  /** What remains after settled charges (not counting holds); `Infinity` when unmetered. */
  balance: number;
  /** Held by open reservations. */
  reserved: number;
  /** Total charged so far. */
  spent: number;
  /** `balance - reserved`: what a new reservation could hold. */
  available: number;
  /** Open reservations. */
  open: number;
}

const OPTION_NAMES = [
  ...CONNECTION_OPTION_NAMES,
  'reservationTtlMs',
  'lateSettleWindowMs',
  'unitsPerCredit',
  'defaultBalance',
  'sweepLimit',
] as const;

function keyIdOf(keyId: unknown): string {
  if (typeof keyId !== 'string' || keyId.length === 0) argumentError(STORE, 'a key id', 'must be a non-empty string.');
  return keyId;
}

/**
 * Balances in Redis, shared by every gateway instance that uses the same Redis and prefix.
 *
 * Each `reserve`, `settle` and `release` is one Lua script (EVALSHA), so no interleaving of calls
 * from any number of instances can hold or charge more than a balance. Each reservation expires
 * after `reservationTtlMs`; the scripts themselves return expired holds to the balance (no
 * background job). The exact rules:
 *
 * - `reserve` holds `min(amount, available)` if that is at least `minimum` (and above 0), else refuses with
 *   `available`.
 * - `settle` of an open reservation charges `actual` and frees its hold. `settle` of a reservation that
 *   lapsed less than `lateSettleWindowMs` ago charges `actual` once (its hold was already freed), so
 *   no usage goes unbilled; the balance may then dip below zero by that charge.
 * - `release` frees an open hold; releasing a lapsed one does nothing.
 * - A second `settle` or `release` of a reservation, or one the store does not know, changes nothing.
 * - Any Redis failure throws (the gateway answers 503); nothing is retried, so nothing is charged twice.
 *
 * @example
 * ```ts
 * import { RedisKeyStore, RedisQuotaStore, createRedisClient } from 'rosetta-gateway/redis';
 * const client = createRedisClient(process.env.REDIS_URL);
 * const quotaStore = new RedisQuotaStore({ client });
 * await quotaStore.setBalance('alice', 100_000);
 * app.use(createGateway({ keyStore: new RedisKeyStore({ client }), quotaStore }));
 * ```
 */
export class RedisQuotaStore extends RedisStoreBase implements QuotaStore {
  /** The key prefix in use. */
  readonly prefix: string;
  protected readonly link: RedisLink;
  private readonly ttlMs: number;
  private readonly lateWindowMs: number;
  private readonly unitsPerCredit: number;
  private readonly defaultBalance: string;
  private readonly sweepLimit: number;

  constructor(options: RedisQuotaStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    this.ttlMs = positiveInteger(STORE, 'reservationTtlMs', options.reservationTtlMs, 600_000);
    this.lateWindowMs = positiveInteger(STORE, 'lateSettleWindowMs', options.lateSettleWindowMs, 86_400_000);
    this.unitsPerCredit = positiveInteger(STORE, 'unitsPerCredit', options.unitsPerCredit, 1_000_000);
    this.sweepLimit = positiveInteger(STORE, 'sweepLimit', options.sweepLimit, 100);
    const defaultBalance = options.defaultBalance ?? 0;
    if (typeof defaultBalance !== 'number' || !(defaultBalance >= 0))
      configError(
        STORE,
        'defaultBalance',
        `must be a number >= 0 (or Infinity for unmetered), not ${String(defaultBalance)}.`,
      );
    this.defaultBalance =
      defaultBalance === Infinity ? 'unmetered' : String(this.toUnits(defaultBalance, 'defaultBalance'));
    this.link = new RedisLink(STORE, options, Object.values(QUOTA_SCRIPTS));
  }

  /** Holds up to `amount` credits (at least `minimum`) in one script, or refuses with what is available. */
  async reserve(
    keyId: string,
    amount: number,
    options: { minimum: number; info?: ReservationInfo },
  ): Promise<ReserveResult> {
    const id = randomUUID();
    const amountUnits = this.toUnits(amount, 'amount');
    const minimumUnits = this.toUnits(options.minimum, 'minimum');
    const reply = (await this.link.run(QUOTA_SCRIPTS.reserve, this.accountKeys(keyIdOf(keyId)), [
      id,
      amountUnits,
      minimumUnits,
      this.ttlMs,
      this.lateWindowMs,
      this.sweepLimit,
      this.defaultBalance,
    ])) as [string, string];
    if (reply[0] !== 'held') {
      return {
        ok: false,
        reason: 'insufficient_balance',
        available: reply[1] === 'unmetered' ? Infinity : this.toCredits(reply[1]),
      };
    }
    const heldUnits = Number(reply[1]);
    return {
      ok: true,
      reservation: { id, keyId, amount: heldUnits === amountUnits ? amount : heldUnits / this.unitsPerCredit },
    };
  }

  /** Charges `actual` credits and frees the hold; charges a lapsed reservation once; otherwise does nothing. */
  async settle(reservation: Reservation, actual: number): Promise<void> {
    const charge = this.toUnits(Math.max(0, actual), 'actual');
    await this.link.run(QUOTA_SCRIPTS.settle, this.accountKeys(keyIdOf(reservation.keyId)), [
      reservation.id,
      charge,
      this.lateWindowMs,
      this.sweepLimit,
      this.defaultBalance,
    ]);
  }

  /** Frees an open hold without charging; does nothing for a reservation already closed or lapsed. */
  async release(reservation: Reservation): Promise<void> {
    await this.link.run(QUOTA_SCRIPTS.release, this.accountKeys(keyIdOf(reservation.keyId)), [
      reservation.id,
      this.lateWindowMs,
      this.sweepLimit,
    ]);
  }

  /**
   * Sets a key's balance in credits (what it may still spend, not counting calls in flight); `Infinity` makes it
   * unmetered.
   */
  async setBalance(keyId: string, balance: number): Promise<void> {
    if (typeof balance !== 'number' || !(balance >= 0))
      argumentError(STORE, `the balance of ${keyId}`, `must be a number >= 0, not ${shown(balance)}.`);
    const value = balance === Infinity ? 'unmetered' : String(this.toUnits(balance, 'balance'));
    await this.link.run(QUOTA_SCRIPTS.fund, [this.accountKeys(keyIdOf(keyId))[0]], ['set', value, this.defaultBalance]);
  }

  /** Adds credits to a key's balance atomically (a negative amount takes them away) and returns the new balance. */
  async addBalance(keyId: string, credits: number): Promise<number> {
    if (typeof credits !== 'number' || !Number.isFinite(credits))
      argumentError(STORE, 'credits to add', `must be a finite number, not ${shown(credits)}.`);
    const units = Math.sign(credits) * this.toUnits(Math.abs(credits), 'credits');
    const reply = await this.link.run(
      QUOTA_SCRIPTS.fund,
      [this.accountKeys(keyIdOf(keyId))[0]],
      ['add', units, this.defaultBalance],
    );
    return this.toCredits(reply as string);
  }

  /** A snapshot of a key's account (returning any lapsed holds first). */
  async getAccount(keyId: string): Promise<RedisAccount> {
    const [balance, reserved, spent, open] = (await this.link.run(
      QUOTA_SCRIPTS.account,
      this.accountKeys(keyIdOf(keyId)),
      [this.lateWindowMs, this.sweepLimit, this.defaultBalance],
    )) as [string, string, string, string];
    const balanceUnits = balance === 'unmetered' ? Infinity : Number(balance);
    return {
      balance: this.toCredits(balanceUnits),
      reserved: this.toCredits(reserved),
      spent: this.toCredits(spent),
      available: this.toCredits(balanceUnits - Number(reserved)),
      open: Number(open),
    };
  }

  /**
   * Deletes a key's account and its reservations (calls in flight then settle as unknown reservations: nothing is
   * charged).
   */
  async removeAccount(keyId: string): Promise<void> {
    await this.client.del(...this.accountKeys(keyIdOf(keyId)));
  }

  /**
   * The Redis keys of a key id's account: the account hash, the open holds, their expiries and the
   * lapsed reservations. The `{…}` hash tag keeps them in one slot.
   */
  accountKeys(keyId: string): [account: string, holds: string, expiry: string, lapsed: string] {
    const account = `${this.prefix}quota:{${keyId}}`;
    return [account, `${account}:holds`, `${account}:expiry`, `${account}:lapsed`];
  }

  private toUnits(credits: number, what: string): number {
    const units = Math.round(credits * this.unitsPerCredit);
    if (typeof credits !== 'number' || !(credits >= 0) || !Number.isSafeInteger(units)) {
      const most = Math.floor(Number.MAX_SAFE_INTEGER / this.unitsPerCredit);
      argumentError(STORE, what, `must be a number of credits from 0 to ${most}, not ${shown(credits)}.`);
    }
    return units;
  }

  private toCredits(units: string | number): number {
    return Number(units) / this.unitsPerCredit;
  }
}
