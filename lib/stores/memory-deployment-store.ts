/** The default deployment state store: health, probe claims, calls in flight and session affinity, in memory. */
import { positiveInteger } from '../config-check';
import { type DeploymentFailure, type DeploymentState, type DeploymentStateStore, HEALTHY_DEPLOYMENT } from './types';

/** Options of {@link MemoryDeploymentStore}. */
export interface MemoryDeploymentStoreOptions {
  /** The most sessions whose deployment is remembered; past it the least recently used is forgotten. Default 100,000. */
  maxSessions?: number;
  /** The clock, in milliseconds. Default `Date.now`; a test may pass its own. */
  now?: () => number;
}

interface Health {
  /** Epoch ms its cooldown ends; 0: never cooled, or proved healthy since. */
  cooledUntil: number;
  windowStart: number;
  failures: number;
  /** Epoch ms the probe claim expires; 0: none. */
  probeUntil: number;
  inFlight: number;
}

interface Affinity {
  name: string;
  expires: number;
}

/**
 * Deployment state for one gateway process. Every method runs to completion without awaiting, so concurrent calls
 * on Node's one thread cannot interleave (exactly one gets a probe claim). Affinity is an LRU map of at most
 * `maxSessions` entries, each dropped when read after its idle time: memory follows the sessions in use.
 */
export class MemoryDeploymentStore implements DeploymentStateStore {
  private readonly health = new Map<string, Health>();
  private readonly sessions = new Map<string, Affinity>();
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(options: MemoryDeploymentStoreOptions = {}) {
    this.maxSessions = positiveInteger('MemoryDeploymentStore', 'maxSessions', options.maxSessions, 100_000);
    this.now = options.now ?? Date.now;
  }

  /** Sessions remembered now (expired ones included until they are read or pushed out). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  read(names: readonly string[]): DeploymentState[] {
    const now = this.now();
    const states: DeploymentState[] = new Array(names.length);
    for (let index = 0; index < names.length; index++) {
      const health = this.health.get(names[index]!);
      states[index] = health ? this.stateOf(health, now) : HEALTHY_DEPLOYMENT;
    }
    return states;
  }

  fail(name: string, failure: DeploymentFailure): number {
    const now = this.now();
    const health = this.entry(name);
    if (now - health.windowStart >= failure.windowMs || health.failures === 0) {
      health.windowStart = now;
      health.failures = 0;
    }
    health.failures += 1;
    health.probeUntil = 0;
    const probation = health.cooledUntil !== 0 && health.cooledUntil <= now;
    if (!failure.immediate && !probation && health.failures < failure.threshold) return 0;
    health.cooledUntil = Math.max(health.cooledUntil, now + failure.cooldownMs);
    health.failures = 0;
    return health.cooledUntil - now;
  }

  succeed(name: string): void {
    const health = this.health.get(name);
    if (!health) return;
    health.cooledUntil = 0;
    health.failures = 0;
    health.probeUntil = 0;
    if (health.inFlight === 0) this.health.delete(name);
  }

  claimProbe(name: string, ttlMs: number): boolean {
    const now = this.now();
    const health = this.entry(name);
    if (health.probeUntil > now) return false;
    health.probeUntil = now + ttlMs;
    return true;
  }

  enter(name: string): void {
    this.entry(name).inFlight += 1;
  }

  leave(name: string): void {
    const health = this.health.get(name);
    if (health && health.inFlight > 0) health.inFlight -= 1;
  }

  affinity(session: string): string | undefined {
    const entry = this.sessions.get(session);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.sessions.delete(session);
      return undefined;
    }
    return entry.name;
  }

  setAffinity(session: string, name: string, idleMs: number): void {
    const sessions = this.sessions;
    // Deleted first so the entry moves to the end: the Map's order is least recently used first.
    if (!sessions.delete(session) && sessions.size >= this.maxSessions) {
      const oldest = sessions.keys().next().value;
      if (oldest !== undefined) sessions.delete(oldest);
    }
    sessions.set(session, { name, expires: this.now() + idleMs });
  }

  private entry(name: string): Health {
    let health = this.health.get(name);
    if (!health) {
      health = { cooledUntil: 0, windowStart: 0, failures: 0, probeUntil: 0, inFlight: 0 };
      this.health.set(name, health);
    }
    return health;
  }

  private stateOf(health: Health, now: number): DeploymentState {
    const cooling = health.cooledUntil > now;
    return {
      coolingMs: cooling ? health.cooledUntil - now : 0,
      probation: !cooling && health.cooledUntil !== 0,
      probing: health.probeUntil > now,
      failures: health.failures,
      inFlight: health.inFlight,
    };
  }
}
