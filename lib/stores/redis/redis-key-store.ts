/** A key store in Redis: keys kept as SHA-256 digests, shared by every gateway instance, matched in constant time. */
import { argumentError, knownOptions } from '../../config-check';
import { createHash, timingSafeEqual } from 'node:crypto';
import { checkEntryRateLimits, fingerprintKey, type MemoryKeyEntry } from '../memory-key-store';
import type { KeyRateLimits, KeyStore, Principal } from '../types';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';
import { KEY_SCRIPTS } from './scripts';

const STORE = 'RedisKeyStore';

/** Options of {@link RedisKeyStore}. */
export interface RedisKeyStoreOptions extends RedisConnectionOptions {
  /** Prepended to every Redis key, so several gateways (or apps) can share one Redis. Default `rosetta:`. */
  prefix?: string;
}

/** One key of a {@link RedisKeyStore}: the same shape as a {@link MemoryKeyEntry}. */
export type RedisKeyEntry = MemoryKeyEntry;

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES] as const;
const MAX_ATTEMPTS = 5;

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

function parseJson(field: string | undefined, what: string): unknown {
  if (field === undefined) return undefined;
  try {
    return JSON.parse(field);
  } catch (error) {
    throw new Error(`${STORE}: a stored key has unreadable ${what}.`, { cause: error });
  }
}

/**
 * Keys in Redis, shared by every gateway instance using the same Redis and prefix. The secret is
 * never stored: each key is a hash named by the SHA-256 digest of the secret, holding the principal
 * (`id`, `allowedModels`, `metadata`, `rateLimits`). `authenticate` looks the presented key's digest up and confirms
 * it with `crypto.timingSafeEqual`. Redis errors throw (the gateway answers 503).
 *
 * @example
 * ```ts
 * const keyStore = new RedisKeyStore({ connection: process.env.REDIS_URL });
 * await keyStore.init();
 * await keyStore.add({ key: 'sk-alice-…', id: 'alice', allowedModels: ['rosetta-echo'] });
 * ```
 */
export class RedisKeyStore extends RedisStoreBase implements KeyStore {
  /** The key prefix in use. */
  readonly prefix: string;
  protected readonly link: RedisLink;

  constructor(options: RedisKeyStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    this.link = new RedisLink(STORE, options, Object.values(KEY_SCRIPTS));
  }

  /** The principal of a key, or `undefined`: one HGETALL by the key's digest, confirmed in constant time. */
  async authenticate(key: string): Promise<Principal | undefined> {
    const digest = digestOf(key);
    const hex = digest.toString('hex');
    const record = await this.client.hgetall(this.recordKey(hex));
    if (typeof record.digest !== 'string' || typeof record.id !== 'string') return undefined;
    const stored = Buffer.from(record.digest, 'hex');
    if (stored.length !== digest.length || !timingSafeEqual(stored, digest)) return undefined;
    const allowedModels = parseJson(record.allowedModels, 'allowedModels') as string[] | undefined;
    const metadata = parseJson(record.metadata, 'metadata') as Record<string, unknown> | undefined;
    const rateLimits = parseJson(record.rateLimits, 'rateLimits') as KeyRateLimits | undefined;
    return {
      id: record.id,
      ...(allowedModels ? { allowedModels } : {}),
      ...(metadata ? { metadata } : {}),
      ...(rateLimits ? { rateLimits } : {}),
    };
  }

  /**
   * Adds (or replaces) a key and returns its principal. The default id is {@link fingerprintKey}'s, as in
   * `MemoryKeyStore`.
   */
  async add(entry: RedisKeyEntry): Promise<Principal> {
    if (entry === null || typeof entry !== 'object' || typeof entry.key !== 'string' || entry.key.length === 0) {
      argumentError(STORE, 'key', 'must be a non-empty string.');
    }
    const id = entry.id ?? fingerprintKey(entry.key);
    if (typeof id !== 'string' || id.length === 0) argumentError(STORE, 'id', 'must be a non-empty string.');
    if (
      entry.allowedModels !== undefined &&
      !(Array.isArray(entry.allowedModels) && entry.allowedModels.every((model) => typeof model === 'string'))
    ) {
      argumentError(STORE, 'allowedModels', 'must be an array of model ids.');
    }
    if (entry.metadata !== undefined && (entry.metadata === null || typeof entry.metadata !== 'object'))
      argumentError(STORE, 'metadata', 'must be an object.');
    checkEntryRateLimits(STORE, entry.rateLimits);
    const principal: Principal = {
      id,
      ...(entry.allowedModels ? { allowedModels: [...entry.allowedModels] } : {}),
      ...(entry.metadata ? { metadata: entry.metadata } : {}),
      ...(entry.rateLimits ? { rateLimits: entry.rateLimits } : {}),
    };
    const hex = digestOf(entry.key).toString('hex');
    const record = this.recordKey(hex);
    const models = principal.allowedModels ? JSON.stringify(principal.allowedModels) : '';
    const metadata = principal.metadata ? JSON.stringify(principal.metadata) : '';
    const rateLimits = principal.rateLimits ? JSON.stringify(principal.rateLimits) : '';
    const previous = (await this.client.hget(record, 'id')) ?? '';
    const keys = [record, this.indexKey(id), this.indexKey(previous === '' ? id : previous)];
    const displaced = (await this.link.run(KEY_SCRIPTS.put, keys, [
      previous,
      hex,
      id,
      models,
      metadata,
      rateLimits,
    ])) as string;
    if (displaced !== '')
      await this.link.run(KEY_SCRIPTS.unindex, [record, this.indexKey(displaced)], [hex, displaced]);
    return principal;
  }

  /** Removes a key by its secret; returns whether it was stored. */
  async remove(key: string): Promise<boolean> {
    const hex = digestOf(key).toString('hex');
    const record = this.recordKey(hex);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const id = await this.client.hget(record, 'id');
      if (id === null) return false;
      if ((await this.link.run(KEY_SCRIPTS.remove, [record, this.indexKey(id)], [hex, id])) === 1) return true;
    }
    throw new Error(`${STORE}: the key changed ${MAX_ATTEMPTS} times while it was being removed; try again.`);
  }

  /**
   * Removes every key with this id (a principal may have several, e.g. during rotation); returns whether any was
   * removed.
   */
  async removeById(id: string): Promise<boolean> {
    const index = this.indexKey(id);
    let removed = false;
    for (const hex of await this.client.smembers(index)) {
      if ((await this.link.run(KEY_SCRIPTS.remove, [this.recordKey(hex), index], [hex, id])) === 1) removed = true;
    }
    return removed;
  }

  /** The Redis key of a key's record: the prefix, `key:` and the hex SHA-256 digest of the secret. */
  recordKey(digestHex: string): string {
    return `${this.prefix}key:${digestHex}`;
  }

  /** The Redis key of the set of digests that belong to an id. */
  indexKey(id: string): string {
    return `${this.prefix}key-id:${id}`;
  }
}
