import type { FastifyRequest } from 'fastify';

const MATCHED = Symbol('matchedRoute');

type WithMatched = FastifyRequest & { [MATCHED]?: FastifyRequest['routeOptions'] };

/**
 * The options of the route a request matched, read once per request: Fastify's `request.routeOptions` builds a new
 * object of thirteen fields on every read, and the app-wide hooks (security headers, the request line, the metrics)
 * read it three or four times for every answer.
 */
export function matchedRoute(request: FastifyRequest): FastifyRequest['routeOptions'] {
  const holder = request as WithMatched;
  return (holder[MATCHED] ??= request.routeOptions);
}
