import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { cached, MetricsService } from '../observability/metrics.service';
import { CoinsRepository } from './coins.repository';

/** The age of the newest price is read at scrape time at most this often (a scrape every 15 s must stay cheap). */
const PRICE_AGE_TTL_MS = 5_000;

/** The market's series, registered with the app's metrics: price refresh outcomes and the age of the prices. */
@Injectable()
export class MarketMetrics {
  private readonly refreshes: Counter<'outcome'>;

  constructor(metrics: MetricsService, coins: CoinsRepository, @Inject(APP_CONFIG) config: AppConfig) {
    const registers = [metrics.registry];
    this.refreshes = new Counter({
      name: 'coinpurse_price_refresh_total',
      help: 'Market price refresh attempts by outcome (refreshed, skipped, failed)',
      labelNames: ['outcome'] as const,
      registers,
    });
    const priceAges = cached(PRICE_AGE_TTL_MS, () => coins.marketSummary());
    new Gauge({
      name: 'coinpurse_price_age_seconds',
      help: 'Age of the newest market price by source (live from the provider, or the bundled snapshot)',
      labelNames: ['source'] as const,
      registers,
      async collect() {
        this.reset();
        for (const entry of (await priceAges()) ?? []) {
          if (entry.newest) this.set({ source: entry.source }, Math.max(0, (Date.now() - entry.newest.getTime()) / 1000));
        }
      },
    });
    const maxAge = config.priceMaxAgeSeconds;
    new Gauge({
      name: 'coinpurse_price_max_age_seconds',
      help: 'PRICE_MAX_AGE_SECONDS: the oldest price accepted for money operations in production',
      registers,
      collect() {
        this.set(maxAge);
      },
    });
  }

  /** One refresh attempt ended so (refreshed, skipped or failed). */
  countRefresh(outcome: 'refreshed' | 'skipped' | 'failed'): void {
    this.refreshes.inc({ outcome });
  }
}
