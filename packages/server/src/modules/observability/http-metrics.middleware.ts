import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routePattern } from './logging';
import { MetricsService } from './metrics.service';

/**
 * Observes every response when it finishes: duration by route pattern and status, 429s, idempotent replays (the
 * `Idempotent-Replayed` header) and money operations' outcomes. Requests that matched no route share one label.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const route = routePattern(request) ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.recordResponse(request.method, route, response.statusCode, seconds, response.getHeader('Idempotent-Replayed') === 'true');
    });
    next();
  }
}
