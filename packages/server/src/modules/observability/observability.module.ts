import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { AppLogger } from './logging';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** Prometheus metrics at GET /api/metrics and the HTTP metrics middleware; the logger Nest uses (see logging.ts). */
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, HttpMetricsMiddleware, AppLogger],
  exports: [MetricsService, AppLogger],
})
export class ObservabilityModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}
