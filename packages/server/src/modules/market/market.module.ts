import { Global, Module } from '@nestjs/common';
import { AppStateRepository } from './app-state.repository';
import { CoinsRepository } from './coins.repository';
import { MarketCacheService } from './market-cache.service';
import { MarketRefreshService } from './market-refresh.service';
import { MarketController } from './market.controller';
import { MarketService } from './market.service';
import { PriceService } from './price.service';
import { SupportedTokensRepository } from './supported-tokens.repository';

@Global()
@Module({
  controllers: [MarketController],
  providers: [CoinsRepository, PriceService, AppStateRepository, SupportedTokensRepository, MarketCacheService, MarketRefreshService, MarketService],
  exports: [CoinsRepository, PriceService, AppStateRepository, SupportedTokensRepository, MarketCacheService, MarketRefreshService],
})
export class MarketModule {}
