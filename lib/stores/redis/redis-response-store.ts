/**
 * A response store in Redis: one string per record, its JSON, and one per item id naming the record, all expiring after
 * the store's TTL; shared by every gateway instance.
 */
import { recordItem, recordItemIds } from '../record-items';
import type { ResponseStore, StoredResponse } from '../types';
import { configError, knownOptions } from '../../config-check';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';

const STORE = 'RedisResponseStore';

/** Options of {@link RedisResponseStore}. */
export interface RedisResponseStoreOptions extends RedisConnectionOptions {
  /** Prepended to every Redis key, so several gateways (or apps) can share one Redis. Default `rosetta:`. */
  prefix?: string;
  /**
   * How long a record is kept after it was stored, in whole seconds. Default 30 days, as long as OpenAI keeps a stored
   * response.
   */
  ttlSeconds?: number;
}

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES, 'ttlSeconds'] as const;
const DEFAULT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Records in Redis, each a string key holding the record's JSON with an expiry (`SET … EX`), so
 * every gateway instance on the same Redis and prefix reads what any of them stored. Redis's own
 * `maxmemory` policy bounds the size (records are volatile keys: `volatile-lru` evicts them before
 * keys without an expiry, such as the key store's). Redis errors throw (the gateway answers 503).
 *
 * @example
 * ```ts
 * const client = createRedisClient(process.env.REDIS_URL);
 * createGateway({ keyStore, responseStore: new RedisResponseStore({ client }) });
 * ```
 */
export class RedisResponseStore extends RedisStoreBase implements ResponseStore {
  /** The key prefix in use. */
  readonly prefix: string;
  /** Seconds a record is kept. */
  readonly ttlSeconds: number;
  protected readonly link: RedisLink;

  constructor(options: RedisResponseStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    if (!Number.isSafeInteger(ttl) || ttl <= 0)
      configError(STORE, 'ttlSeconds', `must be a positive whole number of seconds, not ${String(ttl)}.`);
    this.ttlSeconds = ttl;
    this.link = new RedisLink(STORE, options, []);
  }

  /** Writes the record and its item index entries (each the record's id) in one transaction, with the same expiry. */
  async put(owner: string, id: string, record: StoredResponse): Promise<void> {
    const write = this.client.multi().set(this.recordKey(owner, id), JSON.stringify(record), 'EX', this.ttlSeconds);
    for (const itemId of recordItemIds(record)) write.set(this.itemKey(owner, itemId), id, 'EX', this.ttlSeconds);
    const results = await write.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw new Error(`${STORE}: a response could not be stored.`, { cause: failed?.[0] });
  }

  async findItem(owner: string, itemId: string): Promise<Record<string, unknown> | undefined> {
    const id = await this.client.get(this.itemKey(owner, itemId));
    const record = id === null ? undefined : await this.get(owner, id);
    return record && recordItem(record, itemId);
  }

  async get(owner: string, id: string): Promise<StoredResponse | undefined> {
    const json = await this.client.get(this.recordKey(owner, id));
    if (json === null) return undefined;
    try {
      return JSON.parse(json) as StoredResponse;
    } catch (error) {
      throw new Error(`${STORE}: a stored response is unreadable.`, { cause: error });
    }
  }

  async delete(owner: string, id: string): Promise<boolean> {
    return (await this.client.del(this.recordKey(owner, id))) === 1;
  }

  /**
   * The Redis key of a record: the prefix, `response:`, the owner (length-prefixed, so no owner's keys can collide with
   * another's) and the id.
   */
  recordKey(owner: string, id: string): string {
    return `${this.prefix}response:${owner.length}:${owner}:${id}`;
  }

  /** The Redis key of an item's index entry (its value the id of the record holding it), laid out as a record's. */
  itemKey(owner: string, itemId: string): string {
    return `${this.prefix}response-item:${owner.length}:${owner}:${itemId}`;
  }
}
