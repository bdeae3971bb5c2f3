import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedBody } from './market-cache.service';

/**
 * Writes a cached get-crypto body (or a 304 when the client holds it) with plain node:http calls, so the controller
 * and the fast path (market-fast-path.ts) answer byte for byte alike. `leading`: more headers as a flat name, value
 * list (the fast path's request id and security headers). One writeHead call: no per-header bookkeeping when nothing
 * was set before. Returns the status sent.
 */
export function writeMarketList(request: IncomingMessage, response: ServerResponse, entry: CachedBody, leading: readonly string[] = []): number {
  const headers = [...leading, 'ETag', entry.etag, 'Cache-Control', 'no-cache', 'Vary', 'Accept-Encoding'];
  if (etagMatches(request.headers['if-none-match'], entry.etag)) {
    response.writeHead(304, headers);
    response.end();
    return 304;
  }
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  const body = gzip ? entry.gzip : entry.body;
  headers.push('Content-Type', 'application/json; charset=utf-8');
  if (gzip) headers.push('Content-Encoding', 'gzip');
  headers.push('Content-Length', String(body.length));
  response.writeHead(200, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
  return 200;
}

/** If-None-Match: `*` or a list of (possibly weak) entity tags. */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === etag) return true;
  if (value.trim() === '*') return true;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}
