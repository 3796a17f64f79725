/**
 * A deployment state store in Redis: health, probe claims, calls in flight and session affinity shared by every
 * gateway instance (docs/routing.md), each change one atomic command or Lua script on Redis's clock.
 */
import type { DeploymentFailure, DeploymentState, DeploymentStateStore } from '../types';
import { configError, knownOptions } from '../../config-check';
import {
  CONNECTION_OPTION_NAMES,
  type RedisConnectionOptions,
  RedisLink,
  RedisStoreBase,
  resolvePrefix,
} from './connection';
import type { ScriptDefinition } from './scripts';

const STORE = 'RedisDeploymentStore';

/** Options of {@link RedisDeploymentStore}. */
export interface RedisDeploymentStoreOptions extends RedisConnectionOptions {
  /** Prepended to every Redis key; gateways that share deployment state use the same prefix. Default `rosetta:`. */
  prefix?: string;
  /**
   * How long this instance reuses the deployments' states it read, in milliseconds (0: read Redis on every call). A
   * failure, success or probe claim of its own drops the cache, so another instance's cooldown is seen within this
   * time. Default 250.
   */
  cacheMs?: number;
}

const OPTION_NAMES = [...CONNECTION_OPTION_NAMES, 'cacheMs'] as const;

const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function num(key, field)
  return tonumber(redis.call('HGET', key, field) or '0')
end
`;

/** KEYS: each deployment's health hash, then its calls-in-flight counter. Answers five numbers per deployment. */
const READ = `${PRELUDE}
local now = now_ms()
local count = #KEYS / 2
local out = {}
for i = 1, count do
  local fields = redis.call('HMGET', KEYS[i], 'cooled', 'failures', 'probe')
  local cooled, failures, probe = tonumber(fields[1] or '0'), tonumber(fields[2] or '0'), tonumber(fields[3] or '0')
  local busy = tonumber(redis.call('GET', KEYS[count + i]) or '0')
  local cooling = 0
  if cooled > now then cooling = cooled - now end
  local probation = 0
  if cooled ~= 0 and cooled <= now then probation = 1 end
  local probing = 0
  if probe > now then probing = 1 end
  out[#out + 1] = cooling
  out[#out + 1] = probation
  out[#out + 1] = probing
  out[#out + 1] = failures
  out[#out + 1] = math.max(0, busy)
end
return out
`;

/** KEYS[1]: the health hash. ARGV: window, threshold, cooldown (ms), immediate (0/1). Answers the cooldown set (ms). */
const FAIL = `${PRELUDE}
local key = KEYS[1]
local window, threshold, cooldown, immediate = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1'
local now = now_ms()
local start, failures, cooled = num(key, 'start'), num(key, 'failures'), num(key, 'cooled')
if failures == 0 or now - start >= window then
  start, failures = now, 0
end
failures = failures + 1
local probation = cooled ~= 0 and cooled <= now
local result = 0
if immediate or probation or failures >= threshold then
  cooled = math.max(cooled, now + cooldown)
  failures = 0
  result = cooled - now
end
redis.call('HSET', key, 'start', string.format('%.0f', start), 'failures', failures, 'cooled', string.format('%.0f', cooled), 'probe', 0)
redis.call('PEXPIRE', key, math.max(window, cooled - now) + window + cooldown)
return result
`;

/** KEYS[1]: the health hash. ARGV: the claim's lifetime (ms). Answers 1 to the one caller that gets the claim. */
const CLAIM = `${PRELUDE}
local now = now_ms()
if num(KEYS[1], 'probe') > now then return 0 end
redis.call('HSET', KEYS[1], 'probe', string.format('%.0f', now + tonumber(ARGV[1])))
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2) end
return 1
`;

/** The store's scripts. */
export const DEPLOYMENT_SCRIPTS = Object.freeze({
  read: { name: 'rosettaDeploymentRead', lua: READ },
  fail: { name: 'rosettaDeploymentFail', lua: FAIL, numberOfKeys: 1 },
  claim: { name: 'rosettaDeploymentClaim', lua: CLAIM, numberOfKeys: 1 },
} satisfies Record<string, ScriptDefinition>);

/**
 * Deployment state in Redis, shared by every gateway instance on the same Redis and prefix: per deployment a hash of
 * its failures, cooldown end and probe claim (`<prefix>{deployments}:<name>`, expiring once its window and cooldown
 * have passed) and a counter of its calls in flight (`…:busy`, `least-busy` only); per session a key holding its
 * deployment, expiring after the idle time. Failures and probe claims are Lua scripts on Redis's clock, so exactly one
 * instance gets a probe. Reads are cached for `cacheMs`. Redis errors throw (the gateway then routes by weight alone).
 *
 * @example
 * ```ts
 * import { createRedisClient, RedisDeploymentStore } from 'rosetta-gateway/redis';
 * const client = createRedisClient(process.env.REDIS_URL);
 * app.use(createGateway({ keys, providers, models, deploymentStore: new RedisDeploymentStore({ client }) }));
 * ```
 */
export class RedisDeploymentStore extends RedisStoreBase implements DeploymentStateStore {
  /** The key prefix in use. */
  readonly prefix: string;
  protected readonly link: RedisLink;
  private readonly cacheMs: number;
  private readonly cache = new Map<string, { at: number; states: Promise<readonly DeploymentState[]> }>();

  constructor(options: RedisDeploymentStoreOptions = {}) {
    super();
    knownOptions(STORE, options, OPTION_NAMES);
    this.prefix = resolvePrefix(STORE, options.prefix);
    const cacheMs = options.cacheMs ?? 250;
    if (typeof cacheMs !== 'number' || !Number.isSafeInteger(cacheMs) || cacheMs < 0)
      configError(STORE, 'cacheMs', `must be an integer of milliseconds, 0 or more, not ${String(cacheMs)}.`);
    this.cacheMs = cacheMs;
    this.link = new RedisLink(STORE, options, Object.values(DEPLOYMENT_SCRIPTS));
  }

  read(names: readonly string[]): Promise<readonly DeploymentState[]> {
    if (this.cacheMs === 0) return this.readNow(names);
    const id = names.join('\n');
    const now = Date.now();
    const cached = this.cache.get(id);
    if (cached && now - cached.at < this.cacheMs) return cached.states;
    const states = this.readNow(names);
    this.cache.set(id, { at: now, states });
    states.catch(() => this.cache.delete(id));
    return states;
  }

  async fail(name: string, failure: DeploymentFailure): Promise<number> {
    this.cache.clear();
    const { windowMs, threshold, cooldownMs, immediate } = failure;
    const args = [windowMs, threshold, cooldownMs, immediate ? 1 : 0];
    return Number(await this.link.run(DEPLOYMENT_SCRIPTS.fail, [this.healthKey(name)], args));
  }

  async succeed(name: string): Promise<void> {
    this.cache.clear();
    await this.client.del(this.healthKey(name));
  }

  async claimProbe(name: string, ttlMs: number): Promise<boolean> {
    this.cache.clear();
    return Number(await this.link.run(DEPLOYMENT_SCRIPTS.claim, [this.healthKey(name)], [ttlMs])) === 1;
  }

  async enter(name: string): Promise<void> {
    await this.client.incr(this.busyKey(name));
  }

  async leave(name: string): Promise<void> {
    await this.client.decr(this.busyKey(name));
  }

  async affinity(session: string): Promise<string | undefined> {
    return (await this.client.get(this.sessionKey(session))) ?? undefined;
  }

  async setAffinity(session: string, name: string, idleMs: number): Promise<void> {
    await this.client.set(this.sessionKey(session), name, 'PX', idleMs);
  }

  /**
   * The Redis key of a deployment's health. Every deployment key carries the hash tag `{deployments}`, so the states
   * a call reads in one script share one Cluster slot.
   */
  healthKey(name: string): string {
    return `${this.prefix}{deployments}:${name}`;
  }

  private busyKey(name: string): string {
    return `${this.healthKey(name)}:busy`;
  }

  private sessionKey(session: string): string {
    return `${this.prefix}session:${session}`;
  }

  private async readNow(names: readonly string[]): Promise<readonly DeploymentState[]> {
    const keys = [
      String(names.length * 2),
      ...names.map((name) => this.healthKey(name)),
      ...names.map((name) => this.busyKey(name)),
    ];
    const reply = (await this.link.run(DEPLOYMENT_SCRIPTS.read, keys, [])) as number[];
    return names.map((_, index) => {
      const at = index * 5;
      return {
        coolingMs: Number(reply[at]),
        probation: Number(reply[at + 1]) === 1,
        probing: Number(reply[at + 2]) === 1,
        failures: Number(reply[at + 3]),
        inFlight: Number(reply[at + 4]),
      };
    });
  }
}
