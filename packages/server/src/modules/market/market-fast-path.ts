import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoInstance } from 'pino';
import { requestIdOf } from '../../common/request-id.middleware';
import type { AuthedRequest } from '../../common/principal';
import type { MetricsService } from '../observability/metrics.service';
import type { MarketCacheService } from './market-cache.service';
import { writeMarketList } from './market-list.response';

/** The public, cached market list: the most requested read of the app (every visitor, every few seconds). */
export const MARKET_LIST_PATH = '/api/crypto/get-crypto';

/** A request handler at the node:http level: true when it answered, false to hand the request on to Express. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * `GET|HEAD /api/crypto/get-crypto` without a query, answered before Express and Nest: the route is public, has no
 * body, params or guard, and its answer is a prebuilt buffer with a precomputed ETag, so the framework's per-request
 * work (router, middleware chain, guard, interceptors, validation pipe, rxjs) would be all of its cost. It does what
 * the chain would do for it: the request id, the same security headers (`securityHeaders`, captured from helmet), the
 * HTTP metrics sample, and the request's log line. Anything else (a query such as `?limit=8`, another method, a list
 * still being built) goes the normal way, through MarketController, which writes the same bytes.
 */
export function marketListFastPath(deps: {
  cache: MarketCacheService;
  metrics: MetricsService;
  accessLog: PinoInstance;
  securityHeaders: ReadonlyArray<readonly [string, string]>;
}): FastPath {
  const { cache, metrics, accessLog } = deps;
  const securityHeaders = deps.securityHeaders.flat();
  const logInfo = () => accessLog.isLevelEnabled('info');
  return (request, response) => {
    if (request.url !== MARKET_LIST_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const entry = cache.ready();
    if (!entry) return false;
    const started = performance.now();
    const requestId = requestIdOf(request);
    (request as unknown as AuthedRequest).requestId = requestId;
    const status = writeMarketList(request, response, entry, ['X-Request-Id', requestId, ...securityHeaders]);
    const elapsedMs = performance.now() - started;
    const durationMs = Math.round(elapsedMs);
    metrics.recordResponse(request.method, MARKET_LIST_PATH, status, elapsedMs / 1000, false);
    if (logInfo()) {
      accessLog.info(
        { requestId, method: request.method, route: MARKET_LIST_PATH, path: MARKET_LIST_PATH, status, durationMs, userId: null },
        `${request.method} ${MARKET_LIST_PATH} ${status} ${durationMs}ms`,
      );
    }
    return true;
  };
}

/** The headers a (static) helmet middleware sets, captured once by running it against a recording response. */
export function capturedHeaders(middleware: (req: never, res: never, next: (error?: unknown) => void) => void): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
  };
  let done = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => (done = true));
  if (!done) throw new Error('The security header middleware did not finish synchronously.');
  return [...headers.values()];
}
