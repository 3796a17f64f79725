/**
 * Request loops: the hop headers a gateway adds to every upstream call, and the check that refuses
 * a call that has come back to the same gateway or passed through too many.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from './errors';

/** How many gateways a call has passed through before this request. */
export const HOPS_HEADER = 'x-rosetta-hops';
/** The ids of the gateways a call has passed through, oldest first, comma-separated. */
export const GATEWAY_HEADER = 'x-rosetta-gateway';

/** The hop count a header holds (the largest, if sent more than once); 0 when missing or not a count. */
function hopCount(value: string | string[] | undefined): number {
  if (value === undefined) return 0;
  let hops = 0;
  for (const item of (Array.isArray(value) ? value : [value]).flatMap((text) => text.split(','))) {
    const count = Number(item.trim());
    if (Number.isSafeInteger(count) && count > hops) hops = count;
  }
  return hops;
}

function gatewayIds(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((text) => text.split(','))
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
}

/**
 * One gateway's side of loop detection. Its id is random, made when the gateway is created, so two
 * gateways in one process are told apart (and a chain of them works, up to the hop limit).
 */
export class HopGuard {
  /** This gateway's id, `gw_` and 16 hex digits: sent upstream, never a secret. */
  readonly id = `gw_${randomBytes(8).toString('hex')}`;
  /** The headers of a call that arrived without any (the usual case): made once. */
  private readonly firstHop: Readonly<Record<string, string>>;

  constructor(private readonly maxHops: number) {
    this.firstHop = Object.freeze({ [HOPS_HEADER]: '1', [GATEWAY_HEADER]: this.id });
  }

  /**
   * The hop headers for the upstream calls of a request with these headers. Throws the 508
   * `loop_detected` error when the request has already passed through this gateway, or through
   * `maxHops` gateways or more.
   */
  upstreamHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
    const hopsHeader = headers[HOPS_HEADER];
    const gatewayHeader = headers[GATEWAY_HEADER];
    if (hopsHeader === undefined && gatewayHeader === undefined) return this.firstHop;
    const ids = gatewayIds(gatewayHeader);
    if (ids.includes(this.id)) {
      throw new GatewayError(
        'loop_detected',
        'Request loop: this call has come back to the gateway it passed through (an upstream base URL leads back to the gateway).',
        { code: 'loop_detected' },
      );
    }
    const hops = Math.max(hopCount(hopsHeader), ids.length);
    if (hops >= this.maxHops) {
      throw new GatewayError(
        'loop_detected',
        `Request loop: this call has already passed through ${hops} gateways; the limit is ${this.maxHops}.`,
        { code: 'loop_detected' },
      );
    }
    return { [HOPS_HEADER]: String(hops + 1), [GATEWAY_HEADER]: [...ids, this.id].join(', ') };
  }
}
