/**
 * The in-memory response store: records as JSON, kept for a TTL, within a cap on entries and bytes, least recently used
 * evicted first.
 */
import { configError, knownOptions, shown } from '../config-check';
import { recordItem, recordItemIds } from './record-items';
import type { ResponseStore, StoredResponse } from './types';

/** Options of {@link MemoryResponseStore} (each a positive number). */
export interface MemoryResponseStoreOptions {
  /**
   * How long a record is kept after it was stored, in seconds. Default 30 days, as long as OpenAI keeps a stored
   * response.
   */
  ttlSeconds?: number;
  /** The most records kept; past it the least recently used are evicted. Default 10,000. */
  maxEntries?: number;
  /**
   * The most bytes of records (their JSON, UTF-8) kept; past it the least recently used are evicted.
   * A record larger than this alone is not kept. Default 64 MiB.
   */
  maxBytes?: number;
}

/** The defaults of {@link MemoryResponseStoreOptions}. */
export const MEMORY_RESPONSE_STORE_DEFAULTS: Readonly<Required<MemoryResponseStoreOptions>> = Object.freeze({
  ttlSeconds: 30 * 24 * 60 * 60,
  maxEntries: 10_000,
  maxBytes: 64 * 1024 * 1024,
});

const STORE = 'MemoryResponseStore';
const OPTION_NAMES = Object.keys(MEMORY_RESPONSE_STORE_DEFAULTS);

interface Entry {
  json: string;
  bytes: number;
  expiresAt: number;
  /** The item index's keys of the record's items, removed with it. */
  itemKeys: string[];
}

function positive(options: MemoryResponseStoreOptions, name: keyof MemoryResponseStoreOptions): number {
  const value = options[name];
  if (value === undefined) return MEMORY_RESPONSE_STORE_DEFAULTS[name];
  if (typeof value !== 'number' || !(value > 0))
    configError(STORE, name, `must be a positive number, not ${shown(value)}.`);
  return value;
}

/**
 * Records in this process's memory: a restart loses them, and gateways behind a load balancer do
 * not see each other's (use `RedisResponseStore` from `rosetta-gateway/redis` there). Each record
 * is kept as its JSON, so what `get` returns is a fresh copy, and its size is what the cap counts.
 * A record is evicted when it expires (checked when it is read, and when the cap needs room) or
 * when the cap is reached, least recently stored or read first.
 */
export class MemoryResponseStore implements ResponseStore {
  /** In least-recently-used order: a read or a write moves a record to the end. */
  private readonly entries = new Map<string, Entry>();
  /** Item (owner, item id) → the key of the record put last that holds it. */
  private readonly items = new Map<string, string>();
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(options: MemoryResponseStoreOptions = {}) {
    knownOptions(STORE, options, OPTION_NAMES);
    this.ttlMs = positive(options, 'ttlSeconds') * 1000;
    this.maxEntries = positive(options, 'maxEntries');
    this.maxBytes = positive(options, 'maxBytes');
  }

  /** How many records are kept, and their bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  put(owner: string, id: string, record: StoredResponse): void {
    const key = entryKey(owner, id);
    this.remove(key);
    const json = JSON.stringify(record);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.maxBytes) return;
    const now = Date.now();
    this.evict(now, bytes);
    const itemKeys = recordItemIds(record).map((itemId) => entryKey(owner, itemId));
    for (const itemKey of itemKeys) this.items.set(itemKey, key);
    this.entries.set(key, { json, bytes, expiresAt: now + this.ttlMs, itemKeys });
    this.bytes += bytes;
  }

  get(owner: string, id: string): StoredResponse | undefined {
    return this.read(entryKey(owner, id));
  }

  findItem(owner: string, itemId: string): Record<string, unknown> | undefined {
    const key = this.items.get(entryKey(owner, itemId));
    const record = key === undefined ? undefined : this.read(key);
    return record && recordItem(record, itemId);
  }

  delete(owner: string, id: string): boolean {
    return this.remove(entryKey(owner, id));
  }

  /** The record under `key`, unless it expired; a read moves it to the most recently used end. */
  private read(key: string): StoredResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) {
      this.bytes -= entry.bytes;
      this.unindex(key, entry);
      return undefined;
    }
    this.entries.set(key, entry);
    return JSON.parse(entry.json) as StoredResponse;
  }

  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    this.unindex(key, entry);
    return true;
  }

  /** Drops the record's item index entries, those a later record took over excepted. */
  private unindex(key: string, entry: Entry): void {
    for (const itemKey of entry.itemKeys) if (this.items.get(itemKey) === key) this.items.delete(itemKey);
  }

  /** Makes room for one record of `bytes`: the expired first, then the least recently used. */
  private evict(now: number, bytes: number): void {
    if (this.entries.size + 1 <= this.maxEntries && this.bytes + bytes <= this.maxBytes) return;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size + 1 <= this.maxEntries && this.bytes + bytes <= this.maxBytes) return;
      this.remove(key);
    }
  }
}

/** One map key per (owner, id), unambiguous whatever either contains. */
function entryKey(owner: string, id: string): string {
  return `${owner.length}:${owner}:${id}`;
}
