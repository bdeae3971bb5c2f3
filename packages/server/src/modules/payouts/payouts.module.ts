import { Module } from '@nestjs/common';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { NetworkFeeService } from './network-fee.service';
import { PayoutBumps } from './payout-bumps';
import { PayoutCompletion } from './payout-completion';
import { PayoutVersionsRepository } from './payout-versions.repository';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed. */
@Module({
  controllers: [PayoutsController],
  providers: [PayoutsRepository, PayoutsService, NetworkFeeService, PayoutBumps, PayoutCompletion, PayoutVersionsRepository],
  exports: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}
