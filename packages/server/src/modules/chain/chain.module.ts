import { Global, Module } from '@nestjs/common';
import { CustomerDepositAddresses } from '../market/customer-deposit-addresses';
import { ChainCustomerAddresses } from './chain-customer-addresses';
import { ObservabilityModule } from '../observability/observability.module';
import { ChainController } from './chain.controller';
import { ChainStatusService } from './chain-status.service';
import { ChainConnections } from './chain-connections';
import { ChainDepositsRepository } from './chain-deposits.repository';
import { ChainWatcherService } from './chain-watcher.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositAddressesService } from './deposit-addresses.service';

/** Deposits from the chain: node connections, customers' deposit addresses, the watchers. */
@Global()
@Module({
  imports: [ObservabilityModule],
  controllers: [ChainController],
  providers: [
    { provide: CustomerDepositAddresses, useClass: ChainCustomerAddresses },
    ChainStatusService,
    ChainConnections,
    DepositAddressesRepository,
    DepositAddressesService,
    ChainDepositsRepository,
    ChainWatcherService,
  ],
  // CustomerDepositAddresses: the token list's port (market), bound here.
  exports: [CustomerDepositAddresses, ChainConnections, DepositAddressesService, ChainDepositsRepository, ChainWatcherService],
})
export class ChainModule {}
