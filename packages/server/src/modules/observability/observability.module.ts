import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics at GET /api/metrics (the HTTP series are recorded by a hook: see http-metrics.ts). Global: feature
 * modules register their own series with MetricsService (observability imports none of them).
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}
