import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoInstance } from 'pino';
import { requestIdOf } from '../../common/request-id.middleware';
import type { AuthedRequest } from '../../common/principal';
import { logRequestLine, RequestLineSample } from '../observability/logging';
import type { MetricsService } from '../observability/metrics.service';
import type { CachedBody, MarketCacheService } from './market-cache.service';
import { type MarketListHeaders, marketListHeaders, writeMarketList } from './market-list.response';

/** The public, cached market list: the most requested read of the app (every visitor, every few seconds). */
export const MARKET_LIST_PATH = '/api/crypto/get-crypto';

/** A request handler at the node:http level: true when it answered, false to hand the request on to the framework. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The market list's request lines, sampled (see CACHED_READ_LOG_SAMPLE): one count for this path and the controller's. */
export const MARKET_LIST_LOG_SAMPLE = new RequestLineSample();

/**
 * `GET|HEAD /api/crypto/get-crypto` without a query, answered before Fastify and Nest: the route is public, has no
 * body, params or guard, and its answer is a prebuilt buffer with a precomputed ETag, so the framework's per-request
 * work would be most of its cost. Measured (pnpm bench get-crypto, one run, 2 shared cores): answered here, 0.66 of
 * bare node:http's req/s for the 200 and 0.49 for the 304; answered by a Fastify onRequest hook once its route
 * matched (no Nest), 0.50 and 0.38 — the swap is worth 0.11 to 0.16 of the ratio, so it stays. What the framework
 * would do for it comes from the same places as every other answer's: the request id (`requestIdOf`), the API security
 * headers (API_SECURITY_HEADERS, as registerSecurityHeaders sets them), the metrics sample (`recordResponse`, as the
 * onResponse hook) and the request line (`logRequestLine`, sampled). Anything else (a query such as `?limit=8`, another
 * method, a list still being built) goes the normal way, through MarketController, which writes the same bytes.
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
    metrics.recordResponse(request.method, MARKET_LIST_PATH, status, elapsedMs / 1000, false);
    logRequestLine(accessLog, MARKET_LIST_LOG_SAMPLE, requestId, request.method, MARKET_LIST_PATH, MARKET_LIST_PATH, status, Math.round(elapsedMs), null);
    return true;
  };
}
