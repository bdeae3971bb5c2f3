import { Global, Module } from '@nestjs/common';
import { ChainConnections } from './chain-connections';
import { ChainDepositsRepository } from './chain-deposits.repository';
import { ChainWatcherService } from './chain-watcher.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositAddressesService } from './deposit-addresses.service';

/** Deposits from the chain: node connections, customers' deposit addresses, the watchers. */
@Global()
@Module({
  providers: [ChainConnections, DepositAddressesRepository, DepositAddressesService, ChainDepositsRepository, ChainWatcherService],
  exports: [ChainConnections, DepositAddressesService, ChainDepositsRepository, ChainWatcherService],
})
export class ChainModule {}
