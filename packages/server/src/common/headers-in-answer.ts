import type { FastifyRequest } from 'fastify';
import { matchedRoute } from './matched-route';

/**
 * A route's config flag: its answers are written with one prebuilt header list holding the request id and the API
 * security headers (the market list, market-list.route.ts), so the app-wide hooks leave them off the raw response and
 * node:http takes its fast path (one writeHead with the list, no setHeader before it). When such a route does not answer
 * from its list, its own hook sets them as the app-wide hooks would.
 */
export interface HeadersInAnswerConfig {
  headersInAnswer?: boolean;
}

export function headersInAnswer(request: FastifyRequest): boolean {
  return (matchedRoute(request)?.config as HeadersInAnswerConfig | undefined)?.headersInAnswer === true;
}
