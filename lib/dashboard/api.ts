/** The dashboard's JSON routes: `/api/summary`, `/api/calls`, `/api/live` (docs/operations.md, *Dashboard*). */
import type { ServerResponse } from 'node:http';
import type { Gateway } from '../gateway';
import type { UsageRecord } from '../usage/record';
import type { DashboardUsageLog } from './types';
import {
  type DashboardSummary,
  type DashboardWindow,
  summarize,
  summarizeTallies,
  WINDOWS,
  windowNamed,
} from './summary';

/** The most calls one list answers, and its default. */
const MAX_CALLS = 500;
const DEFAULT_CALLS = 100;
const OUTCOMES = ['ok', 'error', 'cancelled'];
/**
 * How long a window's summary is answered again rather than computed anew: several people looking at the page (each
 * refreshing every 10 s) cost one read of the log, which holds the event loop the gateway's calls run on.
 */
const SUMMARY_REUSE_MS = 2_000;

/** A query the page sent that the dashboard cannot answer: a 400 naming the parameter. */
class BadQuery extends Error {}

export class DashboardApi {
  /** The summary of each window being computed or computed last, and when it was asked for. */
  private readonly summaries = new Map<string, { at: number; summary: Promise<DashboardSummary> }>();

  constructor(
    private readonly usage: DashboardUsageLog,
    private readonly gateway: Pick<Gateway, 'live'> | undefined,
    private readonly maxRecords: number,
  ) {}

  /** Answers `route` (the path after `/api/`); rejects only when the log or the gateway failed. */
  async answer(route: string, params: URLSearchParams, response: ServerResponse): Promise<void> {
    try {
      if (route === 'summary') return sendJson(response, 200, await this.summary(params));
      if (route === 'calls') return sendJson(response, 200, await this.calls(params));
      if (route === 'live') return sendJson(response, 200, await this.live());
      sendJson(response, 404, { error: { message: `The dashboard has no API route '${route}'.` } });
    } catch (error) {
      if (!(error instanceof BadQuery)) throw error;
      sendJson(response, 400, { error: { message: error.message } });
    }
  }

  private summary(params: URLSearchParams): Promise<DashboardSummary> {
    const window = windowOf(params);
    const now = Date.now();
    const reused = this.summaries.get(window.name);
    if (reused && now - reused.at < SUMMARY_REUSE_MS) return reused.summary;
    const summary = this.compute(window, now);
    this.summaries.set(window.name, { at: now, summary });
    summary.catch(() => this.summaries.delete(window.name));
    return summary;
  }

  private async compute(window: DashboardWindow, now: number): Promise<DashboardSummary> {
    // A log that keeps tallies answers from them: a few dozen small hashes, not the window's records.
    if (typeof this.usage.tally === 'function') {
      const tallies = await this.usage.tally({ since: now - window.ms, until: now, bucketMs: window.bucketMs });
      return summarizeTallies(tallies, window, now);
    }
    // No `until`: a RedisUsageStream bounds by Redis's clock, which may run ahead of this host's; the summary bounds
    // each record by its own `timings.ended`.
    const records = await this.usage.query({ since: now - window.ms, limit: this.maxRecords });
    return summarize(records, window, now, records.length >= this.maxRecords);
  }

  /** The latest calls of the window that match the filters, newest first, each its whole record. */
  private async calls(params: URLSearchParams) {
    const window = windowOf(params);
    const keyId = params.get('key') || undefined;
    const model = params.get('model') || undefined;
    const outcome = params.get('outcome') || undefined;
    if (outcome !== undefined && !OUTCOMES.includes(outcome))
      throw new BadQuery(`outcome must be one of ${OUTCOMES.join(', ')}, not '${outcome}'.`);
    const limit = limitOf(params.get('limit'));
    const now = Date.now();
    const filtered = model !== undefined || outcome !== undefined;
    // Without a model or outcome filter the log's own query answers exactly; with one, the window is read and sifted.
    const records = await this.usage.query({
      keyId,
      since: now - window.ms,
      limit: filtered ? this.maxRecords : limit,
    });
    const calls: UsageRecord[] = [];
    for (const record of records) {
      if (model !== undefined && record.model !== model && record.requestedModel !== model) continue;
      if (outcome !== undefined && record.outcome !== outcome) continue;
      calls.push(record);
      if (calls.length === limit) break;
    }
    return { window: window.name, calls };
  }

  private async live() {
    return { live: this.gateway ? await this.gateway.live() : null, windows: WINDOWS.map((window) => window.name) };
  }
}

function windowOf(params: URLSearchParams): DashboardWindow {
  const name = params.get('window') || undefined;
  const window = windowNamed(name);
  if (!window)
    throw new BadQuery(`window must be one of ${WINDOWS.map((option) => option.name).join(', ')}, not '${name}'.`);
  return window;
}

function limitOf(value: string | null): number {
  if (value === null || value === '') return DEFAULT_CALLS;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CALLS)
    throw new BadQuery(`limit must be a whole number from 1 to ${MAX_CALLS}.`);
  return limit;
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}
