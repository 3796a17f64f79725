// Parses GATEWAY_KEYS ("key" or "key:balance", comma-separated) into gateway keys; unset → the demo key.
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

export function parseGatewayKeys(value) {
  if (value === undefined || value.trim() === '') return [{ key: DEMO_KEY, id: 'demo', balance: 5_000_000 }];
  return value.split(',').map((entry, index) => {
    const trimmed = entry.trim();
    const colon = trimmed.lastIndexOf(':');
    const key = colon === -1 ? trimmed : trimmed.slice(0, colon);
    const balanceText = colon === -1 ? undefined : trimmed.slice(colon + 1);
    if (key.length === 0) throw new Error(`GATEWAY_KEYS entry ${index + 1} has an empty key`);
    if (balanceText === undefined) return { key, id: `key${index + 1}` };
    const balance = Number(balanceText);
    if (!Number.isFinite(balance) || balance < 0)
      throw new Error(`GATEWAY_KEYS entry ${index + 1}: balance must be a number >= 0`);
    return { key, id: `key${index + 1}`, balance };
  });
}
