// Parses GATEWAY_KEYS into gateway keys; unset → the demo key. Comma-separated entries, each
// `key[:balance][;rpm=N][;tpm=N][;concurrent=N]`: a balance in credits (omitted: unmetered) and rate limits
// (requests and tokens per minute, calls in flight).
import { createHash } from 'node:crypto';

/** The documented demo key used when GATEWAY_KEYS is unset. */
export const DEMO_KEY = 'sk-rosetta-demo';

/**
 * A key as the banner shows it: its first two characters and the start of its SHA-256, so two keys
 * are told apart (team-a-key → `te…#554a0d`, team-b-key → `te…#fc7413`) and neither is revealed.
 */
export function maskKey(key) {
  return `${key.slice(0, 2)}…#${createHash('sha256').update(key).digest('hex').slice(0, 6)}`;
}

/** The rate-limit settings an entry may give, by their short names. */
const LIMIT_NAMES = { rpm: 'requestsPerMinute', tpm: 'tokensPerMinute', concurrent: 'concurrent' };

export function parseGatewayKeys(value) {
  if (value === undefined || value.trim() === '') return [{ key: DEMO_KEY, id: 'demo', balance: 5_000_000 }];
  return value.split(',').map((entry, index) => {
    const [head, ...settings] = entry.trim().split(';');
    const colon = head.lastIndexOf(':');
    const key = colon === -1 ? head : head.slice(0, colon);
    const balanceText = colon === -1 ? undefined : head.slice(colon + 1);
    if (key.length === 0) throw new Error(`GATEWAY_KEYS entry ${index + 1} has an empty key`);
    const parsed = { key, id: `key${index + 1}` };
    if (balanceText !== undefined) {
      const balance = Number(balanceText);
      if (balanceText === '' || !Number.isFinite(balance) || balance < 0)
        throw new Error(`GATEWAY_KEYS entry ${index + 1}: balance must be a number >= 0`);
      parsed.balance = balance;
    }
    for (const setting of settings) {
      const [name, text] = setting.split('=').map((part) => part.trim());
      const option = LIMIT_NAMES[name];
      const limit = Number(text);
      if (!option)
        throw new Error(`GATEWAY_KEYS entry ${index + 1}: '${name}' is not a limit (use rpm, tpm or concurrent)`);
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new Error(`GATEWAY_KEYS entry ${index + 1}: ${name} must be a positive whole number`);
      parsed.rateLimits = { ...parsed.rateLimits, [option]: limit };
    }
    return parsed;
  });
}

/** An entry's rate limits as the banner shows them (`rpm=60 tpm=200000`), or `no rate limit`. */
export function describeLimits(entry) {
  const limits = entry.rateLimits ?? {};
  const shown = Object.entries(LIMIT_NAMES)
    .filter(([, option]) => limits[option] !== undefined)
    .map(([name, option]) => `${name}=${limits[option]}`);
  return shown.length > 0 ? shown.join(' ') : 'no rate limit';
}
