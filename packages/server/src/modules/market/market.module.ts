import { Global, Module } from '@nestjs/common';
import { AppStateRepository } from './app-state.repository';
import { CoinsRepository } from './coins.repository';
import { MarketCacheService } from './market-cache.service';
import { MarketMetrics } from './market-metrics';
import { MarketRefreshService } from './market-refresh.service';
import { MarketController } from './market.controller';
import { MarketService } from './market.service';
import { PriceHistoryRepository } from './price-history.repository';
import { PriceHistoryService } from './price-history.service';
import { PriceService } from './price.service';
import { SupportedTokensRepository } from './supported-tokens.repository';

@Global()
@Module({
  controllers: [MarketController],
  providers: [
    CoinsRepository,
    PriceService,
    AppStateRepository,
    SupportedTokensRepository,
    MarketCacheService,
    MarketMetrics,
    MarketRefreshService,
    MarketService,
    PriceHistoryRepository,
    PriceHistoryService,
  ],
  exports: [CoinsRepository, PriceService, AppStateRepository, SupportedTokensRepository, MarketCacheService, MarketRefreshService, PriceHistoryService],
})
export class MarketModule {}
