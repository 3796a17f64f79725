/** The dashboard's options and the shapes it reads (lib/dashboard/index.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../gateway';
import type { UsageQuery } from '../stores/memory-usage-log';
import type { UsageRecord } from '../usage/record';
import type { UsageTallies, UsageTallyQuery } from '../usage/tally';

/** What the dashboard reads calls from: `MemoryUsageLog`, `RedisUsageStream`, or any log with their `query`. */
export interface DashboardUsageLog {
  /** The records that match, newest first, at most `limit` (`since` / `until` bound `timings.ended`, epoch ms). */
  query(query: UsageQuery): UsageRecord[] | Promise<UsageRecord[]>;
  /**
   * The tallies the log keeps as records arrive, by bucket (`RedisUsageStream.tally`). When the log has it, a summary
   * is made from them instead of from the window's records; the latest-calls lists still read records.
   */
  tally?(query: UsageTallyQuery): Promise<UsageTallies>;
}

/**
 * A middleware (Express's shape): call `next()` to let the request through, `next(error)` to fail it. Declared as a
 * method's type so that a handler typed with Express's own `Request` and `Response` fits it.
 */
export type DashboardMiddleware = {
  handle(request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void;
}['handle'];

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /** The usage log the gateway writes to (its `observability.usageSink`, or a log the sink feeds). Required. */
  usage: DashboardUsageLog;
  /** The gateway whose live state is shown (deployments, open streams, calls in flight). Without it, only the log. */
  gateway?: Pick<Gateway, 'live'>;
  /**
   * Who may see the page: a middleware the dashboard runs before each of its routes (`auth: requireAdmin`), or
   * `'host'` to say the host's own middleware in front of the mount guards it
   * (`app.use('/admin', requireAdmin, createDashboard({ …, auth: 'host' }))`).
   */
  auth?: DashboardMiddleware | 'host';
  /** Serve it to anyone who reaches it (a host on a private network). Default false: without `auth`, a warning. */
  allowUnauthenticated?: boolean;
  /** Where the warnings go. Default `console`. */
  logger?: { warn(message: string): void };
  /** The most records one summary or list reads from the log (newest first). Default 200,000. */
  maxRecords?: number;
}

/** What {@link createDashboard} returns: a middleware to mount (`app.use('/admin', dashboard)`). */
export type Dashboard = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;
