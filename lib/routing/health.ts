/**
 * Deployment health (docs/routing.md, *Health and cooldown*): which upstream failures count against a deployment,
 * how long each kind keeps it out, and the few recent failures the health view shows.
 */
import type { ErrorKind, GatewayError } from '../errors';
import type { DeploymentFailure } from '../stores/types';

/** Health settings of the `routing` option, every default filled in. */
export interface HealthSettings {
  /** Failures within `windowMs` that cool a deployment down. */
  failures: number;
  windowMs: number;
  cooldownMs: number;
  /** How long rejected credentials keep a deployment out. */
  authCooldownMs: number;
}

/**
 * The failures that count against a deployment and are retried on another one of the same model before any
 * fallback: its 5xx, timeouts, connection failures, 429s and its rejected key. Anything else is the request's fault.
 */
export const DEPLOYMENT_FAILURE_KINDS: ReadonlySet<ErrorKind> = new Set([
  'upstream',
  'upstream_timeout',
  'overloaded',
  'rate_limit',
  'upstream_auth',
]);

/**
 * How a failure counts: rejected credentials cool the deployment down at once for `authCooldownMs`; a 429 with a
 * `Retry-After` at once for that long (the upstream has said it will refuse until then); anything else adds to the
 * count, which cools it down for `cooldownMs` once `failures` are reached in `windowMs`.
 */
export function failureOf(error: GatewayError, settings: HealthSettings): DeploymentFailure {
  const { windowMs, failures: threshold, cooldownMs } = settings;
  if (error.kind === 'upstream_auth')
    return { windowMs, threshold, cooldownMs: settings.authCooldownMs, immediate: true };
  const retryAfter = error.retryAfter;
  if (error.kind === 'rate_limit' && retryAfter !== undefined && retryAfter > 0)
    return { windowMs, threshold, cooldownMs: Math.ceil(retryAfter * 1000), immediate: true };
  return { windowMs, threshold, cooldownMs, immediate: false };
}

/** One failure as the health view lists it. */
export interface RecentFailure {
  /** Epoch milliseconds. */
  at: number;
  kind: ErrorKind;
  status: number;
}

/** How many failures the health view keeps per deployment (in this process). */
const RECENT_FAILURES = 5;

/** What this process knows of a deployment beyond the shared store: calls in flight, served, recent failures. */
export class LocalDeploymentFacts {
  inFlight = 0;
  served = 0;
  failed = 0;
  readonly recent: RecentFailure[] = [];

  noteFailure(error: GatewayError, at: number): void {
    this.failed += 1;
    if (this.recent.length >= RECENT_FAILURES) this.recent.shift();
    this.recent.push({ at, kind: error.kind, status: error.status });
  }
}
