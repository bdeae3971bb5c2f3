import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_SECURITY_HEADERS } from '../../common/security-headers';
import type { CachedBody } from './market-cache.service';

/** The response headers of one cached body, per answer, as flat name, value lists ready for writeHead. */
export interface MarketListHeaders {
  notModified: readonly string[];
  identity: readonly string[];
  gzip: readonly string[];
}

/**
 * The header lists of a cached get-crypto body, built once per body. A 304 carries what RFC 9110 (15.4.5) asks of it
 * (ETag, Cache-Control, Vary) and nothing else: the copy it revalidates keeps the headers it came with, security
 * headers included. The 200s: the same cache headers, type, encoding and length.
 */
export function marketListHeaders(entry: CachedBody): MarketListHeaders {
  const cache = ['ETag', entry.etag, 'Cache-Control', 'no-cache', 'Vary', 'Accept-Encoding'];
  // Every 200 carries the API security headers (registerSecurityHeaders) in its own list.
  const json = [
    'Cache-Control',
    'no-cache',
    ...API_SECURITY_HEADERS.flat(),
    'ETag',
    entry.etag,
    'Vary',
    'Accept-Encoding',
    'Content-Type',
    'application/json; charset=utf-8',
  ];
  return {
    notModified: cache,
    identity: [...json, 'Content-Length', String(entry.body.length)],
    gzip: [...json, 'Content-Encoding', 'gzip', 'Content-Length', String(entry.gzip.length)],
  };
}

/**
 * Writes a cached get-crypto body (or a 304 when the client holds it) with plain node:http calls, so the market list's
 * route hook (market-list.route.ts) and MarketController answer byte for byte alike. One writeHead call with the
 * prebuilt list: from the route hook, given the request id, the whole header list (nothing set before it: node:http's
 * fast path); from the controller, after the app's hooks set the request id and security headers, merged with them.
 * Returns the status sent.
 */
export function writeMarketList(
  request: IncomingMessage,
  response: ServerResponse,
  entry: CachedBody,
  headers: MarketListHeaders = marketListHeaders(entry),
  requestId?: string,
): 200 | 304 {
  if (etagMatches(request.headers['if-none-match'], entry.etag)) {
    // A 304 carries no security headers: remove those the app's hooks set (the controller's way here).
    if (!requestId) for (const [name] of API_SECURITY_HEADERS) response.removeHeader(name);
    response.writeHead(304, (requestId ? ['X-Request-Id', requestId, ...headers.notModified] : headers.notModified) as string[]);
    response.end();
    return 304;
  }
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  const list = gzip ? headers.gzip : headers.identity;
  response.writeHead(200, (requestId ? ['X-Request-Id', requestId, ...list] : list) as string[]);
  response.end(request.method === 'HEAD' ? undefined : gzip ? entry.gzip : entry.body);
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
