/**
 * The Redis adapters' connection: fail-fast ioredis options, a client factory, readiness, scripts and option checks.
 */
import createDebug from 'debug';
import type { Redis, RedisOptions } from 'ioredis';
import { configError } from '../../config-check';
import type { ScriptDefinition } from './scripts';

const logRedis = createDebug('rosetta:redis');

/**
 * ioredis options that make a call fail at once when Redis is down (within 2 s when it stops answering), instead of
 * queueing it until Redis returns (the gateway then answers 503 at once):
 *
 * - `enableOfflineQueue: false` — a command sent while disconnected fails at once instead of waiting.
 * - `maxRetriesPerRequest: 0` — commands in flight when the connection drops fail at once, not after retries.
 * - `autoResendUnfulfilledCommands: false` — nothing is silently sent again after a reconnect.
 * - `commandTimeout: 2000` — a command without a reply in 2 s fails (a partition, a stalled server).
 * - `connectTimeout: 2000` — a connection attempt gives up after 2 s.
 * - `retryStrategy` — keeps reconnecting in the background (100 ms, 200 ms, … at most 1 s apart),
 *   so calls succeed again as soon as Redis is back.
 */
export const FAIL_FAST_REDIS_OPTIONS: Readonly<RedisOptions> = Object.freeze({
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 2000,
  connectTimeout: 2000,
  retryStrategy: (times: number) => Math.min(times * 100, 1000),
});

/** How a Redis adapter reaches Redis: give `client` or `connection`, not both. */
export interface RedisConnectionOptions {
  /**
   * An ioredis client you own (it is not closed by the store's `close()`). Its own options apply:
   * use {@link createRedisClient} or {@link FAIL_FAST_REDIS_OPTIONS} so calls fail fast when Redis is down.
   * One client can serve both stores and several gateways.
   */
  client?: Redis;
  /**
   * A Redis URL (`redis://host:6379/0`) or ioredis options: the store creates its own client with
   * {@link FAIL_FAST_REDIS_OPTIONS} under yours, and closes it in `close()`.
   * Default, when neither this nor `client` is given: `127.0.0.1:6379`.
   */
  connection?: string | RedisOptions;
}

function loadIoredis(): typeof import('ioredis') {
  try {
    return require('ioredis') as typeof import('ioredis');
  } catch (error) {
    throw new Error(
      "rosetta-gateway/redis needs the 'ioredis' package (an optional peer dependency): run npm install ioredis.",
      { cause: error },
    );
  }
}

/**
 * Creates an ioredis client with {@link FAIL_FAST_REDIS_OPTIONS} (your options win where given),
 * logging its connection errors to `DEBUG=rosetta:redis` instead of the console. Share it between
 * a {@link RedisKeyStore} and a {@link RedisQuotaStore}; you close it (`client.quit()`) after `gateway.close()`.
 *
 * @example
 * ```ts
 * const client = createRedisClient(process.env.REDIS_URL);
 * createGateway({ keyStore: new RedisKeyStore({ client }), quotaStore: new RedisQuotaStore({ client }) });
 * ```
 */
export function createRedisClient(connection: string | RedisOptions = {}): Redis {
  const { Redis: RedisClient } = loadIoredis();
  const client =
    typeof connection === 'string'
      ? new RedisClient(connection, { ...FAIL_FAST_REDIS_OPTIONS })
      : new RedisClient({ ...FAIL_FAST_REDIS_OPTIONS, ...connection });
  client.on('error', (error: Error) => logRedis('connection error: %s', error.message));
  return client;
}

/** A prefix for every Redis key of a store: any string, default `rosetta:`. */
export function resolvePrefix(store: string, prefix: unknown): string {
  if (prefix === undefined) return 'rosetta:';
  if (typeof prefix !== 'string')
    configError(store, 'prefix', `must be a string such as 'rosetta:', not ${typeof prefix}.`);
  return prefix;
}

/** Option names every adapter accepts. */
export const CONNECTION_OPTION_NAMES = ['client', 'connection', 'prefix'] as const;

/**
 * One store's hold on Redis: its client (owned or lent), its scripts defined as commands, and the
 * `init`/`close` lifecycle.
 */
export class RedisLink {
  readonly client: Redis;
  private readonly owned: boolean;

  constructor(
    private readonly store: string,
    options: RedisConnectionOptions,
    private readonly scripts: readonly ScriptDefinition[],
  ) {
    if (options.client !== undefined && options.connection !== undefined) {
      configError(
        store,
        'client',
        "and 'connection' cannot both be given: pass your ioredis client, or the options to create one.",
        'ERR_GATEWAY_OPTION_CONFLICT',
      );
    }
    if (options.client !== undefined) {
      const client = options.client as unknown as Record<string, unknown> | null;
      if (
        client === null ||
        typeof client !== 'object' ||
        typeof client.defineCommand !== 'function' ||
        typeof client.script !== 'function'
      ) {
        configError(store, 'client', 'must be an ioredis client (new Redis(…) or createRedisClient(…)).');
      }
      this.client = options.client;
      this.owned = false;
    } else {
      const connection = options.connection ?? {};
      if (typeof connection !== 'string' && (connection === null || typeof connection !== 'object')) {
        configError(store, 'connection', "must be a Redis URL ('redis://host:6379') or ioredis options.");
      }
      this.client = createRedisClient(connection);
      this.owned = true;
    }
    for (const script of scripts) {
      this.client.defineCommand(script.name, { lua: script.lua, numberOfKeys: script.numberOfKeys });
    }
  }

  /** Runs a script by EVALSHA (ioredis falls back to EVAL once if Redis does not have it). */
  run(script: ScriptDefinition, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const command = (this.client as unknown as Record<string, (...params: (string | number)[]) => Promise<unknown>>)[
      script.name
    ]!;
    return command.call(this.client, ...keys, ...args);
  }

  /** Waits until the client is connected (failing on the first connection error), then loads the scripts. */
  async init(): Promise<void> {
    try {
      await this.waitUntilReady();
      for (const script of this.scripts) await this.client.script('LOAD', script.lua);
    } catch (error) {
      throw new Error(
        `${this.store}: cannot reach Redis (${error instanceof Error ? error.message : String(error)}).`,
        { cause: error },
      );
    }
    logRedis('%s ready', this.store);
  }

  /** Closes the client if the store created it; a lent client is left as it is. */
  async close(): Promise<void> {
    const client = this.client;
    if (!this.owned || client.status === 'end') return;
    if (client.status !== 'ready') {
      client.disconnect();
      return;
    }
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await client.quit().catch(() => client.disconnect());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000).unref()))]);
    clearTimeout(timer);
  }

  private async waitUntilReady(): Promise<void> {
    const client = this.client;
    if (client.status === 'ready') return;
    if (client.status === 'wait') {
      await client.connect();
      return;
    }
    if (client.status === 'end') throw new Error('the ioredis client is closed');
    const timeoutMs = client.options.connectTimeout ?? 10_000;
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('error', onError);
        client.off('end', onEnd);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => done();
      const onError = (error: Error) => done(error);
      const onEnd = () => done(new Error('the connection ended before it was ready'));
      const timer = setTimeout(
        () => done(new Error(`not ready after ${timeoutMs} ms (status ${client.status})`)),
        timeoutMs,
      );
      client.once('ready', onReady);
      client.once('error', onError);
      client.once('end', onEnd);
    });
  }
}

/**
 * What every Redis adapter shares: the client of its {@link RedisLink} and the `init` / `close` lifecycle the gateway
 * calls. A store creates its link last in its constructor, after checking its own options, since an owned client
 * starts connecting as soon as it is created.
 */
export abstract class RedisStoreBase {
  protected abstract readonly link: RedisLink;

  /** The ioredis client the store talks through. */
  get client(): Redis {
    return this.link.client;
  }

  /** Connects (failing if Redis cannot be reached) and loads the store's scripts. The gateway calls it before serving. */
  init(): Promise<void> {
    return this.link.init();
  }

  /** Closes the client if the store created it (from `connection`); a client you passed is left open. */
  close(): Promise<void> {
    return this.link.close();
  }
}
