import { Global, Module } from '@nestjs/common';
import { CustomerDepositAddresses } from '../market/customer-deposit-addresses';
import { ChainCustomerAddresses } from './chain-customer-addresses';
import { ObservabilityModule } from '../observability/observability.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { ChainDepositReversals } from '../approvals/chain-deposit-reversals';
import { DepositHoldReleases } from '../approvals/deposit-hold-releases';
import { DepositCreditsService } from './deposit-credits.service';
import { DepositHoldsController } from './deposit-holds.controller';
import { DepositHoldsRepository } from './deposit-holds.repository';
import { DepositHoldsService } from './deposit-holds.service';
import { DepositScreeningService } from './deposit-screening.service';
import { ChainController } from './chain.controller';
import { ChainStatusService } from './chain-status.service';
import { ChainConnections } from './chain-connections';
import { ChainDepositsRepository } from './chain-deposits.repository';
import { ChainWatcherService } from './chain-watcher.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositAddressesService } from './deposit-addresses.service';
import { DepositDropsService } from './deposit-drops.service';
import { DepositReviewsController } from './deposit-reviews.controller';
import { DepositReviewsRepository } from './deposit-reviews.repository';
import { DepositReviewsService } from './deposit-reviews.service';
import { DepositTagsController } from './deposit-tags.controller';
import { DepositTagsRepository } from './deposit-tags.repository';
import { DepositTagsService } from './deposit-tags.service';

/** Deposits from the chain: node connections, customers' deposit addresses, the watchers. */
@Global()
@Module({
  // ApprovalsModule: the four-eyes gate (taking a deposit back is an admin money action).
  imports: [ObservabilityModule, ApprovalsModule],
  controllers: [ChainController, DepositReviewsController, DepositTagsController, DepositHoldsController],
  providers: [
    { provide: CustomerDepositAddresses, useClass: ChainCustomerAddresses },
    ChainStatusService,
    ChainConnections,
    DepositAddressesRepository,
    DepositAddressesService,
    ChainDepositsRepository,
    ChainWatcherService,
    DepositTagsRepository,
    DepositTagsService,
    DepositReviewsRepository,
    DepositReviewsService,
    DepositDropsService,
    { provide: ChainDepositReversals, useExisting: DepositReviewsService },
    DepositCreditsService,
    DepositHoldsRepository,
    DepositHoldsService,
    DepositScreeningService,
    { provide: DepositHoldReleases, useExisting: DepositHoldsService },
  ],
  // CustomerDepositAddresses: the token list's port (market), bound here; ChainDepositReversals: the approvals' (applied by admin).
  exports: [
    CustomerDepositAddresses,
    ChainConnections,
    DepositAddressesService,
    ChainDepositsRepository,
    ChainWatcherService,
    ChainDepositReversals,
    DepositHoldReleases,
  ],
})
export class ChainModule {}
