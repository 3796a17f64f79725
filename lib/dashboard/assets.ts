/**
 * The dashboard's page and its static files: the page's own HTML, script and styles (lib/dashboard/page/, copied to
 * dist by the build) and the uPlot charting library's script and styles, read from the `uplot` package (MIT): nothing
 * is loaded from elsewhere, so the page works on a host without internet access.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

interface Asset {
  /** Where the file is read from (once, on its first request). */
  file: () => string;
  type: string;
}

const PAGE = join(__dirname, 'page');

const ASSETS: Record<string, Asset> = {
  '/assets/dashboard.js': { file: () => join(PAGE, 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
  '/assets/dashboard.css': { file: () => join(PAGE, 'dashboard.css'), type: 'text/css; charset=utf-8' },
  '/assets/uplot.js': {
    file: () => require.resolve('uplot/dist/uPlot.iife.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  '/assets/uplot.css': { file: () => require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

/** The page's policy: its own scripts only, data from its own API only, never framed. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export class DashboardAssets {
  private readonly cache = new Map<string, Buffer>();

  /** `banner`: a warning shown at the top of the page (the dashboard has no auth). */
  constructor(private readonly banner: string | undefined) {}

  /** Answers the page (`/`) or one of its files; a 404 for another path under `/assets/`. */
  answer(request: IncomingMessage, path: string, response: ServerResponse): void {
    if (path === '/') {
      this.page(request, response);
      return;
    }
    const asset = ASSETS[path];
    if (!asset) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found.\n');
      return;
    }
    const body = this.read(path, () => readFileSync(asset.file()));
    response.writeHead(200, {
      'content-type': asset.type,
      'content-length': String(body.length),
      'cache-control': 'private, max-age=300',
      'x-content-type-options': 'nosniff',
    });
    response.end(body);
  }

  private page(request: IncomingMessage, response: ServerResponse): void {
    // The page's links are relative (`assets/…`, `api/…`): mounted at /admin, it must be /admin/ for them to resolve.
    const original = (request as IncomingMessage & { originalUrl?: string }).originalUrl;
    if (original !== undefined) {
      const [path = '', query] = original.split('?', 2);
      if (!path.endsWith('/')) {
        response.writeHead(308, { location: `${path}/${query === undefined ? '' : `?${query}`}` });
        response.end();
        return;
      }
    }
    const body = this.read('/', () => {
      const html = readFileSync(join(PAGE, 'index.html'), 'utf8');
      const banner =
        this.banner === undefined ? '' : `<div class="banner" role="alert">${escapeHtml(this.banner)}</div>`;
      return Buffer.from(html.replace('<!--banner-->', banner));
    });
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
      'cache-control': 'no-store',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(body);
  }

  private read(path: string, load: () => Buffer): Buffer {
    let body = this.cache.get(path);
    if (!body) this.cache.set(path, (body = load()));
    return body;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
