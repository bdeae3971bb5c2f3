import { Global, Module } from '@nestjs/common';
import { ReferenceDataCache } from './reference-data.cache';
import { ReferenceDataRepository } from './reference-data.repository';

/** The in-memory copy of prices, supported tokens and token networks (global: market, wallet and networks read it). */
@Global()
@Module({ providers: [ReferenceDataRepository, ReferenceDataCache], exports: [ReferenceDataCache] })
export class ReferenceDataModule {}
