import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoInstance } from 'pino';
import { requestIdOf } from '../../common/request-id.middleware';
import type { AuthedRequest } from '../../common/principal';
import type { MetricsService } from '../observability/metrics.service';
import type { CachedBody, MarketCacheService } from './market-cache.service';
import { type MarketListHeaders, marketListHeaders, writeMarketList } from './market-list.response';

/** The public, cached market list: the most requested read of the app (every visitor, every few seconds). */
export const MARKET_LIST_PATH = '/api/crypto/get-crypto';

/** A request handler at the node:http level: true when it answered, false to hand the request on to the framework. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * One info line per this many fast-path answers (the others at debug). Each answer is counted in the metrics; a line
 * per 304 of a public, cached, anonymous read would be most of the log volume and of its cost, and holds nothing an
 * investigation needs (no user, no money, no error).
 */
export const FAST_PATH_LOG_SAMPLE = 1000;

/**
 * `GET|HEAD /api/crypto/get-crypto` without a query, answered before Fastify and Nest: the route is public, has no
 * body, params or guard, and its answer is a prebuilt buffer with a precomputed ETag, so the framework's per-request
 * work (router, middleware chain, guard, interceptors, validation pipe, rxjs) would be all of its cost. It does what
 * the chain would do for it: the request id, the API security headers (`securityHeaders`, the ones every JSON answer
 * gets), the HTTP metrics sample and the request's log line (sampled, see FAST_PATH_LOG_SAMPLE). The header lists are
 * built once per cached body. Anything else (a query such as `?limit=8`, another method, a list still being built)
 * goes the normal way, through MarketController, which writes the same bytes.
 */
export function marketListFastPath(deps: {
  cache: MarketCacheService;
  metrics: MetricsService;
  accessLog: PinoInstance;
  securityHeaders: ReadonlyArray<readonly [string, string]>;
}): FastPath {
  const { cache, metrics, accessLog } = deps;
  const securityHeaders = deps.securityHeaders.flat();
  let headersFor: CachedBody | undefined;
  let headers: MarketListHeaders | undefined;
  let answered = 0;
  return (request, response) => {
    if (request.url !== MARKET_LIST_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const entry = cache.ready();
    if (!entry) return false;
    const started = performance.now();
    const requestId = requestIdOf(request);
    (request as unknown as AuthedRequest).requestId = requestId;
    if (headersFor !== entry || !headers) {
      headers = marketListHeaders(entry, securityHeaders);
      headersFor = entry;
    }
    const status = writeMarketList(request, response, entry, headers, requestId);
    const elapsedMs = performance.now() - started;
    metrics.recordCachedRead(request.method, MARKET_LIST_PATH, status, elapsedMs / 1000);
    answered = (answered + 1) % FAST_PATH_LOG_SAMPLE;
    const level = answered === 1 ? 'info' : 'debug';
    if (accessLog.isLevelEnabled(level)) {
      const durationMs = Math.round(elapsedMs);
      accessLog[level](
        {
          requestId,
          method: request.method,
          route: MARKET_LIST_PATH,
          path: MARKET_LIST_PATH,
          status,
          durationMs,
          userId: null,
          ...(level === 'info' ? { sampled: FAST_PATH_LOG_SAMPLE } : {}),
        },
        `${request.method} ${MARKET_LIST_PATH} ${status} ${durationMs}ms`,
      );
    }
    return true;
  };
}
