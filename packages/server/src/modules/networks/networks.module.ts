import { Global, Module } from '@nestjs/common';
import { NetworksController } from './networks.controller';
import { NetworksService } from './networks.service';
import { TokenNetworksRepository } from './token-networks.repository';

/** The network registry's public list and the token ↔ network rows (global: tokens, wallet and market read them). */
@Global()
@Module({ controllers: [NetworksController], providers: [NetworksService, TokenNetworksRepository], exports: [TokenNetworksRepository, NetworksService] })
export class NetworksModule {}
