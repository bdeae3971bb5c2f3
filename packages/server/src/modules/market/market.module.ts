import { Global, Module } from '@nestjs/common';
import { CoinsRepository } from './coins.repository';
import { PriceService } from './price.service';

@Global()
@Module({ providers: [CoinsRepository, PriceService], exports: [CoinsRepository, PriceService] })
export class MarketModule {}
