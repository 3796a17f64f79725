/**
 * The in-memory thread store: each turn of a message thread as JSON, kept for an idle lifetime, within a cap on entries
 * and bytes, the oldest evicted first.
 */
import { configError, knownOptions, shown } from '../config-check';
import type { StoredThread, ThreadStore } from './types';

/** Options of {@link MemoryThreadStore} (each a positive number). */
export interface MemoryThreadStoreOptions {
  /** How long a turn is kept after it was stored, in seconds. Default 300: Anthropic's 5 minutes after a last request. */
  idleSeconds?: number;
  /** The most turns kept; past it the oldest are evicted. Default 10,000. */
  maxEntries?: number;
  /** The most bytes of turns (their JSON, UTF-8) kept; a turn larger than this alone is not kept. Default 256 MiB. */
  maxBytes?: number;
}

/** The defaults of {@link MemoryThreadStoreOptions}. */
export const MEMORY_THREAD_STORE_DEFAULTS: Readonly<Required<MemoryThreadStoreOptions>> = Object.freeze({
  idleSeconds: 300,
  maxEntries: 10_000,
  maxBytes: 256 * 1024 * 1024,
});

const STORE = 'MemoryThreadStore';

interface Entry {
  json: string;
  bytes: number;
  expiresAt: number;
}

/**
 * Threads in this process's memory: a restart loses them (the SDK then replays the conversation), and gateways behind
 * a load balancer do not see each other's (use `RedisThreadStore` from `rosetta-gateway/redis` there). A turn that
 * was continued is deleted by the gateway, so the store holds about one turn per live thread.
 */
export class MemoryThreadStore implements ThreadStore {
  /** In the order stored: the first entry is the oldest. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly idleMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(options: MemoryThreadStoreOptions = {}) {
    knownOptions(STORE, options, Object.keys(MEMORY_THREAD_STORE_DEFAULTS));
    const positive = (name: keyof MemoryThreadStoreOptions): number => {
      const value = options[name] ?? MEMORY_THREAD_STORE_DEFAULTS[name];
      if (typeof value !== 'number' || !(value > 0))
        configError(STORE, name, `must be a positive number, not ${shown(value)}.`);
      return value;
    };
    this.idleMs = positive('idleSeconds') * 1000;
    this.maxEntries = positive('maxEntries');
    this.maxBytes = positive('maxBytes');
  }

  /** How many turns are kept, and their bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  put(owner: string, id: string, thread: StoredThread): void {
    const key = entryKey(owner, id);
    this.delete(owner, id);
    const json = JSON.stringify(thread);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.maxBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    this.entries.set(key, { json, bytes, expiresAt: Date.now() + this.idleMs });
    this.bytes += bytes;
  }

  get(owner: string, id: string): StoredThread | undefined {
    const key = entryKey(owner, id);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return JSON.parse(entry.json) as StoredThread;
    this.delete(owner, id);
    return undefined;
  }

  delete(owner: string, id: string): boolean {
    const key = entryKey(owner, id);
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return true;
  }
}

/** One map key per (owner, id), unambiguous whatever either contains. */
function entryKey(owner: string, id: string): string {
  return `${owner.length}:${owner}:${id}`;
}
