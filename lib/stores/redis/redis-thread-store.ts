/**
 * A thread store in Redis: one string per turn of a message thread, its JSON, expiring after the idle lifetime; shared
 * by every gateway instance, so a continue may land on any of them.
 */
import type { StoredThread, ThreadStore } from '../types';
import { configError, knownOptions } from '../../config-check';
import {
  CONNECTION_OPTION_NAMES,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
  type RedisConnectionOptions,
} from './connection';

const STORE = 'RedisThreadStore';

/** Options of {@link RedisThreadStore}. */
export interface RedisThreadStoreOptions extends RedisConnectionOptions {
  /** Prepended to every Redis key, so several gateways (or apps) can share one Redis. Default `rosetta:`. */
  prefix?: string;
  /** How long a turn is kept after it was stored, in whole seconds. Default 300 (Anthropic's idle lifetime). */
  idleSeconds?: number;
}

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES, 'idleSeconds'] as const;
const DEFAULT_IDLE_SECONDS = 300;

/**
 * Turns in Redis, each a string key holding the turn's JSON with an expiry (`SET … EX`). Redis errors throw (the
 * gateway answers 503).
 *
 * @example
 * ```ts
 * createGateway({ keyStore, stores: { threads: new RedisThreadStore({ client }) } });
 * ```
 */
export class RedisThreadStore extends RedisStoreBase implements ThreadStore {
  /** The key prefix in use. */
  readonly prefix: string;
  /** Seconds a turn is kept. */
  readonly idleSeconds: number;
  protected readonly link: RedisLink;

  constructor(options: RedisThreadStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    const idle = options.idleSeconds ?? DEFAULT_IDLE_SECONDS;
    if (!Number.isSafeInteger(idle) || idle <= 0)
      configError(STORE, 'idleSeconds', `must be a positive whole number of seconds, not ${String(idle)}.`);
    this.idleSeconds = idle;
    this.link = new RedisLink(STORE, options, []);
  }

  async put(owner: string, id: string, thread: StoredThread): Promise<void> {
    await this.client.set(this.threadKey(owner, id), JSON.stringify(thread), 'EX', this.idleSeconds);
  }

  async get(owner: string, id: string): Promise<StoredThread | undefined> {
    const json = await this.client.get(this.threadKey(owner, id));
    if (json === null) return undefined;
    try {
      return JSON.parse(json) as StoredThread;
    } catch (error) {
      throw new Error(`${STORE}: a stored thread is unreadable.`, { cause: error });
    }
  }

  async delete(owner: string, id: string): Promise<boolean> {
    return (await this.client.del(this.threadKey(owner, id))) === 1;
  }

  /** The Redis key of a turn: the prefix, `thread:`, the owner (length-prefixed, so owners cannot collide) and the id. */
  threadKey(owner: string, id: string): string {
    return `${this.prefix}thread:${owner.length}:${owner}:${id}`;
  }
}
