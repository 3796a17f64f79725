/**
 * Downloads an http(s) image for an upstream that cannot take URLs: GET only, bounded, and never into a private
 * network.
 */
import { booleanOption, positiveInteger } from '../config-check';
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import createDebug from 'debug';
import type { Agent, Dispatcher } from 'undici';
import { GatewayError } from '../errors';
import { undici } from './undici';

const log = createDebug('rosetta:provider');

/** Limits of a {@link MediaFetcher}. */
export interface MediaFetchOptions {
  /** The whole download (connection, redirects, body), in milliseconds. Default 10,000. */
  timeoutMs?: number;
  /** The largest body accepted, in bytes; a larger one is aborted. Default 20 MB (20 × 1024 × 1024). */
  maxBytes?: number;
  /** Redirects followed (each one checked like the first URL). Default 3. */
  maxRedirects?: number;
  /**
   * Whether URLs may lead to loopback, private, link-local (cloud metadata), unique-local,
   * unspecified or multicast addresses. Default false: such a URL is refused with a 400, a
   * protection against server-side request forgery. Set it only when every caller is trusted.
   */
  allowPrivateNetworks?: boolean;
}

/** A downloaded image: its media type and its bytes as base64. */
export interface FetchedMedia {
  mediaType: string;
  data: string;
}

/** One download. */
export interface MediaFetchRequest {
  url: string;
  /** The media type the caller declared, if any; a server answering with exactly it is accepted. */
  declaredType?: string;
  /** The request field the URL came from (`messages[0].content[1]`), named in every refusal. */
  at: string;
  /** Fires when the caller leaves; the download is then abandoned. */
  signal?: AbortSignal;
}

/** What kind of location a media URL is, for deciding who may fetch it. */
export type MediaUrlKind = 'http' | 'gemini-file' | 'other';

const GEMINI_FILES_HOST = 'generativelanguage.googleapis.com';

/**
 * `http` for an http(s) URL anyone may fetch; `gemini-file` for a Gemini Files API URI
 * (`https://generativelanguage.googleapis.com/…/files/…`) or a Cloud Storage `gs://` URI, which
 * only a Gemini upstream can read; `other` for anything else (a malformed URL, another scheme).
 */
export function mediaUrlKind(url: string): MediaUrlKind {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'other';
  }
  if (parsed.protocol === 'gs:') return 'gemini-file';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'other';
  if (parsed.hostname === GEMINI_FILES_HOST && /\/files\/[^/]+/.test(parsed.pathname)) return 'gemini-file';
  return 'http';
}

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, internal in practice
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (zone id dropped, `::` expanded, a trailing dotted quad folded in). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const filled =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return filled.length === 8 && filled.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? filled
    : undefined;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The IPv4 address an IPv6 address carries: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible
 * (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`); undefined otherwise.
 */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1)))) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7);
  return undefined;
}

/**
 * Whether an IP address is one the gateway must not fetch from: loopback, private (10/8,
 * 172.16/12, 192.168/16), link-local (169.254/16, where cloud metadata lives), carrier-grade NAT,
 * unique-local and link-local IPv6, unspecified, multicast and reserved — also when an IPv6
 * address embeds such an IPv4 address. A string that is not an IP address counts as blocked.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(bare);
  if (!groups) return true;
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== undefined) return BLOCKED.check(ipv4, 'ipv4');
  return BLOCKED.check(groups.map((group) => group.toString(16)).join(':'), 'ipv6');
}

/** Raised at connect time when a host name resolves to a blocked address. */
class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'ERR_MEDIA_BLOCKED_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a private or local network address`);
  }
}

/**
 * A DNS lookup for the fetcher's sockets that fails when any address of the name is blocked. It
 * runs when the socket connects, on the very addresses it will use, so a name that resolves to a
 * public address when checked and to a private one when used (DNS rebinding) cannot get through.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '', 0);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  });
};

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MEGABYTE = 1024 * 1024;

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaTypeOf(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase();
  return value ? value : undefined;
}

/** The media type to inline under, or undefined when the body is not an image the caller asked for. */
function acceptedMediaType(served: string | undefined, declared: string | undefined): string | undefined {
  if (served?.startsWith('image/')) return served;
  const wanted = declared?.toLowerCase();
  if (wanted && (served === undefined || served === 'application/octet-stream' || served === wanted)) return wanted;
  return undefined;
}

/** A failure and its `cause` chain (at most 8 links). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (
    let current = error;
    current !== undefined && current !== null && chain.length < 8;
    current = (current as { cause?: unknown }).cause
  )
    chain.push(current);
  return chain;
}

/** The first string `code` along a failure's `cause` chain (`ECONNREFUSED`, `ENOTFOUND`, …). */
function codeOf(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The owner a media option's error names. */
const OWNER = 'MediaFetcher';

/**
 * Downloads images by URL so they can be sent inline, through its own undici Agent (never the
 * upstream's pool). GET only, no credentials or cookies; at most `maxRedirects` redirects, each
 * checked again; the whole download within `timeoutMs`; a body beyond `maxBytes` aborted; only
 * `image/*` (or the declared type) accepted. Unless `allowPrivateNetworks`, a URL whose address is
 * private or local is refused: a literal IP before any connection, a host name by the address it
 * resolves to when the socket connects. Every refusal is a 400 naming the request field.
 */
export class MediaFetcher {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly allowPrivateNetworks: boolean;

  /** @param options - Limits; `optionPath` prefixes option names in configuration errors. */
  constructor(options: MediaFetchOptions = {}, optionPath = '') {
    this.timeoutMs = positiveInteger(OWNER, `${optionPath}timeoutMs`, options.timeoutMs, 10_000);
    this.maxBytes = positiveInteger(OWNER, `${optionPath}maxBytes`, options.maxBytes, 20 * MEGABYTE);
    this.maxRedirects =
      options.maxRedirects === 0 ? 0 : positiveInteger(OWNER, `${optionPath}maxRedirects`, options.maxRedirects, 3);
    this.allowPrivateNetworks = booleanOption(OWNER, 'allowPrivateNetworks', options.allowPrivateNetworks, false);
    this.agent = new undici.Agent({
      connections: 16,
      keepAliveTimeout: 10_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: this.timeoutMs, ...(this.allowPrivateNetworks ? {} : { lookup: guardedLookup }) },
    });
  }

  /** Downloads `request.url` and returns it as base64 with its media type, or throws a 400 GatewayError. */
  async fetch(request: MediaFetchRequest): Promise<FetchedMedia> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const refuse = (reason: string, code: string, cause?: unknown) =>
      new GatewayError(
        'invalid_request',
        `${request.at}: the image URL could not be downloaded (this upstream takes images inline only, so the gateway fetches them): ${reason}.`,
        {
          param: request.at,
          code,
          ...(cause === undefined ? {} : { cause }),
        },
      );
    let url = this.checkedUrl(request.url, refuse);
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await undici.request(this.agent, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { accept: 'image/*', 'user-agent': 'rosetta-gateway (image inlining)' },
          signal,
        });
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string') {
          await response.body.dump();
          if (redirects >= this.maxRedirects)
            throw refuse(`it redirects more than ${this.maxRedirects} times`, 'media_too_many_redirects');
          url = this.checkedUrl(new URL(location, url).href, refuse);
          log('media %s: redirected to %s', request.at, url.host);
          continue;
        }
        return await this.readImage(response, request, refuse);
      }
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (request.signal?.aborted) throw error;
      if (deadline.aborted) throw refuse(`it did not arrive within ${this.timeoutMs / 1000} s`, 'media_timeout', error);
      const blocked = causeChain(error).find(
        (link): link is BlockedAddressError => link instanceof BlockedAddressError,
      );
      if (blocked)
        throw refuse(
          `${blocked.hostname} resolves to ${blocked.address}, a private or local network address, which the gateway refuses to fetch`,
          'media_private_address',
          error,
        );
      throw refuse(
        `${url.host} is not reachable (${codeOf(error) ?? 'connection failed'})`,
        'media_unreachable',
        error,
      );
    }
  }

  /** An http(s) URL whose host, if a literal IP, is not blocked (checked before any connection). */
  private checkedUrl(text: string, refuse: (reason: string, code: string) => GatewayError): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw refuse('it is not a valid URL', 'media_invalid_url');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw refuse(`only http and https URLs can be fetched, not ${url.protocol}`, 'media_invalid_url');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivateNetworks && isIP(host) !== 0 && isBlockedAddress(host)) {
      throw refuse(
        `${host} is a private or local network address, which the gateway refuses to fetch`,
        'media_private_address',
      );
    }
    return url;
  }

  /** A 2xx image body read within the size cap; anything else refused. */
  private async readImage(
    response: Dispatcher.ResponseData,
    request: MediaFetchRequest,
    refuse: (reason: string, code: string) => GatewayError,
  ): Promise<FetchedMedia> {
    const abandon = async (error: GatewayError): Promise<never> => {
      response.body.on('error', () => undefined).destroy();
      throw error;
    };
    if (response.statusCode < 200 || response.statusCode >= 300)
      return abandon(refuse(`the server answered ${response.statusCode}`, 'media_unreachable'));
    const served = mediaTypeOf(response.headers['content-type']);
    const mediaType = acceptedMediaType(served, request.declaredType);
    if (!mediaType)
      return abandon(
        refuse(
          `it is not an image (the server sent ${served ? `'${served}'` : 'no content type'})`,
          'media_not_an_image',
        ),
      );
    const tooLarge = () => refuse(`it is larger than the ${this.describeLimit()} limit`, 'media_too_large');
    const declaredLength = Number(response.headers['content-length']);
    if (Number.isFinite(declaredLength) && declaredLength > this.maxBytes) return abandon(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > this.maxBytes) return abandon(tooLarge());
      chunks.push(bytes);
    }
    return { mediaType, data: Buffer.concat(chunks, size).toString('base64') };
  }

  private describeLimit(): string {
    if (this.maxBytes % MEGABYTE === 0) return `${this.maxBytes / MEGABYTE} MB`;
    return this.maxBytes % 1024 === 0 ? `${this.maxBytes / 1024} KB` : `${this.maxBytes}-byte`;
  }

  /** Closes the fetcher's connections. */
  close(): Promise<void> {
    return this.agent.close();
  }
}
