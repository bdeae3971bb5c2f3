import { Module } from '@nestjs/common';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';

/** Admin tokens and custom tokens (repositories come from the global MarketModule). */
@Module({ controllers: [TokensController], providers: [TokensService] })
export class TokensModule {}
