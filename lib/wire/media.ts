/** Media sources as URLs: data URLs (`data:<type>;base64,…`) and plain URLs, for codecs and providers alike. */
import type { MediaSource } from '../canonical';

const DATA_URL = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s;

/** Parses `data:<type>;base64,<data>` into a base64 source, or a URL source for anything else. */
export function sourceFromUrl(url: string): MediaSource | undefined {
  if (url.startsWith('data:')) {
    const match = DATA_URL.exec(url);
    if (!match) return undefined;
    return { kind: 'base64', mediaType: match[1] ?? 'application/octet-stream', data: match[3]! };
  }
  return { kind: 'url', url };
}

/** A media source as a URL: the URL itself, or a data URL. */
export function sourceToUrl(source: MediaSource): string {
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}
