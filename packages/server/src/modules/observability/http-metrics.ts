import type { FastifyInstance } from 'fastify';
import { routePattern } from './logging';
import type { MetricsService } from './metrics.service';

/**
 * Observes every response when it has been sent (a hook on the app's Fastify instance): duration by route pattern and
 * status, 429s, idempotent replays (the `Idempotent-Replayed` header) and money operations' outcomes. Requests that
 * matched no route share one label.
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.recordResponse(
      request.method,
      routePattern(request) ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
      reply.getHeader('Idempotent-Replayed') === 'true',
    );
    done();
  });
}
