import { Module } from '@nestjs/common';
import { CustomTokensService } from './custom-tokens.service';
import { MarketTokensService } from './market-tokens.service';
import { TokenChanges } from './token-changes';
import { TokenContracts } from './token-contracts';
import { TokenHoldingsRepository } from './token-holdings.repository';
import { TokensController } from './tokens.controller';

/** Admin tokens and custom tokens (the token, coin and network repositories come from the global Market and Networks modules). */
@Module({
  controllers: [TokensController],
  providers: [MarketTokensService, CustomTokensService, TokenChanges, TokenContracts, TokenHoldingsRepository],
})
export class TokensModule {}
