// The example server's usage records: one line per call on stderr, and the admin route over the in-memory log.
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A record as one stderr line: request id, key id (never the key), protocol, model, outcome and status, tokens
 * (input/output), credits charged, latency and time to first token in ms.
 */
export function usageLine(record) {
  const { timings, usage } = record;
  const tokens = usage ? `${usage.inputTokens}/${usage.outputTokens}` : record.images ? `${record.images} images` : '-';
  const ttft = timings.firstByte === undefined ? '-' : `${timings.firstByte - timings.received}ms`;
  return [
    'usage',
    record.requestId,
    `key=${record.keyId ?? '-'}`,
    record.protocol,
    record.model ?? record.requestedModel ?? '-',
    `${record.outcome}/${record.status}`,
    `tokens=${tokens}`,
    `credits=${record.credits.charged}`,
    `latency=${timings.ended - timings.received}ms`,
    `ttft=${ttft}`,
  ].join(' ');
}

/** The most records one admin query returns. */
const MAX_LIMIT = 1_000;

/**
 * Middleware that lets through only a caller presenting the admin key: `Authorization: Bearer <adminKey>` (scripts,
 * Prometheus), or HTTP Basic auth with the admin key as the password (a browser asks for it: the dashboard at
 * /admin/). Compared in constant time, as digests of equal length; anyone else gets a 401 that invites Basic auth.
 */
export function adminOnly(adminKey) {
  const expected = digest(adminKey);
  return (request, response, next) => {
    if (timingSafeEqual(digest(presentedKey(request.get('authorization') ?? '')), expected)) return next();
    response.set('www-authenticate', 'Basic realm="rosetta-gateway admin", charset="UTF-8"');
    response.status(401).json({ error: { message: 'The admin key is missing or wrong.', code: 'invalid_admin_key' } });
  };
}

/** The key an Authorization header presents: a Bearer token, or a Basic credential's password (any user name). */
function presentedKey(header) {
  const bearer = /^Bearer (.+)$/.exec(header)?.[1];
  if (bearer !== undefined) return bearer;
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header)?.[1];
  if (basic === undefined) return '';
  const credential = Buffer.from(basic, 'base64').toString('utf8');
  const colon = credential.indexOf(':');
  return colon === -1 ? '' : credential.slice(colon + 1);
}

/**
 * `GET /admin/usage?key=&since=&until=&limit=` (behind {@link adminOnly}): the usage log's query as JSON
 * (`{ records: [...] }`, newest first). `since` and `until` are epoch milliseconds or ISO dates; `limit` is 1 to
 * 1,000 (default 100).
 */
export function usageQueryHandler(log) {
  return (request, response) => {
    const query = {};
    try {
      if (request.query.key !== undefined) query.keyId = String(request.query.key);
      if (request.query.since !== undefined) query.since = parseTime('since', request.query.since);
      if (request.query.until !== undefined) query.until = parseTime('until', request.query.until);
      if (request.query.limit !== undefined) query.limit = parseLimit(request.query.limit);
    } catch (error) {
      response.status(400).json({ error: { message: error.message, code: 'invalid_query' } });
      return;
    }
    response.json({ records: log.query(query) });
  };
}

function digest(text) {
  return createHash('sha256').update(text).digest();
}

function parseTime(name, value) {
  const text = String(value);
  const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(time)) throw new Error(`${name} must be epoch milliseconds or an ISO date, not '${text}'.`);
  return time;
}

function parseLimit(value) {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new Error(`limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  return limit;
}
