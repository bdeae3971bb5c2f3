import { API_PREFIX, MarketRoutes } from '@coinpurse/contract';
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import type { HeadersInAnswerConfig } from '../../common/headers-in-answer';
import type { AuthedRequest } from '../../common/principal';
import { setApiSecurityHeaders } from '../../common/security-headers';
import { RequestLineSample } from '../observability/logging';
import type { CachedBody, MarketCacheService } from './market-cache.service';
import { type MarketListHeaders, marketListHeaders, writeMarketList } from './market-list.response';

/** The public, cached market list: the most requested read of the app (every visitor, every few seconds). */
export const MARKET_LIST_PATH = `/${API_PREFIX}/${MarketRoutes.getCrypto}`;

/** The market list's request lines, sampled (see CACHED_READ_LOG_SAMPLE). */
export const MARKET_LIST_LOG_SAMPLE = new RequestLineSample();

/**
 * The plain market list (`GET|HEAD /api/crypto/get-crypto`, no query) answered by an `onRequest` hook of its own route
 * once the list is built: Fastify routed it and every app-wide hook has run (request id and security headers — which
 * this route writes in its answer's own header list, one writeHead and nothing before it; the metrics
 * sample and the request line when it ends), only Nest's per-handler work is left out — the route is public, and
 * without a query there is nothing for its guard or validation pipe to look at. A query (`?limit=8`) or a list still
 * being built goes on to MarketController, which writes the same bytes with the same writer.
 */
export function registerMarketListAnswer(fastify: FastifyInstance, cache: MarketCacheService): void {
  let headersFor: CachedBody | undefined;
  let headers: MarketListHeaders | undefined;
  const answer: onRequestHookHandler = (request, reply, done) => {
    const entry = request.raw.url!.includes('?') ? undefined : cache.ready();
    if (entry) {
      if (headersFor !== entry || !headers) {
        headers = marketListHeaders(entry);
        headersFor = entry;
      }
      reply.hijack();
      writeMarketList(request.raw, reply.raw, entry, headers, (request as AuthedRequest).requestId);
    } else {
      // The controller (or an error) answers: with the headers the app's hooks give every API answer.
      const requestId = (request as AuthedRequest).requestId;
      if (requestId) reply.raw.setHeader('X-Request-Id', requestId);
      setApiSecurityHeaders(reply.raw);
    }
    done();
  };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.url !== MARKET_LIST_PATH) return;
    // The request id and security headers are written in the answer's own list (common/headers-in-answer.ts).
    const config: HeadersInAnswerConfig = { ...(route.config as object | undefined), headersInAnswer: true };
    route.config = config as RouteOptions['config'];
    route.onRequest = [...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]), answer];
  });
}
